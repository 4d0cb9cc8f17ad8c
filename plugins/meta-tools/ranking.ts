/**
 * Relevance ranking for filter_tools `query`: BM25F over three fields of a tool, its name,
 * its summary and its full description, weighed in that order. Words are split on case,
 * digits and punctuation, compound name tokens are split into the catalogue's own words
 * (compound.ts), and every term is stemmed (stem.ts) on both sides. Verbs that nearly every
 * tool has (list, get, show, ...) count for less rather than nothing.
 *
 * The index is built once per catalogue version and shared by every session. Each posting
 * carries its document's field-weighted, length-normalised term frequency, so a query only
 * walks the postings of its terms and does one saturation per posting.
 */
import type { CatalogueApi, CatalogueEntry } from '../../kernel/index.js';
import { CompoundSplitter } from './compound.js';
import { stem } from './stem.js';

interface Field {
  weight: number;
  /** BM25 length normalisation: 0 ignores a field's length, 1 divides by it fully. */
  b: number;
}
const NAME: Field = { weight: 3, b: 0.5 };
const SUMMARY: Field = { weight: 1, b: 0.75 };
/** Lower than the summary it repeats: the rest of a description is usage notes and parameters, often long. */
const DESCRIPTION: Field = { weight: 0.5, b: 0.75 };
const FIELDS = [NAME, SUMMARY, DESCRIPTION] as const;
/** Guard: an upstream's megabyte description must not make the index build (or its memory) unbounded. */
export const MAX_INDEXED_DESCRIPTION = 8192;
const K1 = 1.2;
const VERB_WEIGHT = 0.3;
const COMMON_VERBS = new Set(['list', 'get', 'show', 'fetch', 'read', 'set', 'create', 'update', 'delete', 'run', 'call', 'describe', 'find'].map(stem));
const STOP_WORDS = new Set([
  ...['a', 'an', 'the', 'of', 'to', 'for', 'in', 'on', 'and', 'or', 'with', 'by', 'from', 'x', 'is', 'it', 'me', 'my', 'all'],
  ...['i', 'am', 'are', 'be', 'this', 'that', 'these', 'at', 'as', 'into', 'its', 'can', 'do', 'does', 'how', 'what', 'which', 'some', 'any'],
]);

const enum CharClass {
  Other,
  Lower,
  Upper,
  Digit,
}

function classOf(code: number): CharClass {
  if (code >= 97 && code <= 122) return CharClass.Lower;
  if (code >= 65 && code <= 90) return CharClass.Upper;
  if (code >= 48 && code <= 57) return CharClass.Digit;
  return CharClass.Other;
}

/**
 * Lower-case words of `text`: split on anything not an ASCII letter or digit, on camelCase
 * and acronym boundaries ("parseHTTPResponse" -> parse http response), and between letters
 * and digits. One pass over the characters: the index build runs it over every description.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  const push = (from: number, to: number): void => {
    if (to <= from) return;
    const w = text.slice(from, to).toLowerCase();
    if (!STOP_WORDS.has(w)) out.push(w);
  };
  let start = 0;
  let prev = CharClass.Other;
  for (let i = 0; i < text.length; i++) {
    const c = classOf(text.charCodeAt(i));
    if (c === CharClass.Other) {
      push(start, i);
      start = i + 1;
    } else if ((prev === CharClass.Lower && c === CharClass.Upper) || (prev !== CharClass.Other && (prev === CharClass.Digit) !== (c === CharClass.Digit))) {
      push(start, i);
      start = i;
    } else if (prev === CharClass.Upper && c === CharClass.Lower && i - start >= 2) {
      // "HTTPResponse": the last capital of a run starts the next word.
      push(start, i - 1);
      start = i - 1;
    }
    prev = c;
  }
  push(start, text.length);
  return out;
}

/** The search terms of a query or a text field: its words, stemmed. */
export function tokenize(text: string): string[] {
  return words(text).map(stem);
}

/** One term's postings, as parallel typed arrays: compact, and a query walks them without boxing. */
export interface Postings {
  docs: Uint32Array;
  /** Per doc: field-weighted, length-normalised term frequency (BM25F's pseudo-frequency). */
  tfs: Float64Array;
}

export interface RankingIndex {
  version: number;
  entries: readonly CatalogueEntry[];
  postings: Map<string, Postings>;
}

