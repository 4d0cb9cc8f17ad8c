/** list_tools, describe_tool, filter_tools, list_core_tools: finding tools without flooding the context. */
import {
  headerValue,
  objectResult,
  SwitchboardError,
  type CatalogueEntry,
  type JsonObject,
  type KernelApi,
  type MetaToolDefinition,
  type Session,
} from '../../kernel/index.js';
import { compileGlob, GlobSyntaxError, type Glob } from '../../lib/glob.js';
import { authStatus } from './auth-status.js';
import { fullEntry, invocationText } from './describe.js';
import { matchNames } from './name-index.js';
import { MAX_QUERY_CHARACTERS } from './query-length.js';
import { page, visibleEntries } from './visible.js';
import { HybridRanker } from './hybrid.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const TOOLSET_HEADER = 'x-service-toolset';

/** The servers a core_auth_login would unlock for this session (suspended ones are not named). */
function serversRequiringAuth(kernel: KernelApi, session: Session): JsonObject[] {
  return authStatus(kernel, session)
    .filter((s) => s.status === 'auth_required' && !s.suspended)
    .map((s) => ({ name: s.name, status: s.status, auth_tool: s.auth_tool }));
}

function toolsetEcho(headers: Parameters<typeof headerValue>[0]): string[] | undefined {
  const raw = headerValue(headers, TOOLSET_HEADER);
  return raw === undefined ? undefined : raw.split(',').map((s) => s.trim());
}

