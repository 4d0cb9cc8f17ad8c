/**
 * The development set's queries with one slip of the keyboard each, as people type in a
 * hurry: in one word of five letters or more, two neighbouring letters swapped, a letter
 * dropped, or a letter doubled. Deterministic (a fixed seed per query id), so every run and
 * every change is judged on the same misspellings. Used by `npm run bench -- search-devset`
 * to measure spelling correction (plugins/meta-tools/ranking/spelling.ts).
 */
import { createHash } from 'node:crypto';

/** A small deterministic generator seeded by `id`. */
function generator(id: string): () => number {
  let state = createHash('sha256').update(id).digest().readUInt32BE(0) || 1;
  return () => {
    // xorshift32
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** `query` with one misspelt word (the query as it is when no word has five letters or more). */
export function misspell(id: string, query: string): string {
  const random = generator(id);
  const words = query.split(' ');
  const long = words.flatMap((w, i) => (/^[A-Za-z]{5,}$/.test(w) ? [i] : []));
  if (long.length === 0) return query;
  const at = long[Math.floor(random() * long.length)]!;
  const w = words[at]!;
  // Never the first or last letter: people rarely slip there.
  const p = 1 + Math.floor(random() * (w.length - 3));
  const kind = random();
  words[at] =
    kind < 0.4 ? w.slice(0, p) + w[p + 1]! + w[p]! + w.slice(p + 2) : kind < 0.7 ? w.slice(0, p) + w.slice(p + 1) : w.slice(0, p) + w[p]! + w.slice(p);
  return words.join(' ');
}
