/**
 * Reading an upstream's tools/list without the SDK's schema copy. The SDK parses every
 * page with zod, which builds a second copy of every tool (descriptions, schemas) before
 * the first is garbage: at thousands of tools that peak is most of the process's RSS. The
 * page is checked for the few things the catalogue relies on and kept as parsed; input
 * schemas that are identical across tools or servers (one server run per cluster, say) are
 * shared, one object for all.
 *
 * Each page is scrubbed of known secrets here, once, as it arrives: descriptions and schemas
 * are upstream text that list_tools, describe_tool and the catalogue then serve as they are,
 * with no scrubbing per listing. A server that knows no secret costs nothing; one page with
 * a secret is copied once. Icons are checked here too, once (icons.ts).
 *
 * Annotations are shared the same way: a server's thousand tools carry a handful of distinct
 * hint sets (`{ readOnlyHint: true }`), and one object each cost 32 bytes a tool for the
 * connection's life (0.3 MiB at 10,000 tools, found in a heap snapshot).
 */
import type { ListToolsResultSchema, Tool } from '#mcp-sdk/types.js';
import type { Logger, SecretsApi } from '../../kernel/index.js';
import { keepSafeIcons } from './icons.js';

interface Page {
  tools: Tool[];
  nextCursor?: string;
}

/** Schemas and annotations by their JSON text; held weakly so a server that leaves frees its own. */
const shared = new Map<string, WeakRef<object>>();
const forget = new FinalizationRegistry<string>((key) => {
  const ref = shared.get(key);
  if (ref && ref.deref() === undefined) shared.delete(key);
});

/** One object for every identical value (plain JSON, never mutated): the first one seen. */
function sharedJson<T extends object>(value: T): T {
  const key = JSON.stringify(value);
  const existing = shared.get(key)?.deref();
  if (existing) return existing as T;
  shared.set(key, new WeakRef(value));
  forget.register(value, key);
  return value;
}

export function sharedSchema(schema: Tool['inputSchema']): Tool['inputSchema'] {
  return sharedJson(schema);
}

/**
 * One string for every identical text: V8's own, the copy it keeps in its string table for
 * property keys (an object key is made canonical, and `Object.keys` answers that copy). The
 * table holds its strings weakly, so a text no tool uses any more is freed with no bookkeeping
 * here. Descriptions repeat across servers of one kind (one per cluster or tenant) and across
 * a generated server's tools; in a heap snapshot at 10,000 tools, copies of the same
 * description were 2 MiB of the heap (bench/README.md, "Under 100 MiB on Node 22").
 */
export function sharedText(text: string): string {
  // (A text that is an array index comes back as a string of its own: equal, only not shared.)
  return Object.keys({ [text]: 0 })[0] ?? text;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Accepts a page whose `tools` is an array; its malformed entries are dropped with a warning. */
const PAGE = {
  safeParse(data: unknown): { success: true; data: Page } | { success: false; error: Error } {
    if (!isObject(data) || !Array.isArray(data.tools)) return { success: false, error: new Error("tools/list result has no 'tools' array") };
    if (data.nextCursor !== undefined && typeof data.nextCursor !== 'string')
      return { success: false, error: new Error("tools/list 'nextCursor' is not a string") };
    return { success: true, data: data as unknown as Page };
  },
} as unknown as typeof ListToolsResultSchema;

/** How a v1 SDK Client's request() is told to keep a tools/list page as parsed (checked by listToolsPage). */
export const TOOLS_PAGE = PAGE;

/** One page, as the connection's list source fetched it (unparsed by any SDK schema), checked and kept. */
export async function listToolsPage(
  fetchPage: (cursor: string | undefined) => Promise<unknown>,
  cursor: string | undefined,
  log: Logger,
  secrets: SecretsApi,
): Promise<Page> {
  const checked = PAGE.safeParse(await fetchPage(cursor));
  if (!checked.success) throw checked.error;
  const page = checked.data as unknown as Page;
  const tools: Tool[] = [];
  // Before sharing schemas: a scrubbed schema is shared by its scrubbed text.
  for (const t of secrets.scrubValue(page.tools) as unknown[]) {
    if (!isObject(t) || typeof t.name !== 'string' || !isObject(t.inputSchema)) {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify answers undefined for undefined, a function or a symbol, whatever its type says
      log.warn(`ignoring a malformed tool in tools/list: ${JSON.stringify(t)?.slice(0, 120)}`);
      continue;
    }
    const tool = t as unknown as Tool;
    tool.inputSchema = sharedSchema(tool.inputSchema);
    if (isObject(tool.annotations)) tool.annotations = sharedJson(tool.annotations);
    if (typeof tool.description === 'string') tool.description = sharedText(tool.description);
    if (typeof tool.title === 'string') tool.title = sharedText(tool.title);
    keepSafeIcons(tool, `tool '${tool.name}'`, log);
    tools.push(tool);
  }
  return page.nextCursor ? { tools, nextCursor: page.nextCursor } : { tools };
}
