/**
 * Splits a compound name token ("sequentialthinking", "readfile", "filesystem") into the words
 * the catalogue itself uses, so a query in plain words finds a tool whose author glued them
 * together. The vocabulary is every word of every indexed name, summary and description; the
 * split is computed once per index build and memoised per token, never per query.
 *
 * A segmentation covers the whole token with known words of four letters or more, allowing
 * at most one unknown stretch (also four letters or more) so that a compound whose other half
 * the catalogue never spells out alone ("sequential" + "thinking") still splits. Fewest parts
 * win, and any split into known words beats one with an unknown stretch.
 */

/** Shorter parts turn ordinary words into noise ("the" + "rapist"). */
const MIN_PART = 4;
/** Guard: the search is quadratic in the token's length, and no real compound is longer. */
export const MAX_COMPOUND_LENGTH = 48;
const KNOWN_COST = 1;
/** Dearer than any number of known words: an unknown stretch is the last resort. */
const UNKNOWN_COST = MAX_COMPOUND_LENGTH;

interface Cell {
  cost: number;
  /** Start of the last part. */
  from: number;
}

export class CompoundSplitter {
  private readonly memo = new Map<string, readonly string[] | undefined>();

  /** `vocabulary`: lower-case words as they appear in the catalogue. `standalone`: words seen as words in prose, never split. */
  constructor(
    private readonly vocabulary: ReadonlySet<string>,
    private readonly standalone: ReadonlySet<string>,
  ) {}

  /** The parts of `token`, or undefined when it is no compound of the catalogue's words. */
  split(token: string): readonly string[] | undefined {
    if (this.memo.has(token)) return this.memo.get(token);
    const parts = this.segment(token);
    this.memo.set(token, parts);
    return parts;
  }

  private segment(token: string): readonly string[] | undefined {
    const n = token.length;
    if (n < 2 * MIN_PART || n > MAX_COMPOUND_LENGTH || !/^[a-z]+$/.test(token) || this.standalone.has(token)) return undefined;
    // Two layers: best segmentation of token[0, i) using no unknown stretch, and using one.
    const none: (Cell | undefined)[] = new Array<Cell | undefined>(n + 1);
    const one: (Cell | undefined)[] = new Array<Cell | undefined>(n + 1);
    none[0] = { cost: 0, from: -1 };
    for (let i = MIN_PART; i <= n; i++) {
      for (let j = 0; j <= i - MIN_PART; j++) {
        // The whole token as one part is no split at all.
        if (j === 0 && i === n) continue;
        const known = this.vocabulary.has(token.slice(j, i));
        const a = none[j];
        const b = one[j];
        if (known) {
          if (a && (!none[i] || a.cost + KNOWN_COST < none[i]!.cost)) none[i] = { cost: a.cost + KNOWN_COST, from: j };
          if (b && (!one[i] || b.cost + KNOWN_COST < one[i]!.cost)) one[i] = { cost: b.cost + KNOWN_COST, from: j };
        } else if (a && (!one[i] || a.cost + UNKNOWN_COST < one[i]!.cost)) {
          one[i] = { cost: a.cost + UNKNOWN_COST, from: j };
        }
      }
    }
    const layers = [none, one];
    const best = [none[n], one[n]].reduce<[Cell, number] | undefined>((acc, cell, layer) => {
      if (!cell) return acc;
      return !acc || cell.cost < acc[0].cost ? [cell, layer] : acc;
    }, undefined);
    if (!best) return undefined;
    // Walk back; a step from the "one" layer either stays there (a known word) or drops to "none" (the unknown stretch).
    const parts: string[] = [];
    let i = n;
    let layer = best[1];
    while (i > 0) {
      const cell = layers[layer]![i]!;
      const word = token.slice(cell.from, i);
      if (layer === 1 && !this.vocabulary.has(word)) layer = 0;
      parts.unshift(word);
      i = cell.from;
    }
    return parts;
  }
}
