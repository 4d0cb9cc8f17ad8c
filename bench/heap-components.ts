/**
 * Where the heap goes at 10,000 tools, component by component, the way a running
 * Switchboard builds them: the upstreams' tool lists (parsed from tools/list JSON, schemas
 * shared), catalogue entries, the ranking index, a preset's verdict memo, and compiled
 * argument validators (compiled lazily on first call in practice: shown for the case that
 * every tool was called). `node --expose-gc dist/bench/heap-components.js [servers] [tools]`
 */
import { Cancellation } from '../kernel/cancellation.js';
import { Catalogue } from '../kernel/catalogue.js';
import { createHooks } from '../kernel/hooks.js';
import { ToolInvoker } from '../kernel/invoke.js';
import { createLogger } from '../kernel/log.js';
import type { RequestContext } from '../kernel/request-context.js';
import type { Session } from '../kernel/sessions.js';
import type { CallContext, ToolDefinition } from '../kernel/tools.js';
import { buildIndex } from '../plugins/meta-tools/ranking.js';
import { compilePresets } from '../plugins/toolsets/presets.js';
import { viewOf } from '../plugins/toolsets/resolve.js';
import { parseSelectors } from '../plugins/toolsets/selectors.js';
import { sharedSchema } from '../plugins/upstreams/tool-list.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const heap = (): number => {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
};
const servers = Number(process.argv[2] ?? 10);
const perServer = Number(process.argv[3] ?? 1000);
const VERBS = ['list', 'get', 'create', 'update', 'delete', 'search', 'describe', 'watch'];

/** One server's tools/list answer as JSON text, like bench/many-tools-server.ts sends it. */
function toolsListJson(s: number): string {
  const tools = Array.from({ length: perServer }, (_, i) => ({
    name: `${VERBS[i % VERBS.length]}_things_${i}`,
    description: `${VERBS[i % VERBS.length]} things in the selected project and region (server ${s}). Results are paged; use the cursor from the previous page to continue.`,
    inputSchema: {
      type: 'object',
      properties: {
        project: { type: 'string', description: 'Project identifier.' },
        region: { type: 'string', enum: ['us-east1', 'europe-west1'], description: 'Region.' },
        pageSize: { type: 'integer', minimum: 1, maximum: 500, description: 'Results per page.' },
        pageToken: { type: 'string', description: 'Cursor of the previous call.' },
      },
      required: ['project'],
    },
    annotations: { readOnlyHint: i % 2 === 0 },
  }));
  return JSON.stringify({ tools });
}

const rows: [string, number][] = [];
const mib = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
let mark = heap();
const step = (what: string): void => {
  const now = heap();
  rows.push([what, mib(now - mark)]);
  mark = now;
};

const texts = Array.from({ length: servers }, (_, s) => toolsListJson(s));
mark = heap();
const lists: Tool[][] = texts.map((t) => (JSON.parse(t) as { tools: Tool[] }).tools);
step(`tool lists as parsed (${servers} x ${perServer}), each schema its own object`);
for (const list of lists) for (const t of list) t.inputSchema = sharedSchema(t.inputSchema);
step('the same after sharing identical input schemas (negative: freed)');

const catalogue = new Catalogue(createHooks(), createLogger({ level: 'error' }));
lists.forEach((list, s) => {
  const defs: ToolDefinition[] = list.map((t) => ({
    name: `x_s${s}_${t.name}`,
    kind: 'tool',
    description: t.description ?? '',
    inputSchema: t.inputSchema as ToolDefinition['inputSchema'],
    server: `s${s}`,
    originalName: t.name,
    annotations: { readOnlyHint: t.annotations?.readOnlyHint ?? false },
    invoke: async () => ({ content: [] }),
  }));
  catalogue.replaceSource(`server:s${s}`, defs);
});
step('catalogue entries (discovery form, summaries, invoke closures)');
const index = buildIndex(catalogue.all(), -1);
step('ranking index (filter_tools query)');
const presets = compilePresets({ ops: { include: [{ readOnly: true }, { server: 's1' }], exclude: [{ pattern: '*delete*' }] } });
if (!presets.ok) throw new Error('preset does not compile');
const view = viewOf(parseSelectors(['preset:ops']), presets.presets);
let visible = 0;
for (const e of catalogue.all()) if (view.includes(e)) visible++;
step(`one preset's verdict memo over every entry (${visible} visible)`);
const invoker = new ToolInvoker(catalogue, createHooks(), createLogger({ level: 'error' }));
const call: CallContext = { request: { session: {} as Session, headers: {}, slots: new Map() } as RequestContext, cancellation: new Cancellation(), depth: 0 };
for (const e of catalogue.all()) await invoker.call(e.name, { project: 'p' }, call);
step('argument validators, had every tool been called once (they compile lazily)');

process.stdout.write(
  `## heap by component: ${servers} servers x ${perServer} tools\n\n| component | heap MiB |\n|---|---|\n${rows.map(([w, m]) => `| ${w} | ${m} |`).join('\n')}\n`,
);
void index;
void lists;
