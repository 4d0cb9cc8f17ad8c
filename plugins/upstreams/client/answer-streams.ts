/**
 * Requests answered as a stream (a POST's `text/event-stream` answer). What arrives before the
 * answer belongs to that request's call. From a 2025-11-25 server, a stream that ends before the
 * answer is resumed over GET from its last event id (SEP-1699: a server may end it on purpose and
 * let the client poll); one with no event id to resume from fails its call now, not at its timeout.
 */
import { ErrorCode, type JSONRPCMessage, type RequestId } from '#mcp-sdk/types.js';
import { TooLargeError } from '../../../kernel/index.js';
import { EventStreamReading, reopenDelay, REOPENED_ANSWER_WITHIN_MS, type StreamEnd } from './event-stream.js';
import { HttpStatusError, isEventStream, readAll, type HttpAnswer, type RequestHow } from './http-answer.js';

/** Opening a request's answer again may fail this many times in a row before its call fails. */
const MAX_RESUMES = 5;

/**
 * The key in an error answer's `data` that marks it as made here, not by the server: the answer
 * was lost on our side of the wire (call-errors.ts reads it as SERVER_UNAVAILABLE); its value is why.
 */
export const LOST_ANSWER = 'io.switchboard/lost-answer';

/** What the answers need of their transport. */
export interface AnswerStreamsHost {
  /** A GET of the endpoint with the session's headers and `extra`. */
  get(extra: Record<string, string>, how: RequestHow): Promise<HttpAnswer>;
  message(message: JSONRPCMessage): void;
  /** A message that arrived on the stream of our request `id`, before its answer. */
  related(message: JSONRPCMessage, id: RequestId): void;
  /** Said in the log. */
  error(err: Error): void;
  /** The session is over: the connection is made again. */
  lost(err: Error): void;
  readonly maxEventChars: number;
}

export class AnswerStreams {
  /** Our requests whose answer stream has not yet carried the answer. */
  private readonly waiting = new Set<RequestId>();
  /** The stream each of them is read from now: its POST's, or a GET resuming it. */
  private readonly streams = new Map<RequestId, HttpAnswer>();
  /** The server's reconnection time (`retry:`), kept across streams as an event source keeps it. */
  private retryMs: number | undefined;
  private closed = false;

  constructor(private readonly host: AnswerStreamsHost) {}

  /**
   * Reads `res`, the answer to our request `id` (undefined: a POST that was not a request).
   * `resumable`: a 2025-11-25 server's, taken up again if it ends early (2026-07-28 has no resumption).
   */
  read(res: HttpAnswer, id: RequestId | undefined, resumable: boolean, from?: string): void {
    const resuming = resumable && id !== undefined;
    if (resuming) {
      this.waiting.add(id);
      this.streams.set(id, res);
    }
    const reading: EventStreamReading = new EventStreamReading(
      res,
      {
        message: (m) => {
          if (id !== undefined) {
            if (!('result' in m || 'error' in m)) this.host.related(m, id);
            else if (m.id === id) this.waiting.delete(id);
          }
          this.host.message(m);
        },
        malformed: (err) => {
          if (err instanceof TooLargeError && resuming) this.fail(id, err.message);
          else this.host.error(err);
        },
        end: (how) => {
          if (resuming && this.streams.get(id) === res) this.streams.delete(id);
          if (!resuming || !this.waiting.has(id) || this.closed) return;
          if (reading.retryMs !== undefined) this.retryMs = reading.retryMs;
          const resumeFrom = reading.lastEventId ?? from;
          if (resumeFrom === undefined) return this.fail(id, 'the server ended the stream of its answer before answering, with no event id to resume it from');
          setTimeout(() => void this.resume(id, resumeFrom, how, 0), reopenDelay(this.retryMs, 0)).unref();
        },
      },
      this.host.maxEventChars,
    );
  }

  /** Our request `id` was given up: its answer is no longer read, nor its stream resumed. */
  cancelled(id: RequestId): void {
    this.waiting.delete(id);
    this.streams.get(id)?.destroy();
    this.streams.delete(id);
  }

  close(): void {
    this.closed = true;
    this.waiting.clear();
    for (const stream of this.streams.values()) stream.destroy();
    this.streams.clear();
  }

  /** Opens the answer to `id` again from event `from`; `failures`: attempts that found no stream, in a row. */
  private async resume(id: RequestId, from: string, how: StreamEnd, failures: number): Promise<void> {
    if (this.closed || !this.waiting.has(id)) return;
    let res: HttpAnswer;
    try {
      res = await this.host.get({ 'last-event-id': from }, { ownSocket: how === 'silent', answerWithinMs: REOPENED_ANSWER_WITHIN_MS });
    } catch (err) {
      if (failures + 1 >= MAX_RESUMES) return this.fail(id, `could not resume the stream of its answer (${MAX_RESUMES} attempts): ${(err as Error).message}`);
      setTimeout(() => void this.resume(id, from, 'failed', failures + 1), reopenDelay(undefined, failures)).unref();
      return;
    }
    const status = res.statusCode ?? 0;
    if (this.isClosed() || status !== 200 || !isEventStream(res)) {
      const text = await readAll(res, 4096).catch(() => '');
      if (this.isClosed()) return;
      const error = new HttpStatusError(status, text, res.headers['www-authenticate']);
      if (status === 404) return this.host.lost(error);
      return this.fail(id, `could not resume the stream of its answer: ${error.message}`);
    }
    this.read(res, id, true, from);
  }

  /** The call waiting on `id` fails with `reason`, as an error answer from the connection. */
  private fail(id: RequestId, reason: string): void {
    this.waiting.delete(id);
    this.host.message({ jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message: reason, data: { [LOST_ANSWER]: reason } } });
  }

  /** Read after an await: close() may have run meanwhile, whatever TypeScript's narrowing of `closed` says. */
  private isClosed(): boolean {
    return this.closed;
  }
}
