/**
 * A tool's standing apart from the words of a query: whether it says it is deprecated (and
 * which tool replaces it), and whether it is one of Switchboard's own core tools, which an
 * agent looking for a task tool almost never wants. Decided once per index build.
 */
import type { CatalogueEntry } from '../../../kernel/index.js';

/**
 * "DEPRECATED: Use read_text_file instead.", "This tool is deprecated", "[Deprecated] ...":
 * the word opening a sentence, or said of the tool itself. A description that only warns
 * about something else ("the /search endpoint is deprecated") does not count.
 */
const DEPRECATED = /(?:^|[.!?]\s+|\n\s*)\[?deprecated\b|\bthis tool is deprecated\b/i;
const REPLACEMENT = /\b(?:use|prefer)\s+[`'"]?([A-Za-z0-9_.-]+)[`'"]?\s+instead\b/i;
/** Only the start of a description speaks about the tool itself; the rest is usage notes. */
const STATUS_SPAN = 400;

export interface Deprecation {
  /** The tool it names as its replacement, when that tool is in the catalogue. */
  replacement?: number;
}

/** Per entry: its deprecation, or undefined. `byName` maps catalogue names to entry indexes. */
export function deprecationOf(entry: CatalogueEntry, byName: (name: string) => number | undefined): Deprecation | undefined {
  const head = entry.description.slice(0, STATUS_SPAN);
  const at = DEPRECATED.exec(head);
  if (!at) return undefined;
  const named = REPLACEMENT.exec(head.slice(at.index))?.[1];
  if (named === undefined) return {};
  // The replacement is named as its server calls it: look for it beside the deprecated tool.
  const prefix = entry.name.endsWith(named) ? undefined : entry.name.slice(0, entry.name.length - toolPart(entry).length);
  const replacement = byName(named) ?? (prefix !== undefined ? byName(`${prefix}${named}`) : undefined);
  return replacement === undefined ? {} : { replacement };
}

/** The tool's own name without Switchboard's `x_<server>_` prefix. */
export function toolPart(entry: CatalogueEntry): string {
  const prefix = entry.server === undefined ? undefined : `x_${entry.server}_`;
  return prefix !== undefined && entry.name.startsWith(prefix) ? entry.name.slice(prefix.length) : entry.name;
}

/**
 * Words by which a request asks about Switchboard itself rather than a task: its name, the
 * gateway, its servers and services as things to configure, workflows and toolsets. With
 * one of them in the query, core tools rank like any other tool.
 */
const CORE_WORDS = new Set(['switchboard', 'gateway', 'aggregator', 'core', 'mcp', 'mcpserver', 'workflow', 'workflows', 'toolset', 'toolsets', 'preset']);
const SERVER_WORDS = new Set(['server', 'servers', 'service', 'services', 'upstream', 'upstreams']);
const CONFIG_WORDS = new Set(['config', 'configuration', 'configure', 'settings', 'register', 'registered']);

/** Whether the query's words ask for Switchboard's own tools. */
export function asksForCore(queryWords: readonly string[]): boolean {
  if (queryWords.some((w) => CORE_WORDS.has(w))) return true;
  return queryWords.some((w) => SERVER_WORDS.has(w)) && queryWords.some((w) => CONFIG_WORDS.has(w));
}
