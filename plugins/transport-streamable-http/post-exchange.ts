/**
 * One POST's worth of JSON-RPC exchange. Answers with plain JSON when every response is
 * ready before anything else needs saying (the common case, and the cheapest), and
 * upgrades to an SSE stream the moment a related notification (progress, logging) must
 * go out before the response, or once the answer has been awaited a whole keep-alive
 * interval: from then on a comment each interval keeps proxies from cutting it (keep-alive.ts).
 */
import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage, RequestId } from '#mcp-sdk/types.js';
import { KEEP_ALIVE_COMMENT, type KeptAlive, type StreamKeepAlive } from '../../lib/http/stream-keep-alive.js';

export class PostExchange implements KeptAlive {
  private mode: 'waiting' | 'sse' | 'done' = 'waiting';
  private readonly responses: JSONRPCMessage[] = [];
  private remaining: number;
  /** Requests of this exchange the client cancelled: no answer is coming for them, nor counted if one comes. */
  private cancelled: Set<RequestId> | undefined;
  /** Keep-alive ticks seen: the first may come a moment after the POST, the second a whole interval after. */
  private ticks = 0;

  constructor(
    private readonly res: ServerResponse,
    readonly ids: readonly RequestId[],
    private readonly batch: boolean,
    private readonly headers: Record<string, string>,
    /** `completed`: every request answered (or cancelled by the client), not the exchange cut short. */
    private readonly onDone: (completed: boolean) => void,
    private readonly keptAlive: StreamKeepAlive,
  ) {
    this.remaining = ids.length;
    // `on`, not `once`: a response closes once, and a once-wrapper per POST is hot-path cost.
    res.on('close', () => {
      if (this.mode !== 'done') this.finish(false);
    });
    keptAlive.add(this);
  }

  keepAlive(): void {
    if (this.mode === 'done' || ++this.ticks < 2 || this.res.writableNeedDrain) return;
    if (this.mode === 'waiting') this.upgrade();
    this.res.write(KEEP_ALIVE_COMMENT);
  }

  /** A response (or error) for one of this exchange's requests. */
  respond(message: JSONRPCMessage): void {
    if (this.mode === 'done' || (this.cancelled !== undefined && this.cancelled.has((message as { id: RequestId }).id))) return;
    this.remaining--;
    if (this.mode === 'sse') this.writeEvent(message);
    else this.responses.push(message);
    if (this.remaining === 0) this.complete();
  }

  /**
   * The client cancelled request `id` of this exchange: its answer is not sent (the specification
   * says a cancelled request is not answered), so the exchange ends once the others are answered,
   * as if it had been. Left open, the stream was held for as long as the client kept reading,
   * which a client that cancelled has no reason to stop doing.
   */
  cancel(id: RequestId): void {
    if (this.mode === 'done' || !this.ids.includes(id) || this.cancelled?.has(id)) return;
    (this.cancelled ??= new Set()).add(id);
    if (--this.remaining === 0) this.complete();
  }

  /** Every request answered or cancelled: the answers go, as JSON when nothing went before them. */
  private complete(): void {
    if (this.mode === 'waiting' && this.responses.length === 0) {
      // Nothing to answer (every request cancelled): a stream with no event, which a client
      // takes like one its server ended early. JSON would need a body; 202 is for notifications.
      this.upgrade();
    }
    if (this.mode === 'sse') {
      this.res.end();
    } else {
      const body = JSON.stringify(this.batch ? this.responses : this.responses[0]);
      this.res.writeHead(200, { ...this.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      this.res.end(body);
    }
    this.finish(true);
  }

  /** A request or notification related to this exchange's requests. */
  notify(message: JSONRPCMessage): void {
    if (this.mode === 'done') return;
    if (this.mode === 'waiting') this.upgrade();
    this.writeEvent(message);
  }

  /** From JSON to an SSE stream: the headers go, and the responses already ready as its first events. */
  private upgrade(): void {
    this.mode = 'sse';
    this.res.writeHead(200, { ...this.headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const r of this.responses.splice(0)) this.writeEvent(r);
  }

  /**
   * The request is refused as a whole (an initialize whose session cannot be recorded): the
   * status and body given, without the exchange's headers, so no session id is handed out.
   */
  refuse(status: number, message: JSONRPCMessage, headers: Record<string, string>): void {
    if (this.mode === 'done') return;
    if (this.mode === 'sse') {
      // Headers already left (a notification went first): the refusal is the stream's last event.
      this.writeEvent(message);
      this.res.end();
      this.finish(false);
      return;
    }
    const body = JSON.stringify(message);
    this.res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    this.res.end(body);
    this.finish(false);
  }

  /**
   * The session ended (here, or on another replica) before every answer was ready: the
   * POST is answered 404, as a request for an ended session is, rather than left open.
   */
  abandon(sessionId: string): void {
    if (this.mode === 'done') return;
    if (this.mode === 'sse') {
      this.res.end();
    } else {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32001, message: `Session '${sessionId}' ended before this request was answered` },
      });
      this.res.writeHead(404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      this.res.end(body);
    }
    this.finish(false);
  }

  private writeEvent(message: JSONRPCMessage): void {
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  private finish(completed: boolean): void {
    this.mode = 'done';
    this.keptAlive.delete(this);
    this.onDone(completed);
  }
}
