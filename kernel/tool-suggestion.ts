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

export function suggestTool(name: string, entries: readonly CatalogueEntry[], view: CatalogueView | undefined): string | undefined {
  if (name.length > MAX_NAME) return undefined;
  const visible = view ? entries.filter((e) => view.includes(e)) : entries;
  // An external tool's name is x_<prefix>_<original>: the same original under one other prefix.
  const renamed = visible.filter((e) => e.originalName !== undefined && name.startsWith('x_') && name.endsWith(`_${e.originalName}`));
  if (renamed.length === 1) return renamed[0]!.name;
  const near = visible.filter((e) => Math.abs(e.name.length - name.length) <= 3).map((e) => e.name);
  return closestName(name, near);
}
