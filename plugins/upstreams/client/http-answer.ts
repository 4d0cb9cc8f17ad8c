/**
 * What the streamable-HTTP client transport and its notification stream share about an HTTP
 * answer: how a request goes out, an answer that is not a success, and reading one whole.
 */
import type { IncomingMessage } from 'node:http';
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

/** How a request goes out: given up when `signal` aborts; on a socket of its own; failed when no answer begins in time. */
export interface RequestHow {
  signal?: AbortSignal | undefined;
  ownSocket?: boolean;
  answerWithinMs?: number;
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
