/**
 * Incremental parser for text/event-stream: feed chunks, get (event, data) pairs. It also keeps
 * what a reader needs to take a stream up again (the last event id, the server's `retry`) and
 * whether the server sends comments, the stream's usual keep-alives.
 */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private dataChars = 0;
  private event = '';
  private id: string | undefined;
  /** The reconnection time the server asked for (`retry:`), in milliseconds. */
  retryMs: number | undefined;
  /** A comment line (`: keepalive`) has arrived: the server marks time on this stream. */
  sawComment = false;

  constructor(private readonly onEvent: (e: SseEvent) => void) {}

  push(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      let line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length) {
        const e: SseEvent = { event: this.event || 'message', data: this.data.join('\n') };
        if (this.id !== undefined) e.id = this.id;
        this.onEvent(e);
      }
      this.data = [];
      this.dataChars = 0;
      this.event = '';
      return;
    }
    if (line.startsWith(':')) {
      this.sawComment = true;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.dataChars += value.length;
    } else if (field === 'event') this.event = value;
    // An id holding NUL is ignored, as the EventSource specification says.
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
  }

  /** Characters held for an event not yet complete: what a reader bounds, as it bounds a whole message. */
  get pending(): number {
    return this.buffer.length + this.dataChars;
  }

  /** The id of the last event that had one (kept across events, as the EventSource specification says). */
  get lastEventId(): string | undefined {
    return this.id;
  }
}
