/** The caller's catalogue: the whole catalogue, narrowed by the request's view when it has one. */
import type { CatalogueApi, CatalogueEntry, CatalogueView } from '../../kernel/index.js';

/** Narrowed catalogues by view object, recomputed only when the catalogue changes. */
const narrowed = new WeakMap<CatalogueView, { version: number; entries: readonly CatalogueEntry[] }>();

export function visibleEntries(catalogue: CatalogueApi, view: CatalogueView | undefined): readonly CatalogueEntry[] {
  const all = catalogue.all();
  if (!view) return all;
  const memo = narrowed.get(view);
  if (memo && memo.version === catalogue.version) return memo.entries;
  const entries = all.filter((e) => view.includes(e));
  narrowed.set(view, { version: catalogue.version, entries });
  return entries;
}

export interface Page<T> {
  items: T[];
  total: number;
  truncated: boolean;
}

export function page<T>(items: readonly T[], offset: number, limit: number): Page<T> {
  const slice = items.slice(offset, offset + limit);
  return { items: slice, total: items.length, truncated: offset + slice.length < items.length };
}
