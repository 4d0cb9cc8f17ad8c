/**
 * What the streamable-HTTP client transport and its notification stream share about an HTTP
 * answer: how a request goes out, an answer that is not a success, and reading one whole.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import { TooLargeError } from '../../../kernel/index.js';

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
  /** The request now on the wire (a second one replaces the first: a retry, a renewed token). */
  request: ClientRequest | undefined;

  giveUp(): void {
    this.givenUp = true;
    // Destroys the socket with whatever answer is being read; a request already answered and
    // its socket back in the pool is marked destroyed, so this leaves that socket alone.
    this.request?.destroy();
  }
}

export function isEventStream(res: IncomingMessage): boolean {
  return (res.headers['content-type'] ?? '').includes('text/event-stream');
}

export function readAll(res: IncomingMessage, limit = Number.POSITIVE_INFINITY): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        res.destroy();
        reject(new TooLargeError("The server's answer", size, limit));
        return;
      }
      chunks.push(c);
    });
    res.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    res.once('error', reject);
    // After 'end' this changes nothing; before it, the answer was cut (destroyed, the request given up).
    res.once('close', () => reject(new Error('the answer ended before it was complete')));
  });
}
