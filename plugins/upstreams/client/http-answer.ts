/**
 * What the streamable-HTTP client transport and its notification stream share about an HTTP
 * answer: how a request goes out, an answer that is not a success, and reading one whole.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { TooLargeError } from '../../../kernel/index.js';

/**
 * An answer as the transport reads it: node:http's IncomingMessage, or the hot path's answer
 * from undici handed on the general way (quick-post.ts), which carries the same fields.
 */
export type HttpAnswer = Readable & Pick<IncomingMessage, 'statusCode' | 'headers' | 'rawHeaders' | 'complete'>;

export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly wwwAuthenticate: string | undefined,
  ) {
    super(`HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ''}`);
  }
}

/**
 * How a request goes out: given up when `signal` aborts, or through `exchange`; on a socket of
 * its own; failed when no answer begins in time.
 */
export interface RequestHow {
  signal?: AbortSignal | undefined;
  exchange?: Exchange | undefined;
  ownSocket?: boolean;
  answerWithinMs?: number;
}

/**
 * One request's HTTP exchange, which its sender may give up at any stage: before it is sent,
 * unanswered, or while its answer is read. What an AbortSignal does, for the call path: making
 * a signal and listening to it costs about 10 us a request, this nothing to speak of.
 */
export class Exchange {
  givenUp = false;
  /**
   * Ends the request now on the wire (a second one replaces the first: a retry, a renewed
   * token) with whatever answer is being read; a request already answered leaves its socket to
   * the pool.
   */
  abort: (() => void) | undefined;

  giveUp(): void {
    this.givenUp = true;
    this.abort?.();
  }
}

/**
 * Whether a POST's answer is the hot path's kind: a success with a body (not 202), in the
 * session the connection has (or none), not an event stream. Any other goes the general way,
 * which reads the session id and the failure itself.
 */
export function isQuickAnswer(status: number, sessionId: string | undefined, ours: string | undefined, contentType: string | undefined): boolean {
  return status >= 200 && status < 300 && status !== 202 && (!sessionId || sessionId === ours) && !contentType?.includes('text/event-stream');
}

export function isEventStream(res: HttpAnswer): boolean {
  return (res.headers['content-type'] ?? '').includes('text/event-stream');
}

/**
 * One header of an answer, read from its raw list (the first of that name): the parsed
 * `headers` object is built whole on its first use, which the hot path need not pay for.
 */
export function rawHeader(res: HttpAnswer, name: string): string | undefined {
  const raw = res.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) return raw[i + 1];
  return undefined;
}

/**
 * Reads an answer's whole body, at most `limit` bytes, then calls one of `read` (its text) or
 * `failed` (why there is none: too large, and the answer destroyed; cut before its end), once.
 */
export function readBody(res: HttpAnswer, limit: number, read: (text: string) => void, failed: (err: Error) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const fail = (err: Error) => {
    if (settled) return;
    settled = true;
    failed(err);
  };
  // Plain `on` (the answer is read once): `once` wraps every listener per request.
  res.on('data', (c: Buffer) => {
    size += c.length;
    if (size > limit) {
      res.destroy();
      fail(new TooLargeError("The server's answer", size, limit));
      return;
    }
    chunks.push(c);
  });
  res.on('end', () => {
    if (settled) return;
    settled = true;
    read(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
  });
  res.on('error', fail);
  // After 'end' this changes nothing; before it, the answer was cut (destroyed, the request given
  // up). The error is made only then: capturing its stack on every answer's close cost the hot
  // path as much as the rest of reading the answer (bench/README.md, "The upstream leg").
  res.on('close', () => {
    if (!settled) fail(new Error('the answer ended before it was complete'));
  });
}

export function readAll(res: HttpAnswer, limit = Number.POSITIVE_INFINITY): Promise<string> {
  return new Promise((resolve, reject) => readBody(res, limit, resolve, reject));
}
