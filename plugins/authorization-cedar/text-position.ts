/**
 * Where in a file a Cedar error is. Cedar reports UTF-8 byte offsets (it is Rust); JavaScript
 * strings are indexed by UTF-16 code units, so an offset is converted before it becomes a line
 * and a column an operator can jump to.
 */

/** The string index of UTF-8 byte `byteOffset` of `text` (clamped to its end). */
export function charOffset(text: string, byteOffset: number): number {
  if (byteOffset <= 0) return 0;
  // Pure ASCII up to there (the common case): bytes and code units agree.
  let ascii = true;
  const limit = Math.min(byteOffset, text.length);
  for (let i = 0; i < limit; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) return limit;
  return Buffer.from(text, 'utf8').subarray(0, byteOffset).toString('utf8').length;
}

/** 1-based line and column of string index `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, text.length);
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: end - start + 1 };
}
