/**
 * Related words from WordNet: the table plugins/meta-tools/ranking/related-words.txt, made by
 * scripts/build-related-words.js from Debian's wordnet-base (WordNet 3.0) and committed, so
 * neither the build nor a running Switchboard needs WordNet. Each line is a common English
 * word and its synonyms and derivationally related words in its most frequent senses
 * ("delete erase edit deletion"). A query word also looks for these at RELATED_WEIGHT, below
 * the word itself and below the intent table; only words the catalogue actually holds are
 * ever scored, since an expansion without postings costs one failed map lookup.
 *
 * The text (about 16,000 lines, 0.55 MB) is read at each index build (off the request path)
 * in stemmed form (every word stemmed, a line's repeats and the headword's own stem dropped)
 * and turned inside out: a line per relative, naming the headwords it belongs to. Each index
 * build cuts it to the relatives its catalogue holds (relatedTable), looking up each line's
 * first word and reading only the lines it keeps: 21,000 lookups instead of splitting 16,000
 * lines into 64,000 words, which took 15-40 ms at every catalogue change (several times in a
 * start); 3-5 ms for a small catalogue, as long as before for one holding a third of the
 * relatives (the development set's 1,286 tools hold 7 %). Stemming and turning the table cost
 * 150-300 ms of CPU, so the build does it once (scripts/build-prebuilt.js writes
 * dist/plugins/meta-tools/ranking/related-inverted.txt, headed by a fingerprint of the word
 * list, the stemmer and the layout); a missing or stale copy is ignored and the text stemmed
 * and turned at run time, with the same table as the answer. When the word list is missing (an
 * installation without it) ranking goes on without relatives and says so once as a process
 * warning.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../../kernel/index.js';
import { writeFileAtomic } from '../../../lib/files/atomic-write.js';
import { readTextInPieces, updateInPieces } from '../../../lib/files/read-text.js';
import { stem } from '../stem.js';

export const RELATED_WEIGHT = 0.2;
export const RELATED_WORDS_FILE = join('plugins', 'meta-tools', 'ranking', 'related-words.txt');
/** The build's copy, stemmed and turned (invertLines), beside this module in dist/. */
export const INVERTED_FILE = fileURLToPath(new URL('./related-inverted.txt', import.meta.url));
/** The copy's layout, in its fingerprint: a copy laid out otherwise is stale. */
const FORMAT = 'stemmed, inverted, places in decimal';
/** The stemmer's own code: a stemmed copy made by another stemmer is stale. */
const STEMMER_FILE = fileURLToPath(new URL('../stem.js', import.meta.url));

/**
 * Whether the build's copy was found current: later index builds read it again without
 * checking. The text itself is not kept between builds: each index keeps only the relatives
 * its catalogue holds, and the text held for the process's life was the largest single string
 * of a running Switchboard's heap.
 */
let copyIsCurrent = false;
/** Only without a current copy: the lines stemmed and turned here, kept, since that costs 150-300 ms. */
let invertedHere: string | undefined;

function readWords(): string {
  try {
    return readTextInPieces(join(packageRoot(), RELATED_WORDS_FILE));
  } catch (err) {
    process.emitWarning(`filter_tools ranks without WordNet's related words: cannot read ${RELATED_WORDS_FILE} (${(err as Error).message})`);
    return '';
  }
}

/** What a copy was made from: the word list, the stemmer's code and the copy's layout. */
export function copyFingerprint(words: string): string {
  let stemmer = '';
  try {
    stemmer = readFileSync(STEMMER_FILE, 'utf8');
  } catch {
    // Run from sources (no compiled stem.js beside us): no copy is ever written there either.
  }
  return updateInPieces(createHash('sha256'), words).update('\0').update(stemmer).update('\0').update(FORMAT).digest('hex');
}

/** The word list stemmed: each line its headword's stem, then its relatives' stems, each once, none equal to the headword's. */
export function stemLines(words: string): string {
  const stems = new Map<string, string>();
  const stemOf = (w: string): string => {
    let s = stems.get(w);
    if (s === undefined) stems.set(w, (s = stem(w)));
    return s;
  };
  const out: string[] = [];
  for (const line of words.split('\n')) {
    const [head, ...rest] = line.split(' ');
    if (!head || rest.length === 0) continue;
    const key = stemOf(head);
    const kept: string[] = [];
    for (const r of rest) {
      const s = stemOf(r);
      if (s !== key && !kept.includes(s)) kept.push(s);
    }
    if (kept.length > 0) out.push(`${key} ${kept.join(' ')}`);
  }
  return out.join('\n');
}

