/**
 * Whether a word of a request is English: the words spelling correction (spelling.ts) must
 * leave alone. A word the catalogue does not hold may still be a plain word ("lawyer",
 * "sprint", "players"), and one edit from a catalogue term ("layer", "print") it would be read
 * as something else. The list is WordNet 3.0's words of five letters or more and their
 * irregular forms (plugins/meta-tools/ranking/english-words.txt, made by
 * scripts/build-english-words.js and committed, about 77,500 words, 0.75 MB); regular
 * inflections are undone with WordNet's own detachment rules ("players" is "player").
 *
 * Held as a Bloom filter: about 150 KiB instead of the 4 MB a set of the words would hold, at
 * the price of false positives: about one misspelling in 600 is taken for a word and left as
 * it is (a word is looked up with each base form the rules below give it; at 10 bits a word,
 * one in 80 was). Read once per process, at the first index build (off the request path).
 *
 * Hashing the 77,500 words into the filter took 30-50 ms of CPU at every start, so the build
 * does it once (scripts/build-prebuilt.js writes english-words.bloom beside this module in
 * dist/: a line with a fingerprint of the word list and of this module's code, then the
 * filter's bytes); a missing or stale copy is ignored and the filter built from the list, the
 * same filter either way.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../../kernel/index.js';
import { writeFileAtomic } from '../../../lib/files/atomic-write.js';
import { readTextInPieces, updateInPieces } from '../../../lib/files/read-text.js';

export const ENGLISH_WORDS_FILE = join('plugins', 'meta-tools', 'ranking', 'english-words.txt');
/** The build's copy of the filter, beside this module in dist/. */
export const FILTER_FILE = fileURLToPath(new URL('./english-words.bloom', import.meta.url));
/** This module's code: the hashes and the filter's shape are in it, so a copy made by other code is stale. */
const OWN_CODE = fileURLToPath(import.meta.url);

/** Bits per word and probes per lookup: a false positive rate of about 0.05 % a lookup. */
const BITS_PER_WORD = 16;
const PROBES = 11;

/**
 * WordNet's detachment rules (its `morphy`): an inflected form's base forms, for nouns
 * ("boxes" -> box), verbs ("tried" -> try, "saving" -> save) and adjectives ("larger" -> large).
 */
const DETACH: readonly (readonly [string, string])[] = [
  ['s', ''],
  ['ses', 's'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['men', 'man'],
  ['ies', 'y'],
  ['es', 'e'],
  ['es', ''],
  ['ed', 'e'],
  ['ed', ''],
  ['ing', 'e'],
  ['ing', ''],
  ['er', ''],
  ['est', ''],
  ['er', 'e'],
  ['est', 'e'],
];

/** Two independent 32-bit FNV-1a hashes of `word` (different offset bases), for double hashing. */
function hashes(word: string, from = 0, to = word.length): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = from; i < to; i++) {
    const c = word.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return [a >>> 0, (b | 1) >>> 0];
}

export class EnglishWords {
  private readonly bits: Uint8Array;

  /** `text`: one word a line, lower-case; or the bytes of a filter built from such a text before. */
  constructor(text: string | Uint8Array) {
    if (typeof text !== 'string') {
      this.bits = text;
      return;
    }
    let count = 0;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) count++;
    this.bits = new Uint8Array(Math.ceil(Math.max(64, (count + 1) * BITS_PER_WORD) / 8));
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      if (end > start) this.add(...hashes(text, start, end));
      start = end + 1;
    }
  }

  /** The bytes the filter holds. */
  get bytes(): number {
    return this.bits.byteLength;
  }

  /** The filter itself, as a copy of it is written. */
  get filter(): Uint8Array {
    return this.bits;
  }

  /** The filter's size in bits: a whole number of bytes, as a copy read back gives it. */
  private get size(): number {
    return this.bits.byteLength * 8;
  }

  /** Whether `word` (lower-case) or a base form of it is in the list; about 0.2 % of misspelt words too. */
  has(word: string): boolean {
    if (this.holds(word)) return true;
    for (const [suffix, base] of DETACH) {
      if (word.length > suffix.length + 2 && word.endsWith(suffix) && this.holds(word.slice(0, word.length - suffix.length) + base)) return true;
    }
    return false;
  }

  private holds(word: string): boolean {
    const [a, b] = hashes(word);
    for (let i = 0; i < PROBES; i++) {
      const bit = (a + i * b) % this.size;
      if ((this.bits[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
    }
    return true;
  }

  private add(a: number, b: number): void {
    for (let i = 0; i < PROBES; i++) {
      const bit = (a + i * b) % this.size;
      this.bits[bit >>> 3]! |= 1 << (bit & 7);
    }
  }
}

let loaded: EnglishWords | null | undefined;

/**
 * The list, read once per process; null when it cannot be read (an installation without it):
 * spelling is then not corrected at all, since without the list a plain word could be "corrected",
 * and the process is told once.
 */
export function englishWords(): EnglishWords | null {
  if (loaded !== undefined) return loaded;
  try {
    const words = readTextInPieces(join(packageRoot(), ENGLISH_WORDS_FILE));
    const copy = prebuiltFilter(FILTER_FILE, words);
    loaded = new EnglishWords(copy ?? words);
  } catch (err) {
    process.emitWarning(`filter_tools does not correct misspelt words: cannot read ${ENGLISH_WORDS_FILE} (${(err as Error).message})`);
    loaded = null;
  }
  return loaded;
}

/** What a copy of the filter was made from: the word list and this module's code. */
function filterFingerprint(words: string): string {
  let code = '';
  try {
    code = readFileSync(OWN_CODE, 'utf8');
  } catch {
    // Run from sources (no compiled module here): no copy is ever written there either.
  }
  return updateInPieces(createHash('sha256'), words).update('\0').update(code).digest('hex');
}

/** The filter a copy made from `words` by this code holds; undefined when `file` is missing or stale. */
export function prebuiltFilter(file: string, words: string): Uint8Array | undefined {
  let copy: Buffer;
  try {
    copy = readFileSync(file);
  } catch {
    return undefined; // no copy (a build without the step): built here, as the build would have
  }
  const header = Buffer.from(`# ${filterFingerprint(words)}\n`);
  if (copy.length <= header.length || !copy.subarray(0, header.length).equals(header)) return undefined;
  return new Uint8Array(copy.buffer, copy.byteOffset + header.length, copy.length - header.length);
}

/** Writes the build's copy of the filter (atomically); answers its path. */
export async function writeEnglishFilter(file: string = FILTER_FILE): Promise<string> {
  const words = readTextInPieces(join(packageRoot(), ENGLISH_WORDS_FILE));
  const filter = new EnglishWords(words).filter;
  await writeFileAtomic(file, Buffer.concat([Buffer.from(`# ${filterFingerprint(words)}\n`), filter]), { durable: false });
  return file;
}
