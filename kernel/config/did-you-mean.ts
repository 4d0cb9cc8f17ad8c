/**
 * "Did you mean": the nearest of the names a place accepts, for a name it does not. A
 * different case (`autostart` for `autoStart`) or a slip of a letter or two is suggested; a
 * name that is simply unknown gets nothing, since a wrong guess misleads more than none.
 */

/** Optimal string alignment distance (Levenshtein with transpositions), case-insensitive. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => [i, ...Array<number>(y.length).fill(0)]);
  for (let j = 1; j <= y.length; j++) d[0]![j] = j;
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[x.length]![y.length]!;
}

/**
 * The closest candidate within a third of the name's length (at most 3 edits), or undefined;
 * also undefined when two candidates are equally close (`x_db_explain` is as near to
 * `x_db-eu_explain` as to `x_db-us_explain`: picking one would be a guess).
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  let tied = false;
  for (const c of candidates) {
    if (c === name) continue;
    const dist = c.toLowerCase() === name.toLowerCase() ? 0 : distance(name, c);
    if (dist > limit) continue;
    if (dist < bestDistance) {
      best = c;
      bestDistance = dist;
      tied = false;
    } else if (dist === bestDistance) tied = true;
  }
  return tied ? undefined : best;
}