/** `ranker`: how filter_tools ranks a query (semantic.ts); lexical when not given. */
export function discoveryTools(kernel: KernelApi, ranker = new HybridRanker(kernel.catalogue, undefined, undefined)): MetaToolDefinition[] {
  const listTools: MetaToolDefinition = {
    name: 'list_tools',
    description:
      'List one page of the tools you can run through call_tool (name, summary, server, kind, annotations). Page with offset and limit until truncated is false; use filter_tools to search and describe_tool for a schema.',
    annotations: READ_ONLY,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        limit: { type: 'number', minimum: 1, default: 50, description: 'Tools per page (at least 1).' },
        offset: { type: 'number', minimum: 0, default: 0, description: 'Index of the first tool of the page.' },
      },
    },
    async handler(args, call) {
      const limit = Math.floor(args.limit as number);
      const offset = Math.floor(args.offset as number);
      const visible = visibleEntries(kernel.catalogue, call.request.view);
      const p = page(visible, offset, limit);
      const out: JsonObject = {
        tools: p.items.map((e) => e.discovery),
        total: p.total,
        total_tools: p.total,
        filtered_count: p.items.length,
        truncated: p.truncated,
        filters: { case_sensitive: false, include_schema: false, limit, offset },
        servers_requiring_auth: serversRequiringAuth(kernel, call.request.session),
      };
      const echo = toolsetEcho(call.request.headers);
      if (echo) out.toolset = echo;
      return objectResult(out);
    },
  };

  const describeTool: MetaToolDefinition = {
    name: 'describe_tool',
    description:
      'Describe one tool fully: description, inputSchema, outputSchema (when it declares one), server, kind, annotations, icons, and how to invoke it with call_tool.',
    annotations: READ_ONLY,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1, description: 'Tool name as listed by list_tools.' } },
    },
    async handler(args, call) {
      const entry = kernel.tools.resolve(args.name as string, call);
      const out: JsonObject = { ...fullEntry(entry), ...entry.details, invocation: invocationText(entry) };
      // With code mode on: the call as a run_code script writes it.
      const signatures = kernel.services.find('tool-signatures');
      if (signatures) out.typescript = signatures.typescript(entry);
      return objectResult(out);
    },
  };

  const filterTools: MetaToolDefinition = {
    name: 'filter_tools',
    description:
      'Search the tools you can run: query (natural language, ranked best first), pattern (glob on the name), description_filter, labels, toolset; paged with limit (default 5) and offset.',
    annotations: READ_ONLY,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        pattern: { type: 'string', description: 'Glob on the tool name: * any run, ? one character, [abc] a class.' },
        description_filter: { type: 'string', description: 'Case-insensitive substring of the full description.' },
        query: {
          type: 'string',
          maxLength: MAX_QUERY_CHARACTERS,
          description: 'Natural-language query; results are ranked by relevance with a score.',
        },
        labels: { type: 'object', additionalProperties: { type: 'string' }, description: 'key=value facets a tool must all carry.' },
        case_sensitive: { type: 'boolean', default: false },
        include_schema: { type: 'boolean', default: false, description: 'Full descriptions and input schemas instead of summaries.' },
        limit: { type: 'number', minimum: 1, default: 5 },
        offset: { type: 'number', minimum: 0, default: 0 },
        toolset: {
          type: 'array',
          items: { type: 'string' },
          maxItems: 32,
          description: 'Inline selectors: preset:<name>, server:<name>, workflow:<name>, tool:<name>.',
        },
        include_presets: { type: 'boolean', default: false, description: 'Add the known presets to the response.' },
      },
    },
    async handler(args, call) {
      const caseSensitive = args.case_sensitive as boolean;
      const includeSchema = args.include_schema as boolean;
      const limit = Math.floor(args.limit as number);
      const offset = Math.floor(args.offset as number);
      const out: JsonObject = {};
      let view = call.request.view;
      const toolsetArg = args.toolset as string[] | undefined;
      const toolsets = kernel.services.find('toolsets');
      if (toolsetArg !== undefined || args.include_presets === true) {
        if (!toolsets) throw new SwitchboardError('UNSUPPORTED', 'toolsets are not available: the toolsets plugin is disabled');
      }
      if (toolsetArg !== undefined && toolsets) {
        const resolved = toolsets.resolve(toolsetArg, view);
        view = resolved.view;
        out.toolset = toolsetArg;
        out.toolset_unmatched = resolved.unmatched;
      } else {
        const echo = toolsetEcho(call.request.headers);
        if (echo) out.toolset = echo;
      }
      if ((toolsetArg !== undefined || args.include_presets === true) && toolsets) out.presets = toolsets.presets();

      let candidates: readonly CatalogueEntry[] = visibleEntries(kernel.catalogue, view);
      if (typeof args.pattern === 'string') {
        let re: Glob;
        try {
          re = compileGlob(args.pattern, caseSensitive);
        } catch (err) {
          if (err instanceof GlobSyntaxError) throw new SwitchboardError('INVALID_ARGUMENTS', `pattern: ${err.message}`);
          throw err;
        }
        candidates = matchNames(candidates, re);
      }
      if (typeof args.description_filter === 'string') {
        const needle = caseSensitive ? args.description_filter : args.description_filter.toLowerCase();
        candidates = candidates.filter((e) => (caseSensitive ? e.description : e.description.toLowerCase()).includes(needle));
      }
      const labels = args.labels as Record<string, string> | undefined;
      if (labels) {
        const wanted = Object.entries(labels);
        candidates = candidates.filter((e) => wanted.every(([k, v]) => e.labels?.[k] === v));
      }
      let scored: { entry: CatalogueEntry; score?: number }[] = candidates.map((entry) => ({ entry }));
      if (typeof args.query === 'string') {
        const answer = await ranker.rank(args.query, candidates);
        scored = answer.scored;
        // How the query was ranked: `hybrid`, `lexical`, or `lexical (<why the embedder is not used>)` (docs/discovery.md).
        out.ranking = answer.ranking;
      }
      const p = page(scored, offset, limit);
      out.tools = p.items.map(({ entry, score }) => {
        const base = includeSchema ? fullEntry(entry) : { ...entry.discovery };
        return score === undefined ? base : { ...base, score };
      });
      out.total = p.total;
      out.filtered_count = p.items.length;
      out.truncated = p.truncated;
      out.filters = { case_sensitive: caseSensitive, include_schema: includeSchema, limit, offset };
      return objectResult(out);
    },
  };

  // Shaped like filter_tools, with no page cap: there are a few dozen core tools at most
  // (reference-behaviour.md §12).
  const listCoreTools: MetaToolDefinition = {
    name: 'list_core_tools',
    description:
      "List Switchboard's own core tools (servers, services, configuration, workflows), run through call_tool: full descriptions and, unless include_schema is false, input schemas.",
    annotations: READ_ONLY,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: { include_schema: { type: 'boolean', default: true, description: 'Input schemas too (default true); false leaves them out.' } },
    },
    async handler(args, call) {
      const includeSchema = args.include_schema as boolean;
      const core = visibleEntries(kernel.catalogue, call.request.view).filter((e) => e.kind === 'core');
      const signatures = kernel.services.find('tool-signatures');
      const tools = core.map((e) => {
        const out: JsonObject = includeSchema ? fullEntry(e) : { ...e.discovery, description: e.description };
        if (signatures) out.typescript = signatures.typescript(e);
        return out;
      });
      return objectResult({
        tools,
        total: tools.length,
        total_tools: tools.length,
        filtered_count: tools.length,
        truncated: false,
        filters: { include_schema: includeSchema },
      });
    },
  };

  return [listTools, describeTool, filterTools, listCoreTools];
}
