/**
 * A request that asks for several things ("find the crashing pod and show me its logs",
 * "clone the repo, then show its history"): each clause is ranked alone too, and a tool scores
 * the best of its share of the whole request's best score and CLAUSE_WEIGHT times its share of
 * its clause's best (CLAUSE_BEST_WEIGHT for the clause's best tool itself). Without this, the
 * words of one task outweigh the other's and its tools fill the top five.
 */
import type { CatalogueEntry } from '../../../kernel/index.js';
import type { Scored } from '../ranking.js';
import { queryWords, singleSpaced } from './words.js';

/** A clause's share of the answer: its best tool ranks just below the whole request's best (0.8 measured on the dev part: bench/README.md). */
const CLAUSE_WEIGHT = 0.8;
/**
 * A clause's own best tool, though, ranks near the whole request's best: when the other task's
 * words match a family of near-identical tools (Twilio's 197, each its API's one operation), a
 * dozen of them scored above 0.8 of the best and pushed the clause's tool past ten ("delete
 * the old IP access control list ..., and reset my local branch": git_reset 15th). Measured
 * (stop 75): dev 0.869 -> 0.871 at five, held-back 0.853 -> 0.859, tasks with every step in
 * the top ten 67 -> 69 of 87 held-back; the second-best of a clause raised too lost.
 */
const CLAUSE_BEST_WEIGHT = 0.95;
/** Where a request that asks for two things splits: "find X and open Y", "X, then Y", "X; Y". */
const CLAUSE_BREAK = /\s*(?:[,;]\s*(?:and\s+|then\s+)*|\s(?:and\s+then|then|and)\s+)/i;

/**
 * Clauses ranked alone at most: each is a ranking of its own, and a request of more tasks than
 * this is not a request (100,000 characters of "list files, " made 9,000 clauses and took
 * 0.2 s a query). The words of the rest still count in the whole request's ranking.
 */
export const MAX_CLAUSES = 8;

/**
 * Parts of a request looked at for clauses: each is read for its words (every idiom, value and
 * phrase pattern), and a flood of breaks made that tens of thousands of reads (50,000 for
 * 100,000 characters of " ,": half a second a query, more than all the rest of its ranking).
 */
const MAX_PARTS = MAX_CLAUSES * 8;

/** A letter or digit: a part without one has no word that counts, and is not read for words. */
const HAS_WORD = /[\p{L}\p{N}]/u;

/** The clauses of a request that asks for several things (each with at least one word that counts; the first MAX_CLAUSES), or none. */
export function clausesOf(query: string): string[] {
  const clauses: string[] = [];
  for (const part of singleSpaced(query).split(CLAUSE_BREAK, MAX_PARTS)) {
    if (!HAS_WORD.test(part) || queryWords(part).length === 0) continue;
    clauses.push(part);
    if (clauses.length === MAX_CLAUSES) break;
  }
  return clauses.length >= 2 ? clauses : [];
}

/** The whole request's ranking (not empty) merged with each clause's, as above; equal scores keep the whole request's order, then name order. */
export function withClauses(whole: readonly Scored[], clauses: readonly (readonly Scored[])[]): Scored[] {
  const top = whole[0]!.score;
  const share = new Map<CatalogueEntry, number>();
  for (const s of whole) share.set(s.entry, s.score / top);
  for (const ranked of clauses) {
    const best = ranked[0]?.score;
    if (!best) continue;
    for (const s of ranked) {
      // A core tool needs a strong match on the whole request: a short clause is no licence.
      if (s.entry.kind === 'core' && !share.has(s.entry)) continue;
      const mine = ((s === ranked[0] ? CLAUSE_BEST_WEIGHT : CLAUSE_WEIGHT) * s.score) / best;
      if (mine > (share.get(s.entry) ?? 0)) share.set(s.entry, mine);
    }
  }
  const docOf = new Map(whole.map((s, i) => [s.entry, i]));
  return [...share]
    .map(([entry, v]) => ({ entry, score: Math.round(v * top * 1000) / 1000, order: docOf.get(entry) ?? Infinity }))
    .sort((a, b) => b.score - a.score || a.order - b.order || (a.entry.name < b.entry.name ? -1 : 1))
    .map(({ entry, score }) => ({ entry, score }));
}
