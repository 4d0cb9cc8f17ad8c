/**
 * The notification stream of a 2025-11-25 session over streamable HTTP (the GET stream), opened
 * after initialize and again whenever it ends: after the server's `retry` or a backoff, resumed
 * from its last event id (`Last-Event-ID`, SEP-1699). Opened again without one, it may have
 * missed notifications, and the lists are read again (`resync`). A server without the stream
 * (405) sends no unsolicited notifications; one that no longer knows the session (404), or still
 * holds a stream of it we lost (409), gets a new session, and so does one that cannot be reached.
 */
import type { IncomingMessage } from 'node:http';
import type { JSONRPCMessage } from '#mcp-sdk/types.js';
import { EventStreamReading, reopenDelay, REOPENED_ANSWER_WITHIN_MS, type StreamEnd } from './event-stream.js';
import { HttpStatusError, isEventStream, readAll, type RequestHow } from './http-answer.js';

/** What the stream needs of its transport. */
export interface NotificationStreamHost {
  /** A GET of the endpoint with the session's headers and `extra`. */
  get(extra: Record<string, string>, how: RequestHow): Promise<IncomingMessage>;
  message(message: JSONRPCMessage): void;
  /** Said in the log; the stream goes on trying. */
  error(err: Error): void;
  /** The session is over: the connection is made again. */
  lost(err: Error): void;
  /** Notifications may have been missed: read the lists again. */
  resync(): void;
  /** Closes the pool's idle sockets to the server (the path that stranded the stream may have stranded them). */
  dropIdleSockets(): void;
  /** The server's address as said in messages. */
  readonly where: string;
  readonly maxEventChars: number;
}

export class NotificationStream {
  private reading: EventStreamReading | undefined;
  /** Where the stream resumes: the last event id it carried, across reopenings. */
  private from: string | undefined;
  /** The keep-alive rhythm the last stream showed, which the next one is judged by (event-stream.ts). */
  private rhythmMs: number | undefined;
  /** The server's reconnection time (`retry:`), kept across streams as an event source keeps it. */
  private retryMs: number | undefined;
  /** Openings that failed in a row. */
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly host: NotificationStreamHost) {}

  /** `after`: how the stream this one replaces ended (undefined: the first, after initialize). */
  async open(after?: StreamEnd): Promise<void> {
    if (this.closed || this.reading) return;
    const from = this.from;
    let res: IncomingMessage;
    try {
      res = await this.host.get(
        from === undefined ? {} : { 'last-event-id': from },
        after ? { ownSocket: after === 'silent', answerWithinMs: REOPENED_ANSWER_WITHIN_MS } : {},
      );
    } catch (err) {
      // Refused, reset or unanswered: the server is gone, as a POST that meets this says (the
      // connection is made again on its backoff), rather than found only at the next call.
      return this.host.lost(new Error(`cannot reach ${this.host.where}: ${(err as Error).message}`, { cause: err }));
    }
    const status = res.statusCode ?? 0;
    if (this.isClosed() || status !== 200 || !isEventStream(res)) {
      const text = await readAll(res, 4096).catch(() => '');
      if (this.isClosed() || status === 405 || (after === undefined && status < 500)) return;
      const error = new HttpStatusError(status, text, res.headers['www-authenticate']);
      if (status === 404) return this.host.lost(error);
      if (status === 409)
        return this.host.lost(new Error(`the server still holds an earlier notification stream of this session (${error.message}); starting a new session`));
      // Refused with an event id to resume from: the server may not know it (any more); the
      // next try opens the stream fresh, and the lists are read again.
      this.from = undefined;
      return this.failed(error.message);
    }
    this.failures = 0;
    const reading: EventStreamReading = new EventStreamReading(
      res,
      { message: (m) => this.host.message(m), malformed: (err) => this.host.error(err), end: (how) => this.ended(reading, how) },
      this.host.maxEventChars,
      this.rhythmMs,
    );
    this.reading = reading;
    if (after !== undefined && from === undefined) this.host.resync();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.reading?.close();
    this.reading = undefined;
  }

  private failed(why: string): void {
    if (this.failures++ === 0) this.host.error(new Error(`could not open the notification stream of ${this.host.where}: ${why}; trying again`));
    this.reopen('failed');
  }

  private ended(reading: EventStreamReading, how: StreamEnd): void {
    if (this.reading === reading) this.reading = undefined;
    // Resumed, an event past the limit would come again: opened past it instead (and the lists read again).
    this.from = how === 'too-large' ? undefined : (reading.lastEventId ?? this.from);
    this.rhythmMs = reading.rhythmMs;
    if (reading.retryMs !== undefined) this.retryMs = reading.retryMs;
    if (this.closed) return;
    if (how === 'silent') {
      this.host.dropIdleSockets();
      this.host.error(new Error(`the notification stream of ${this.host.where} went silent past its keep-alives; opening it again`));
    }
    this.reopen(how);
  }

  private reopen(after: StreamEnd): void {
    clearTimeout(this.timer);
    const delay = after === 'silent' ? 0 : reopenDelay(this.retryMs, this.failures);
    this.timer = setTimeout(() => void this.open(after), delay).unref();
  }

  /** Read after an await: close() may have run meanwhile, whatever TypeScript's narrowing of `closed` says. */
  private isClosed(): boolean {
    return this.closed;
  }
}
