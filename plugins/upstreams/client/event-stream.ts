/**
 * Reading one text/event-stream answer of a 2025-11-25 server (the notification stream, or a
 * request's answer), with what the transport needs to take it up again when it ends
 * (resumability, SEP-1699): the last event id, the server's `retry`, and how it ended.
 *
 * A stream can die without a word: a partition, a balancer or NAT entry dropped, a proxy
 * whose other side is gone. TCP keep-alive finds a dead peer, not a live middlebox whose far
 * side is dead. The SDK's servers (and others) mark time on their streams with comments
 * (`: keepalive`, every 15 s by default); once a stream has sent one, it is known to keep
 * time, and a silence of three times the longest gap it has shown is taken for a dead stream.
 * A stream opened again after one that kept time is judged from its start by that rhythm (it
 * may be stranded before its own first comment); a stream that never sent a comment and
 * follows none that did may rightly be silent for hours and is never judged.
 */
import type { JSONRPCMessage } from '#mcp-sdk/types.js';
import { TooLargeError } from '../../../kernel/index.js';
import { SseParser } from '../../../lib/mcp/sse-parser.js';
import type { HttpAnswer } from './http-answer.js';

/**
 * How a stream ended: closed by the server, failed on the way, silent past its own rhythm, or
 * holding an event past the size limit (the reader closed those two).
 */
export type StreamEnd = 'ended' | 'failed' | 'silent' | 'too-large';

export interface EventStreamHandlers {
  message(message: JSONRPCMessage): void;
  /** An event whose data is not JSON, or one past the size limit (the stream then ends `too-large`). */
  malformed(err: Error): void;
  /** Once, when the stream is over for whatever reason. */
  end(how: StreamEnd): void;
}

/** A stream opened again (the notification stream, or a request's answer resumed) must begin answering within this. */
export const REOPENED_ANSWER_WITHIN_MS = 10_000;

/**
 * The wait before a stream is opened again: the server's `retry` if it sent one (bounded: a
 * hostile 0 must not become a storm, nor an hour a stream never reopened), else a backoff.
 */
export function reopenDelay(retryMs: number | undefined, failures: number): number {
  if (retryMs !== undefined) return Math.min(Math.max(retryMs, 250), 60_000);
  return Math.min(1_000 * 2 ** Math.min(failures, 5), 30_000);
}

/** A silence shorter than this is never taken for a dead stream, whatever rhythm a stream showed. */
const MIN_SILENCE_MS = 1_000;

export class EventStreamReading {
  private readonly parser: SseParser;
  private lastChunkAt = Date.now();
  private longestGap = 0;
  private watchdog: NodeJS.Timeout | undefined;
  private over = false;

  /** `rhythmMs`: the longest gap the stream this one replaces showed while keeping time (rhythmOf). */
  constructor(
    private readonly res: HttpAnswer,
    private readonly handlers: EventStreamHandlers,
    maxEventChars: number,
    rhythmMs?: number,
  ) {
    this.parser = new SseParser((e) => {
      // An event without data primes resumption (its id is what a reconnect resumes from); nothing to deliver.
      if (e.event !== 'message' || e.data === '') return;
      let message: JSONRPCMessage;
      try {
        message = JSON.parse(e.data) as JSONRPCMessage;
      } catch (err) {
        return handlers.malformed(err as Error);
      }
      handlers.message(message);
    });
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      this.heard();
      this.parser.push(chunk);
      // Armed once, at the first comment; each firing re-arms for what is left of the silence allowed.
      if (this.watchdog === undefined && this.parser.sawComment) this.arm();
      if (this.parser.pending > maxEventChars) {
        handlers.malformed(new TooLargeError("An event of the server's stream", this.parser.pending, maxEventChars));
        this.finish('too-large');
        res.destroy();
      }
    });
    res.once('error', () => this.finish('failed'));
    res.once('close', () => this.finish(res.complete ? 'ended' : 'failed'));
    if (rhythmMs !== undefined) {
      this.longestGap = rhythmMs;
      this.arm();
    }
  }

  /** The rhythm a stream opened after this one is judged by: undefined unless this one sent a comment itself. */
  get rhythmMs(): number | undefined {
    return this.parser.sawComment ? this.longestGap : undefined;
  }

  /** The id of the last event that had one: where a reconnect resumes (undefined: this stream cannot be resumed). */
  get lastEventId(): string | undefined {
    const id = this.parser.lastEventId;
    // Sent back in a header: printable ASCII of a sane length, or not resumable at all.
    return id !== undefined && /^[\x20-\x7e]{1,1024}$/.test(id) ? id : undefined;
  }

  /** The reconnection delay the server asked for, if it did. */
  get retryMs(): number | undefined {
    return this.parser.retryMs;
  }

  /** Closes the stream from our side; `end` is not called. */
  close(): void {
    this.over = true;
    clearTimeout(this.watchdog);
    this.res.destroy();
  }

  private heard(): void {
    const now = Date.now();
    this.longestGap = Math.max(this.longestGap, now - this.lastChunkAt);
    this.lastChunkAt = now;
  }

  private silenceAllowed(): number {
    return Math.max(3 * this.longestGap, MIN_SILENCE_MS);
  }

  private arm(): void {
    const due = this.lastChunkAt + this.silenceAllowed() - Date.now();
    this.watchdog = setTimeout(
      () => {
        if (this.over) return;
        if (Date.now() - this.lastChunkAt < this.silenceAllowed()) return this.arm();
        this.finish('silent');
        this.res.destroy();
      },
      Math.max(due, 0),
    );
    this.watchdog.unref();
  }

  private finish(how: StreamEnd): void {
    if (this.over) return;
    this.over = true;
    clearTimeout(this.watchdog);
    this.handlers.end(how);
  }
}