/**
 * The stemmed table turned inside out: a line per relative, `relative key place key place ...`,
 * each place numbering one of the relative's occurrences in the stemmed lines in reading
 * order. What a build keeps, taken by place, gives the table in the order a reading of every
 * line gave it.
 */
export function invertLines(stemmed: string): string {
  const places = new Map<string, string[]>();
  let place = 0;
  for (const line of stemmed.split('\n')) {
    const words = line.split(' ');
    const key = words[0];
    if (!key || words.length < 2) continue;
    for (let i = 1; i < words.length; i++) {
      const s = words[i]!;
      let list = places.get(s);
      if (!list) places.set(s, (list = []));
      list.push(key, String(place++));
    }
  }
  return [...places].map(([s, list]) => `${s} ${list.join(' ')}`).join('\n');
}

/** The turned lines of a copy made from `words` by this stemmer and layout; undefined when `file` is missing or stale. */
export function prebuiltCopy(file: string, words: string): string | undefined {
  const fingerprint = `# ${copyFingerprint(words)}\n`;
  try {
    const copy = readTextInPieces(file);
    return copy.startsWith(fingerprint) ? copy.slice(fingerprint.length) : undefined;
  } catch {
    return undefined; // no copy (a build without the step): made here, as the build would have
  }
}

function invertedLines(): string {
  if (invertedHere !== undefined) return invertedHere;
  if (copyIsCurrent) {
    try {
      const copy = readTextInPieces(INVERTED_FILE);
      return copy.slice(copy.indexOf('\n') + 1);
    } catch {
      copyIsCurrent = false; // removed since (a reinstall): check again below
    }
  }
  const words = readWords();
  const copy = prebuiltCopy(INVERTED_FILE, words);
  if (copy !== undefined) {
    copyIsCurrent = true;
    return copy;
  }
  return (invertedHere = invertLines(stemLines(words)));
}

/** Writes the build's copy (atomically); answers its path. */
export async function writeInvertedTable(file: string = INVERTED_FILE): Promise<string> {
  const words = readWords();
  await writeFileAtomic(file, `# ${copyFingerprint(words)}\n${invertLines(stemLines(words))}`, { durable: false });
  return file;
}

/**
 * The table cut to one catalogue: stemmed headword -> its stemmed relatives that the
 * catalogue holds (`known`). Built with each index, so memory follows what can ever match
 * (a relative the catalogue never uses could not score), not the 16,000 lines.
 */
export function relatedTable(known: (term: string) => boolean): Map<string, readonly string[]> {
  const text = invertedLines();
  // Each occurrence of a relative the catalogue holds, by its place: `at[place]` is 1 + its
  // index in `keys` and `relatives`. Places are distinct, so reading `at` in order gives the
  // occurrences in the order a reading of every stemmed line gave, without a sort.
  const keys: string[] = [];
  const relatives: string[] = [];
  let at: Int32Array = new Int32Array(1024);
  let last = -1;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const space = text.indexOf(' ', start);
    if (space > start && space < end && known(text.slice(start, space))) {
      const words = text.slice(start, end).split(' ');
      for (let i = 1; i + 1 < words.length; i += 2) {
        const place = Number(words[i + 1]);
        if (place >= at.length) at = grown(at, place);
        at[place] = keys.push(words[i]!);
        relatives.push(words[0]!);
        last = Math.max(last, place);
      }
    }
    start = end + 1;
  }
  const out = new Map<string, string[]>();
  const copied = (w: string): string => (w.length < SLICE_MIN ? w : detached(w));
  // Places in a row are mostly one line's, so one key's: its list is looked up once a run.
  let key = '';
  let list: string[] | undefined;
  for (let place = 0; place <= last; place++) {
    const index = at[place]! - 1;
    if (index < 0) continue;
    if (keys[index] !== key) {
      key = keys[index]!;
      list = out.get(key);
    }
    const relative = relatives[index]!;
    if (list?.includes(relative)) continue;
    if (!list) out.set(copied(key), (list = []));
    list.push(copied(relative));
  }
  return out;
}

/** `at` with room for `place`, at least twice as long. */
function grown(at: Int32Array, place: number): Int32Array {
  const more = new Int32Array(Math.max(place + 1, at.length * 2));
  more.set(at);
  return more;
}

/**
 * V8 makes a substring of 13 characters or more (split's too) a slice that keeps its whole
 * parent alive: one long word kept from the table would keep the 0.5 MB text for the index's
 * life (found in a heap snapshot at 10,000 tools). Shorter ones are copied.
 */
const SLICE_MIN = 13;

/** A copy of `w` that shares no storage with the text it was cut from. */
function detached(w: string): string {
  return Buffer.from(w, 'utf8').toString('utf8');
}
