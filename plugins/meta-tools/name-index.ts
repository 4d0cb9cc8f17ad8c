/**
 * filter_tools `pattern`: an index of tool names, so a glob is tested only against the names
 * that can match it rather than all 10,000.
 *
 * Names are folded to lower case and sorted once per catalogue (or view) version; a pattern's
 * literal start (`x_github` of `x_github*_list_*`) is a binary search for the range of names
 * beginning with it, and its longest literal run must occur in a name before the glob is run
 * on it. Case-sensitive patterns search the same folded index (a superset) and the glob
 * decides. Names with a character beyond ASCII are few and always tested: case folding
 * outside ASCII can map one character to another's lower case (the Kelvin sign folds to `k`).
 * Matches come back in catalogue order, as a scan would give them.
 */
import type { CatalogueEntry } from '../../kernel/index.js';
import type { Glob } from '../../lib/glob.js';

interface NameIndex {
  /** ASCII names folded to lower case, sorted. */
  folded: string[];
  /** Position in the entries of each folded name. */
  at: Uint32Array;
  /** Positions of names with a character beyond ASCII. */
  other: number[];
}

/** One index per entries array: the catalogue's, or a view's (memoised per catalogue version). */
const indexes = new WeakMap<readonly CatalogueEntry[], NameIndex>();

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

function build(entries: readonly CatalogueEntry[]): NameIndex {
  const ascii: { name: string; at: number }[] = [];
  const other: number[] = [];
  entries.forEach((e, i) => (isAscii(e.name) ? ascii.push({ name: e.name.toLowerCase(), at: i }) : other.push(i)));
  ascii.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.at - b.at));
  return { folded: ascii.map((a) => a.name), at: Uint32Array.from(ascii, (a) => a.at), other };
}

function indexOf(entries: readonly CatalogueEntry[]): NameIndex {
  let index = indexes.get(entries);
  if (!index) {
    index = build(entries);
    indexes.set(entries, index);
  }
  return index;
}

/** The first position whose folded name is not below `prefix`. */
function lowerBound(folded: readonly string[], prefix: string): number {
  let lo = 0;
  let hi = folded.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (folded[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The entries whose names `glob` matches, in the order of `entries`. */
export function matchNames(entries: readonly CatalogueEntry[], glob: Glob): CatalogueEntry[] {
  const { folded, at, other } = indexOf(entries);
  const { prefix, infix } = glob;
  const hits: number[] = [];
  for (let k = prefix === '' ? 0 : lowerBound(folded, prefix); k < folded.length; k++) {
    const name = folded[k]!;
    if (!name.startsWith(prefix)) break;
    if (infix.length > prefix.length && !name.includes(infix)) continue;
    if (glob.test(entries[at[k]!]!.name)) hits.push(at[k]!);
  }
  for (const i of other) if (glob.test(entries[i]!.name)) hits.push(i);
  hits.sort((a, b) => a - b);
  return hits.map((i) => entries[i]!);
}
