/**
 * The catalogue search filter_tools ranks by (meta-tools provides it), for plugins that search
 * on a caller's behalf without importing meta-tools: code-mode's `tools.search(query)` gives a
 * script exactly the ranking filter_tools gives the model.
 */
import type { CatalogueEntry } from '../catalogue.js';

export interface RankedEntry {
  readonly entry: CatalogueEntry;
  readonly score: number;
}

export interface ToolSearch {
  /** `candidates` (the caller's view, already narrowed) ranked for `query`, best first; entries that do not match are left out. Asynchronous: with an embedder the query is embedded first. */
  rank(query: string, candidates: readonly CatalogueEntry[]): Promise<RankedEntry[]>;
}
