/**
 * A UTF-8 file read as text in small pieces, and text hashed in small pieces, for files of
 * hundreds of KiB read while the process runs (WordNet's related words).
 *
 * Why: `readFileSync(file, 'utf8')` reads into a native buffer that doubles as it fills, and
 * `hash.update(text)` encodes the whole text into a native buffer of three bytes a character:
 * for a 0.5 MB file, blocks of 1 and 1.6 MB, which glibc maps on their own and unmaps when
 * freed. Unmapping such a block raises glibc's mmap threshold to its size and its trim
 * threshold to twice that, for the process's life: every malloc arena then keeps up to that
 * much freed memory resident (at 10,000 tools the hash's block left the trim threshold at 3.3
 * MB, and four thread arenas held 11 MB for 0.3 in use: found with gdb on `munmap` and
 * `malloc_stats`; bench/README.md, "footprint"). Pieces of 32 KiB stay under the default
 * 128 KiB threshold, so they never raise it.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { Hash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';

const PIECE = 32 * 1024;

/** The file's text, as `readFileSync(file, 'utf8')` answers it (a leading BOM kept, as there). */
export function readTextInPieces(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(PIECE);
    const decoder = new StringDecoder('utf8');
    const parts: string[] = [];
    let n: number;
    while ((n = readSync(fd, buffer, 0, PIECE, null)) > 0) parts.push(decoder.write(buffer.subarray(0, n)));
    parts.push(decoder.end());
    return parts.join('');
  } finally {
    closeSync(fd);
  }
}

/** `hash.update(text)` (UTF-8), a piece at a time: the same digest. */
export function updateInPieces(hash: Hash, text: string): Hash {
  // A quarter of PIECE in characters: Node encodes a piece into at most three bytes a character.
  const step = PIECE / 4;
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + step, text.length);
    // Never between the two halves of a surrogate pair: each half alone would encode as U+FFFD.
    if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++;
    hash.update(text.slice(start, end));
    start = end;
  }
  return hash;
}