interface Fielded {
  /** Per field, in FIELDS order: the terms of that field. */
  terms: [string[], string[], string[]];
}

export function buildIndex(entries: readonly CatalogueEntry[], version: number): RankingIndex {
  // First pass: each field's words, and the catalogue's vocabulary for splitting compounds.
  const vocabulary = new Set<string>();
  const prose = new Set<string>();
  const raw = entries.map((entry) => {
    const name = words(entry.name);
    const summary = words(entry.summary);
    const description = words(entry.description.slice(0, MAX_INDEXED_DESCRIPTION));
    for (const w of name) vocabulary.add(w);
    for (const w of summary) prose.add(w);
    for (const w of description) prose.add(w);
    return [name, summary, description] as const;
  });
  for (const w of prose) vocabulary.add(w);
  const splitter = new CompoundSplitter(vocabulary, prose);
  // A catalogue repeats few distinct words many times: stem each once.
  const stems = new Map<string, string>();
  const stemOf = (w: string): string => {
    let s = stems.get(w);
    if (s === undefined) stems.set(w, (s = stem(w)));
    return s;
  };

  const docs: Fielded[] = raw.map(([name, summary, description]) => {
    const nameTerms: string[] = [];
    for (const w of name) {
      nameTerms.push(stemOf(w));
      // The compound stays a term of its own ("sequentialthinking" still finds itself).
      for (const part of splitter.split(w) ?? []) nameTerms.push(stemOf(part));
    }
    return { terms: [nameTerms, summary.map(stemOf), description.map(stemOf)] };
  });

  const averages = FIELDS.map((_, f) => (docs.length ? docs.reduce((sum, d) => sum + d.terms[f]!.length, 0) / docs.length : 1) || 1);
  const building = new Map<string, { docs: number[]; tfs: number[] }>();
  docs.forEach((d, doc) => {
    const tf = new Map<string, number>();
    FIELDS.forEach((field, f) => {
      const terms = d.terms[f]!;
      if (terms.length === 0) return;
      const norm = field.weight / (1 - field.b + (field.b * terms.length) / averages[f]!);
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + norm);
    });
    for (const [term, f] of tf) {
      let list = building.get(term);
      if (!list) building.set(term, (list = { docs: [], tfs: [] }));
      list.docs.push(doc);
      list.tfs.push(f);
    }
  });
  const postings = new Map<string, Postings>();
  for (const [term, list] of building) postings.set(term, { docs: Uint32Array.from(list.docs), tfs: Float64Array.from(list.tfs) });
  return { version, entries, postings };
}

const cache = new WeakMap<CatalogueApi, RankingIndex>();

export function indexFor(catalogue: CatalogueApi): RankingIndex {
  let index = cache.get(catalogue);
  if (!index || index.version !== catalogue.version) {
    index = buildIndex(catalogue.all(), catalogue.version);
    cache.set(catalogue, index);
  }
  return index;
}

export interface Scored {
  entry: CatalogueEntry;
  score: number;
}

/** Scores `candidates` (a subset of the catalogue, in catalogue order) against `query`; drops non-matches. */
export function rank(index: RankingIndex, query: string, candidates: readonly CatalogueEntry[]): Scored[] {
  const terms = [...new Set(tokenize(query))];
  const n = index.entries.length;
  const scores = new Map<number, number>();
  for (const term of terms) {
    const list = index.postings.get(term);
    if (!list) continue;
    const df = list.docs.length;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const weight = COMMON_VERBS.has(term) ? VERB_WEIGHT : 1;
    for (let i = 0; i < df; i++) {
      const doc = list.docs[i]!;
      const tf = list.tfs[i]!;
      scores.set(doc, (scores.get(doc) ?? 0) + weight * idf * ((tf * (K1 + 1)) / (tf + K1)));
    }
  }
  const allowed = candidates.length === n ? undefined : new Set(candidates);
  const out: { entry: CatalogueEntry; score: number; doc: number }[] = [];
  for (const [doc, score] of scores) {
    const entry = index.entries[doc]!;
    if (allowed && !allowed.has(entry)) continue;
    out.push({ entry, score, doc });
  }
  out.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return out.map(({ entry, score }) => ({ entry, score: Math.round(score * 1000) / 1000 }));
}

export function rankEntries(catalogue: CatalogueApi, query: string, candidates: readonly CatalogueEntry[]): Scored[] {
  return rank(indexFor(catalogue), query, candidates);
}
