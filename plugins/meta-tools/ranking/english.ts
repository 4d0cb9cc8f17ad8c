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
 * one in 80 was). Built once per process, at the first index build (off the request path).
 */
import { join } from 'node:path';
import { packageRoot } from '../../../kernel/index.js';
import { readTextInPieces } from '../../../lib/files/read-text.js';

export const ENGLISH_WORDS_FILE = join('plugins', 'meta-tools', 'ranking', 'english-words.txt');

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
  private readonly size: number;

  /** `text`: one word a line, lower-case. */
  constructor(text: string) {
    let count = 0;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) count++;
    this.size = Math.max(64, (count + 1) * BITS_PER_WORD);
    this.bits = new Uint8Array(Math.ceil(this.size / 8));
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
    loaded = new EnglishWords(readTextInPieces(join(packageRoot(), ENGLISH_WORDS_FILE)));
  } catch (err) {
    process.emitWarning(`filter_tools does not correct misspelt words: cannot read ${ENGLISH_WORDS_FILE} (${(err as Error).message})`);
    loaded = null;
  }
  return loaded;
}
