/**
 * Splits a child's stdout into lines without copying what was already searched. A line that
 * spans several chunks (a tools/list answer of a thousand tools is a megabyte) is kept as the
 * text of each chunk, decoded as it arrives, and joined when its line break comes: strings
 * live on V8's heap, which is compacted and given back. The copied Buffers this kept before
 * were malloc'd (64 KiB a chunk, then the joined megabyte), and glibc keeps such blocks for
 * the process's life once they are freed among live ones (bench/README.md, "footprint").
 * A line longer than `maxBytes` (no line break in sight) is an error: past it there is no
 * telling where the next message starts.
 */
import { StringDecoder } from 'node:string_decoder';

export class LineTooLongError extends Error {
  constructor(readonly maxBytes: number) {
    super(`sent more than ${maxBytes} bytes without completing a message (maxMessageBytes); disconnecting`);
  }
}

export class LineReader {
  /** The text of the line so far, chunk by chunk: a character cut by a chunk's end waits in `decoder`. */
  private parts: string[] = [];
  private readonly decoder = new StringDecoder('utf8');
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** The complete lines this chunk finishes, in order, without their line breaks. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf(0x0a, start)) >= 0) {
      // A line break is never inside a UTF-8 sequence: the decoder holds nothing after end().
      let line = this.size > 0 ? this.parts.join('') + this.decoder.end(chunk.subarray(start, nl)) : chunk.toString('utf8', start, nl);
      this.parts = [];
      this.size = 0;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line) lines.push(line);
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.size += chunk.length - start;
      if (this.size > this.maxBytes) {
        this.clear();
        throw new LineTooLongError(this.maxBytes);
      }
      this.parts.push(this.decoder.write(chunk.subarray(start)));
    }
    return lines;
  }

  clear(): void {
    this.parts = [];
    this.decoder.end();
    this.size = 0;
  }
}
