/**
 * Relevance ranking for filter_tools `query`: a field-weighted BM25 (BM25F) over tool name
 * and summary. Names weigh more than summaries; verbs that nearly every tool has (list,
 * get, show, ...) count for less rather than nothing. The index is built once per catalogue
 * version and shared by every session; a query only walks the postings of its terms.
 */
import type { CatalogueApi, CatalogueEntry } from '../../kernel/index.js';

const NAME_WEIGHT = 3;
const SUMMARY_WEIGHT = 1;
const K1 = 1.2;
const B = 0.75;
const COMMON_VERBS = new Set(['list', 'get', 'show', 'fetch', 'read', 'set', 'create', 'update', 'delete', 'run', 'call', 'describe', 'find']);
const VERB_WEIGHT = 0.3;
const STOP_WORDS = new Set(['a', 'an', 'the', 'of', 'to', 'for', 'in', 'on', 'and', 'or', 'with', 'by', 'from', 'x', 'is', 'it', 'me', 'my', 'all']);

/** Split on `_ - . /` and whitespace and camelCase boundaries; lower-case; fold a plural `s`. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const part of text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^A-Za-z0-9]+/)) {
    if (!part) continue;
    let t = part.toLowerCase();
    if (STOP_WORDS.has(t)) continue;
    if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss')) t = t.slice(0, -1);
    out.push(t);
  }
  return out;
}

interface Posting {
  doc: number;
  /** Field-weighted term frequency. */
  tf: number;
}

export interface RankingIndex {
  version: number;
  entries: readonly CatalogueEntry[];
  postings: Map<string, Posting[]>;
  lengths: Float64Array;
  avgLength: number;
}

export function buildIndex(entries: readonly CatalogueEntry[], version: number): RankingIndex {
  const postings = new Map<string, Posting[]>();
  const lengths = new Float64Array(entries.length);
  let total = 0;
  entries.forEach((entry, doc) => {
    const tf = new Map<string, number>();
    const name = tokenize(entry.name);
    const summary = tokenize(entry.summary);
    for (const t of name) tf.set(t, (tf.get(t) ?? 0) + NAME_WEIGHT);
    for (const t of summary) tf.set(t, (tf.get(t) ?? 0) + SUMMARY_WEIGHT);
    const len = name.length * NAME_WEIGHT + summary.length * SUMMARY_WEIGHT;
    lengths[doc] = len;
    total += len;
    for (const [term, f] of tf) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push({ doc, tf: f });
    }
  });
  return { version, entries, postings, lengths, avgLength: entries.length ? total / entries.length : 1 };
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
    const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    const weight = COMMON_VERBS.has(term) ? VERB_WEIGHT : 1;
    for (const { doc, tf } of list) {
      const norm = tf + K1 * (1 - B + (B * index.lengths[doc]!) / index.avgLength);
      scores.set(doc, (scores.get(doc) ?? 0) + weight * idf * ((tf * (K1 + 1)) / norm));
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
