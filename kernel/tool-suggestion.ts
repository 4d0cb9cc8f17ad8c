/**
 * The tool a caller probably meant, for TOOL_NOT_FOUND: a near miss of a name it may call
 * (`x_tools_ad`), or the same upstream tool under the name it has now (`x_live_ping` after the
 * server's toolPrefix became `renamed`). Only names the caller's view includes are offered:
 * a suggestion must not reveal a tool the toolset hides. Runs on the error path only.
 */
import type { CatalogueEntry } from './catalogue.js';
import { closestName } from './config/did-you-mean.js';
import type { CatalogueView } from './request-context.js';

/** Longest name compared: a suggestion for a pasted paragraph is not worth the work. */
const MAX_NAME = 128;

/** Most names offered when a name cut short fits several tools. */
const MAX_CANDIDATES = 5;

/** One name, or the shortest few (then by name) when several fit equally. */
function few(entries: readonly CatalogueEntry[]): string | string[] {
  if (entries.length === 1) return entries[0]!.name;
  return entries
    .map((e) => e.name)
    .sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
    .slice(0, MAX_CANDIDATES);
}

/** Case, `-` and `_` aside: `get-sum`, `get_sum` and `Get_Sum` are the same words. */
const words = (n: string): string => n.toLowerCase().replace(/-/g, '_');

/**
 * The name (or, for a name cut short that fits several, the names) the caller probably meant:
 * a tool renamed by a new prefix; the upstream's own name without Switchboard's `x_<server>_`
 * (`read_file`, `get-sum`); a name cut short at a word (`x_filesystem_read`); a near miss.
 */
export function suggestTool(name: string, entries: readonly CatalogueEntry[], view: CatalogueView | undefined): string | string[] | undefined {
  if (name.length > MAX_NAME) return undefined;
  const visible = view ? entries.filter((e) => view.includes(e)) : entries;
  // An external tool's name is x_<prefix>_<original>: the same original under one other prefix.
  const renamed = visible.filter((e) => e.originalName !== undefined && name.startsWith('x_') && name.endsWith(`_${e.originalName}`));
  if (renamed.length === 1) return renamed[0]!.name;
  const own = visible.filter((e) => e.originalName !== undefined && words(e.originalName) === words(name));
  if (own.length > 0) return few(own);
  const cut = visible.filter((e) => e.name.length > name.length && words(e.name).startsWith(words(name)) && /[_-]/.test(e.name[name.length]!));
  if (cut.length > 0) return few(cut);
  const near = visible.filter((e) => Math.abs(e.name.length - name.length) <= 3).map((e) => e.name);
  return closestName(name, near) ?? closestName(words(name), near);
}
