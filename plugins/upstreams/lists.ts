/**
 * What an upstream serves, read in full: its tools, resources, resource templates and
 * prompts, at connect and again whenever it says a list changed. Scrubbed once here, as
 * they arrive, and their icons checked (icons.ts): every listing then serves them as they
 * are. A tool list past the configured limits is refused whole (ToolListLimitError), page
 * by page, before the rest is read.
 */
import type { Prompt, Resource, ResourceTemplate, ServerCapabilities, Tool } from '#mcp-sdk/types.js';
import type { Logger, SecretsApi } from '../../kernel/index.js';
import { keepSafeIcons } from './icons.js';
import { checkToolPage, ToolListLimitError, type ToolListLimits } from './tool-limits.js';
import { listToolsPage } from './tool-list.js';

export interface ServedLists {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
}

type PageOf<K extends string, T> = { nextCursor?: string } & Record<K, T[]>;

/**
 * Where the lists are read from: a connection of either era (the v1 SDK client of a
 * 2025-11-25 server, the v2 one of a 2026-07-28 server), page by page.
 */
export interface ListSource {
  capabilities(): ServerCapabilities;
  /** A tools/list page as it came (listToolsPage checks it). */
  toolsPage(cursor: string | undefined): Promise<unknown>;
  resourcesPage(cursor: string | undefined): Promise<PageOf<'resources', Resource>>;
  templatesPage(cursor: string | undefined): Promise<PageOf<'resourceTemplates', ResourceTemplate>>;
  promptsPage(cursor: string | undefined): Promise<PageOf<'prompts', Prompt>>;
}

/** Reads every list into `into`, each as soon as it is read (a later list failing leaves the earlier ones read). */
export async function readLists(client: ListSource, into: ServedLists, limits: ToolListLimits, log: Logger, secrets: SecretsApi): Promise<void> {
  const caps = client.capabilities();
  into.tools = caps.tools ? await listTools(client, limits, log, secrets) : [];
  into.resources = caps.resources
    ? safeIcons(secrets.scrubValue(await listAll((cursor) => client.resourcesPage(cursor), 'resources')), (r) => `resource '${r.uri}'`, log)
    : [];
  // Templates are optional even for servers with resources: one that has none may not answer.
  into.resourceTemplates = caps.resources
    ? safeIcons(
        secrets.scrubValue(
          await listAll<'resourceTemplates', ResourceTemplate>((cursor) => client.templatesPage(cursor), 'resourceTemplates').catch(
            (): ResourceTemplate[] => [],
          ),
        ),
        (t) => `resource template '${t.uriTemplate}'`,
        log,
      )
    : [];
  into.prompts = caps.prompts
    ? safeIcons(secrets.scrubValue(await listAll((cursor) => client.promptsPage(cursor), 'prompts')), (p) => `prompt '${p.name}'`, log)
    : [];
}

/** `items`, each with only the icons worth keeping (icons.ts); tools get theirs page by page (tool-list.ts). */
function safeIcons<T extends { icons?: unknown }>(items: T[], what: (item: T) => string, log: Logger): T[] {
  for (const item of items) keepSafeIcons(item, what(item), log);
  return items;
}

/** Page by page, so a list past the limits is refused before the rest of it is read. */
async function listTools(client: ListSource, limits: ToolListLimits, log: Logger, secrets: SecretsApi): Promise<Tool[]> {
  const all: Tool[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await listToolsPage((c) => client.toolsPage(c), cursor, log, secrets);
    checkToolPage(all.length, page.tools, limits);
    all.push(...page.tools);
    cursor = page.nextCursor;
    // Empty pages with a cursor each time would never end.
    if (++pages > limits.maxToolsPerServer)
      throw new ToolListLimitError(`the server's tools/list never ends (more than ${limits.maxToolsPerServer} pages); its tool list is refused`);
  } while (cursor);
  return all;
}

async function listAll<K extends 'tools' | 'resources' | 'resourceTemplates' | 'prompts', T>(
  page: (cursor: string | undefined) => Promise<{ nextCursor?: string } & Record<K, T[]>>,
  key: K,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const r = await page(cursor);
    all.push(...r[key]);
    cursor = r.nextCursor;
  } while (cursor);
  return all;
}

export interface ListWatcher {
  /** The server said its `what` list ('tool', 'resource', 'prompt') changed. */
  changed(what: string): Promise<void>;
  /** A resource this server was asked to watch changed (resources/subscribe). */
  resourceUpdated(uri: string): void;
}
