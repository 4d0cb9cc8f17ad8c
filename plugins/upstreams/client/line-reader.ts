/**
 * Splits a child's stdout into lines without copying what was already searched: chunks are
 * kept as they arrive and joined only when a line spans several. A line longer than
 * `maxBytes` (no line break in sight) is an error: past it there is no telling where the
 * next message starts.
 */
export class LineTooLongError extends Error {
  constructor(readonly maxBytes: number) {
    super(`sent more than ${maxBytes} bytes without completing a message (maxMessageBytes); disconnecting`);
  }
}

export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** The complete lines this chunk finishes, in order, without their line breaks. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf(0x0a, start)) >= 0) {
      let line = this.parts.length ? Buffer.concat([...this.parts, chunk.subarray(start, nl)]).toString('utf8') : chunk.toString('utf8', start, nl);
      this.parts = [];
      this.size = 0;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line) lines.push(line);
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.size += chunk.length - start;
      if (this.size > this.maxBytes) {
        this.parts = [];
        this.size = 0;
        throw new LineTooLongError(this.maxBytes);
      }
      // A copy of the tail only: holding a subarray would keep the whole chunk alive.
      this.parts.push(Buffer.from(chunk.subarray(start)));
    }
    return lines;
  }

  clear(): void {
    this.parts = [];
    this.size = 0;
  }
}
