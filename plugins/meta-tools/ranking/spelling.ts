/**
 * Misspelt request words: "screnshot", "repositry", "diretcory". A word of five letters or more
 * that the catalogue does not hold, that no intent line or WordNet relative knows, and that is
 * not English (english.ts) is read as a word one edit away from it (a letter dropped, added or
 * changed, or two neighbours swapped) as the catalogue or the intent table writes it
 * ("rememebr": remember, "releaess": releases), or failing that as the catalogue term one
 * edit from it or from its stem. Nothing else is touched: a word that
 * is merely absent from the catalogue ("lawyer", "sprint") stays as it is, so a request
 * spelt right ranks exactly as before.
 *
 * Among several terms one edit away, a common English word (one WordNet relates to others)
 * comes first, then the term more tools use, then name order: the same request is always
 * read the same way. What it cannot fix: a slip that makes another English word ("form" for
 * "from", "calender", a cloth press, for calendar).
 */
import { stem } from '../stem.js';
import { englishWords } from './english.js';
import { intentOf, intentWords } from './intent.js';
import { documentFrequency, type PostingLists } from './postings.js';

/** Shorter words have too many neighbours one edit away to guess from. */
export const MIN_CORRECTED_LENGTH = 5;
/** Longer "words" are identifiers or noise, never misspellings worth a scan. */
const MAX_CORRECTED_LENGTH = 30;
/** Words corrected per query at most: each costs a scan of the terms of its length and one either side. */
export const MAX_CORRECTIONS_PER_QUERY = 4;
/** Corrections remembered per index (a query repeated, a word seen before); the memo is cleared when full. */
const MEMO_LIMIT = 4096;

/** Whether `a` and `b` are one edit apart (Damerau: one letter dropped, added, changed, or two neighbours swapped). */
export function oneEditApart(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (a === b || Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

export class Spelling {
  /** The catalogue's terms by length. */
  private readonly byLength: string[][] = [];
  /** Words as the catalogue and the intent table write them, by length. */
  private readonly writtenByLength: string[][] = [];
  private readonly memo = new Map<string, string | null>();

  /**
   * `terms`: what can be found; `preference`: the higher, the likelier the word meant (compared
   * before name order); `known`: a word (and its term) that is no misspelling; `written`: words
   * as written, each stemming to a term or an intent word.
   */
  constructor(
    terms: Iterable<string>,
    private readonly preference: (term: string) => number,
    private readonly known: (word: string, term: string) => boolean,
    written: Iterable<string> = [],
  ) {
    for (const t of terms) {
      if (t.length > MAX_CORRECTED_LENGTH + 1) continue;
      (this.byLength[t.length] ??= []).push(t);
    }
    for (const w of written) {
      if (w.length < MIN_CORRECTED_LENGTH - 1 || w.length > MAX_CORRECTED_LENGTH + 1) continue;
      (this.writtenByLength[w.length] ??= []).push(w);
    }
  }

  /** The term `word` (its stemmed form: `term`) was meant to be, or undefined when it is spelt right or unknown. */
  correct(word: string, term: string): string | undefined {
    if (word.length < MIN_CORRECTED_LENGTH || word.length > MAX_CORRECTED_LENGTH) return undefined;
    let found = this.memo.get(word);
    if (found === undefined) {
      found = this.known(word, term) ? null : this.nearest(word, term);
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      this.memo.set(word, found);
    }
    return found ?? undefined;
  }

  /**
   * A word one edit from what was typed, as written ("releaess": releases), before a term one
   * edit from its stem: a slip is made in the word, and stems hide it ("releaess" stems to
   * itself, two edits from "releas"). Among several, the likelier term, then name order.
   */
  private nearest(word: string, term: string): string | null {
    return (
      this.likeliest(this.writtenByLength, [word.length - 1, word.length, word.length + 1], (w) => oneEditApart(word, w), stem) ?? this.stemNearest(word, term)
    );
  }

  private stemNearest(word: string, term: string): string | null {
    const lengths = [word.length - 1, word.length, word.length + 1, term.length - 1, term.length, term.length + 1];
    return this.likeliest(
      this.byLength,
      lengths,
      (t) => oneEditApart(word, t) || oneEditApart(term, t),
      (t) => t,
    );
  }

  /** Of the candidates of `lengths` in `table` that `near` accepts, the term (`termOf`) preferred, then the first by name. */
  private likeliest(table: string[][], lengths: number[], near: (candidate: string) => boolean, termOf: (candidate: string) => string): string | null {
    let best: string | null = null;
    let bestPreference = -Infinity;
    for (const length of new Set(lengths)) {
      for (const candidate of table[length] ?? []) {
        if (!near(candidate)) continue;
        const t = termOf(candidate);
        const p = this.preference(t);
        if (p > bestPreference || (p === bestPreference && best !== null && t < best)) {
          best = t;
          bestPreference = p;
        }
      }
    }
    return best;
  }
}

/**
 * The spelling of a catalogue's index: what a misspelt word may be read as is one of its
 * terms, a common word (one WordNet relates to others) first, then the term more tools use. A
 * word is spelt right when the catalogue, the intent table or WordNet's relatives know it, or
 * it is English. Null without the English word list: nothing is then corrected.
 */
export function catalogueSpelling(postings: PostingLists, related: ReadonlyMap<string, readonly string[]>, written: Iterable<string> = []): Spelling | null {
  const english = englishWords();
  if (!english) return null;
  const frequency = (term: string): number => {
    const id = postings.ids.get(term);
    return id === undefined ? 0 : documentFrequency(postings, id);
  };
  return new Spelling(
    postings.ids.keys(),
    (term) => (related.has(term) ? postings.ids.size : 0) + frequency(term),
    (word, term) => postings.ids.has(term) || related.has(term) || intentOf(term).length > 0 || english.has(word),
    [...written, ...intentWords()],
  );
}

/**
 * A capitalised word inside a sentence ("send Alice the report", "ask Priya") is a name, and
 * names are not spelt wrong: most first names are not in WordNet, and "alice" is one edit from
 * "slice". The first word of the query or of a sentence is not taken for one.
 */
const CAPITALISED = /\b[A-Z][a-z]{4,}\b/g;

/** The names of `query` (see above), lower-cased as its words are. */
export function namesIn(query: string): Set<string> {
  const names = new Set<string>();
  for (const m of query.matchAll(CAPITALISED)) {
    // What stands before it, spaces skipped (a scan that stops at the previous word, so all
    // the scans of a query read each character at most twice).
    let i = m.index - 1;
    if (i < 0 || !/\s/.test(query[i]!)) continue;
    while (i >= 0 && /\s/.test(query[i]!)) i--;
    if (i >= 0 && !'.!?:'.includes(query[i]!)) names.add(m[0].toLowerCase());
  }
  return names;
}

/** A query's distinct terms: its words stemmed, a misspelt one read as the term it was meant to be; `names` are left as they are. */
export function queryTerms(words: readonly string[], postings: PostingLists, spelling: Spelling | null, names: ReadonlySet<string>): string[] {
  let tries = 0;
  const terms = new Set<string>();
  for (const word of words) {
    const term = stem(word);
    const unknown = spelling !== null && word.length >= MIN_CORRECTED_LENGTH && !postings.ids.has(term) && !names.has(word);
    const corrected = unknown && tries++ < MAX_CORRECTIONS_PER_QUERY ? spelling.correct(word, term) : undefined;
    terms.add(corrected ?? term);
  }
  return [...terms];
}
