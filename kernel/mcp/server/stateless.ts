/**
 * 2026-07-28 requests, served statelessly: each one on its own, with no session record, no
 * SDK Server and nothing in any registry or directory, so any replica answers any request.
 * The transport has checked the HTTP side (headers against the body) and read the envelope;
 * this answers the method with the same meta-tools, handlers and `onRequest` taps (toolset,
 * sign-in view, limits, authorization) a legacy session gets, per request.
 */
import type { Server } from '#mcp-sdk/server/index.js';
import { safeParse, type AnyObjectSchema } from '#mcp-sdk/server/zod-compat.js';
import type { CallToolResult, JSONRPCMessage, JSONRPCNotification, ServerCapabilities, Tool } from '#mcp-sdk/types.js';
import { ErrorCode, McpError } from '#mcp-sdk/types.js';
import { Cancellation } from '../../cancellation.js';
import type { KernelHooks } from '../../hooks.js';
import type { HeaderValue, Identity, RequestContext } from '../../request-context.js';
import type { Session, TransportKind } from '../../sessions.js';
import type { CallContext, ResultSink } from '../../tools.js';
import { SERVER_INFO } from '../shared/implementation.js';
import { ALL_PROTOCOL_VERSIONS, SERVER_INFO_META_KEY, type RequestEnvelope } from '../shared/modern-protocol.js';
import type { ProtocolHandler } from './endpoint.js';
import { InputRounds, type RoundChannel } from './input-rounds.js';
import { ModernTasks, type ModernTaskHost } from './modern-tasks.js';

import { StatelessChannel } from './stateless-channel.js';
import { StatelessSession } from './stateless-session.js';

/**
 * How long a modern client may keep a list (`ttlMs`, SEP-2549). The meta-tools change only
 * with a new Switchboard; prompts and resources follow the configuration and the upstreams,
 * and a modern client hears their list_changed only while it holds a subscriptions/listen stream; a resource's
 * contents are the upstream's, whose freshness is unknown.
 */
export const CACHE_TTL_MS = { discover: 300_000, metaTools: 300_000, catalogueLists: 30_000, resourceRead: 0 } as const;

/** `_meta`'s server info on every answer: made once, not per request (it is only ever serialised). */
const SERVER_INFO_VALUE = Object.freeze({ name: SERVER_INFO.name, version: SERVER_INFO.version });
const SERVER_INFO_ONLY: Readonly<Record<string, unknown>> = Object.freeze({ [SERVER_INFO_META_KEY]: SERVER_INFO_VALUE });

const CATALOGUE_LISTS = new Set(['prompts/list', 'resources/list', 'resources/templates/list']);

/** Methods 2026-07-28 removed: a legacy handler for them is not served to a modern client. */
const REMOVED_IN_MODERN = new Set(['resources/subscribe', 'resources/unsubscribe', 'logging/setLevel', 'ping', 'initialize']);

/** A finished result as a modern client gets it: `resultType`, and Switchboard's serverInfo in `_meta`. */
function completeAnswer(id: string | number, result: Record<string, unknown>): JSONRPCMessage {
  const meta = result._meta as Record<string, unknown> | null | undefined;
  return {
    jsonrpc: '2.0',
    id,
    result: { ...result, resultType: 'complete', _meta: meta == null ? SERVER_INFO_ONLY : { ...meta, [SERVER_INFO_META_KEY]: SERVER_INFO_VALUE } },
  };
}

/** Who sent a stateless request, as the transport knows them. */
export interface StatelessCaller {
  kind: TransportKind;
  identity?: Identity;
  peer?: string;
  clientAddress?: string;
  headers: Readonly<Record<string, HeaderValue>>;
}

export interface StatelessRequest {
  id: string | number;
  method: string;
  params?: Record<string, unknown>;
}

/** The answer, with the HTTP status 2026-07-28 gives it (404 for an unknown method; 200 for everything in band). */
export interface StatelessAnswer {
  status: 200 | 404;
  message: JSONRPCMessage;
}

/** What the endpoint lends the stateless server: its meta-tools, handlers and announced capabilities. */
export interface StatelessHost extends ModernTaskHost {
  readonly hooks: KernelHooks;
  capabilities(): ServerCapabilities;
  /** Whether a plugin watches resources for subscriptions/listen (then `resources.subscribe` is announced). */
  watchesResources(): boolean;
  instructions(): string | undefined;
  tools(): readonly Tool[];
  /** Runs a meta-tool as a call does on a session; throws McpError for an unknown or uncallable name. */
  callMetaTool(name: string, args: Record<string, unknown> | undefined, call: CallContext, sink?: ResultSink): Promise<CallToolResult>;
  /** The protocol handlers plugins added (resources, prompts, completion), by the SDK request schema they answer. */
  handlers(): readonly { schema: AnyObjectSchema; handle: ProtocolHandler }[];
  /** How the endpoint turns a handler's failure into a protocol error (the same for both eras). */
  protocolError(err: unknown): McpError;
}

/**
 * Per-caller state that outlives one request: a plugin's slot (the limits plugin's rate
 * bucket) is kept per person, or per client address when anonymous, so a stateless client is
 * metered as a session would be. Bounded: the oldest caller's slots go first.
 */
const MAX_CALLERS = 10_000;

export class StatelessServer {
  private readonly callerSlots = new Map<string, Map<symbol, unknown>>();
  /** Whose slots `slotsOf` last returned (a person's subject, else the client's address): the newest entry of `callerSlots`. */
  private lastCaller: { subject?: string; address?: string; slots: Map<symbol, unknown> } | undefined;
  /** Calls waiting for their client's input (multi round-trip, input-rounds.ts). */
  private readonly rounds = new InputRounds();
  /** The tasks extension (modern-tasks.ts). */
  private readonly tasks: ModernTasks;
  private modernTools: { from: readonly Tool[]; tools: Tool[] } | undefined;
  private byMethod: { from: number; handlers: Map<string, ReturnType<StatelessHost['handlers']>[number]> } | undefined;

  constructor(
    private readonly host: StatelessHost,
    /** A never-connected SDK Server standing in for `Session.server`: nothing reaches a stateless client through it. */
    private readonly detached: Server,
  ) {
    this.tasks = new ModernTasks(host);
  }

  async serve(
    request: StatelessRequest,
    envelope: RequestEnvelope,
    caller: StatelessCaller,
    stream: (n: JSONRPCNotification) => void,
    cancellation: Cancellation,
    answerNow?: (message: JSONRPCMessage) => void,
  ): Promise<StatelessAnswer> {
    const { id, method } = request;
    const params = request.params ?? {};
    try {
      let result: Record<string, unknown>;
      if (method === 'server/discover') result = this.discover(caller);
      else if (method === 'tools/list') result = { tools: this.tools(), ttlMs: CACHE_TTL_MS.metaTools, cacheScope: caller.identity ? 'private' : 'public' };
      else if (method === 'tools/call' && this.tasks.runsAsTask(params, envelope)) {
        const task = await this.tasks.start(params, taskCaller(caller), (work) => {
          // Answered with the task: the call has no response stream, only the task's cancellation and its (mute) way back.
          const call = this.context(request, envelope, caller, () => undefined, work.cancellation);
          delete call.progress;
          call.client = work.client;
          call.task = work.task;
          return this.callTool(params, call);
        });
        const answer = { ...task, resultType: 'task', _meta: SERVER_INFO_ONLY };
        return { status: 200, message: { jsonrpc: '2.0', id, result: answer } };
      } else if (method === 'tools/call') {
        const caps = envelope.clientCapabilities;
        // A client that can be asked nothing is served as before: no round, nothing parked.
        if (!caps.sampling && !caps.elicitation && !caps.roots) {
          // A relayed result may be answered the moment it arrives, in the words returned below;
          // that answer is then the one returned, not worded a second time.
          let early: JSONRPCMessage | undefined;
          const sink = answerNow && ((relayed: CallToolResult) => answerNow((early = completeAnswer(id, relayed))));
          result = await this.callTool(params, this.context(request, envelope, caller, stream, cancellation), sink);
          if (early) return { status: 200, message: early };
        } else {
          const who = caller.identity ? `sub:${caller.identity.subject}` : `addr:${caller.clientAddress ?? ''}`;
          const outcome = await this.rounds.round(params, who, stream, cancellation, (channel) =>
            this.callTool(
              params,
              this.context(request, envelope, caller, (n) => channel.notify(n), channel.cancellation, channel),
            ),
          );
          if (outcome.kind === 'input_required') {
            const { inputRequests, requestState } = outcome;
            const answer = {
              resultType: 'input_required',
              inputRequests,
              requestState,
              _meta: SERVER_INFO_ONLY,
            };
            return { status: 200, message: { jsonrpc: '2.0', id, result: answer } };
          }
          result = outcome.result;
        }
      } else if (method.startsWith('tasks/')) {
        const served = await this.tasks.serve(method, params, envelope, taskCaller(caller));
        if (!served) return { status: 404, message: { jsonrpc: '2.0', id, error: { code: ErrorCode.MethodNotFound, message: notServed(method) } } };
        result = served;
      } else {
        const h = REMOVED_IN_MODERN.has(method) ? undefined : this.handler(method);
        if (!h) return { status: 404, message: { jsonrpc: '2.0', id, error: { code: ErrorCode.MethodNotFound, message: notServed(method) } } };
        const parsed = safeParse(h.schema, { method, params });
        if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${(parsed.error as Error).message}`);
        const call = this.context(request, envelope, caller, stream, cancellation);
        try {
          if (this.host.hooks.onRequest.isUsed()) await this.host.hooks.onRequest.promise(call.request);
          result = await h.handle({ method, params }, call);
        } catch (err) {
          throw err instanceof McpError ? err : this.host.protocolError(err);
        }
        // What the caller sees depends on who they are (authorization, sign-ins) or what they asked for (a toolset).
        const personal = call.request.identity !== undefined || (call.request.view?.selectors.length ?? 0) > 0;
        if (CATALOGUE_LISTS.has(method)) result = { ttlMs: CACHE_TTL_MS.catalogueLists, cacheScope: personal ? 'private' : 'public', ...result };
        else if (method === 'resources/read') result = { ttlMs: CACHE_TTL_MS.resourceRead, cacheScope: personal ? 'private' : 'public', ...result };
      }
      return { status: 200, message: completeAnswer(id, result) };
    } catch (err) {
      const e = err instanceof McpError ? err : this.host.protocolError(err);
      const prefix = `MCP error ${e.code}: `;
      const text = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
      return { status: 200, message: { jsonrpc: '2.0', id, error: { code: e.code, message: text, ...(e.data !== undefined ? { data: e.data } : {}) } } };
    }
  }

  private discover(caller: StatelessCaller): Record<string, unknown> {
    const instructions = this.host.instructions();
    const extensions = this.tasks.extensions();
    const capabilities = modernCapabilities(this.host.capabilities(), this.host.watchesResources());
    return {
      supportedVersions: [...ALL_PROTOCOL_VERSIONS],
      capabilities: extensions ? { ...capabilities, extensions } : capabilities,
      ...(instructions ? { instructions } : {}),
      ttlMs: CACHE_TTL_MS.discover,
      cacheScope: caller.identity ? 'private' : 'public',
      _meta: { [SERVER_INFO_META_KEY]: SERVER_INFO },
    };
  }

  /**
   * The meta-tools sorted by name (deterministic whatever the plugin order), without
   * `execution`: 2026-07-28 removed it from Tool (the tasks extension leaves the choice of a
   * task to the server, per request). Worked out once per list the endpoint holds.
   */
  private tools(): Tool[] {
    const from = this.host.tools();
    if (this.modernTools?.from !== from) {
      const tools = [...from].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(({ execution: _execution, ...t }) => t);
      this.modernTools = { from, tools };
    }
    return this.modernTools.tools;
  }

  /** A plugin's handler for `method`, looked up by the schema's method literal (mapped again only when plugins added handlers). */
  private handler(method: string): ReturnType<StatelessHost['handlers']>[number] | undefined {
    const all = this.host.handlers();
    if (this.byMethod?.from !== all.length) {
      const handlers = new Map<string, (typeof all)[number]>();
      for (const h of all) {
        const literal = (h.schema as { shape?: { method?: { value?: unknown } } }).shape?.method?.value;
        if (typeof literal === 'string') handlers.set(literal, h);
      }
      this.byMethod = { from: all.length, handlers };
    }
    return this.byMethod.handlers.get(method);
  }

  private callTool(params: Record<string, unknown>, call: CallContext, sink?: ResultSink): Promise<CallToolResult> {
    if (typeof params.name !== 'string') throw new McpError(ErrorCode.InvalidParams, "Invalid params for tools/call: 'name' must be a string");
    const args = params.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
      throw new McpError(ErrorCode.InvalidParams, "Invalid params for tools/call: 'arguments' must be an object");
    return this.host.callMetaTool(params.name, args as Record<string, unknown> | undefined, call, sink);
  }

  /**
   * One request's session and call context: a session object that lives as long as the
   * request, in no registry. The request context takes the same properties in the same
   * order as a session's call (Endpoint.callContext), so the taps and handlers both eras
   * run see one object shape.
   */
  private context(
    request: StatelessRequest,
    envelope: RequestEnvelope,
    caller: StatelessCaller,
    stream: (n: JSONRPCNotification) => void,
    cancellation: Cancellation,
    asker?: RoundChannel,
  ): CallContext {
    const session = this.sessionFor(caller, envelope);
    let context: RequestContext;
    if (request.method === 'tools/call') {
      const params = request.params ?? {};
      const args = (params.arguments as Record<string, unknown> | undefined) ?? {};
      context =
        typeof params.name === 'string'
          ? { session, headers: caller.headers, metaTool: params.name, arguments: args, slots: new Map() }
          : { session, headers: caller.headers, arguments: args, slots: new Map() };
    } else context = { session, headers: caller.headers, slots: new Map() };
    if (caller.identity) context.identity = caller.identity;
    const call: CallContext = { request: context, cancellation, depth: 0, client: new StatelessChannel(envelope, stream, asker) };
    const token = envelope.progressToken;
    if (token !== undefined) {
      call.progress = async (progress, total, message) => {
        if (cancellation.aborted) return;
        stream({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
        });
      };
    }
    return call;
  }

  /** A session object for one request (or one listen, listens.ts): in no registry, connected to nothing; its id, date and subscriptions made when read (stateless-session.ts). */
  sessionFor(caller: StatelessCaller, envelope: RequestEnvelope): Session {
    return new StatelessSession(caller.kind, this.detached, this.slotsOf(caller), caller.identity, caller.peer, caller.clientAddress, envelope.clientInfo);
  }

  private slotsOf(caller: StatelessCaller): Map<symbol, unknown> {
    const identity = caller.identity;
    const address = caller.clientAddress;
    if (!identity && !address) return new Map();
    // The same caller as the previous request (one client's calls in a row, the usual case):
    // its slots are already the most recent entry, so there is no key to build and nothing to move.
    const last = this.lastCaller;
    if (last && (identity ? last.subject === identity.subject : last.subject === undefined && last.address === address)) return last.slots;
    const key = identity ? `sub:${identity.subject}` : `addr:${address!}`;
    let slots = this.callerSlots.get(key);
    if (slots) {
      // Most recently seen last, so the oldest is the first key when the map is full.
      this.callerSlots.delete(key);
    } else {
      slots = new Map();
      if (this.callerSlots.size >= MAX_CALLERS) this.callerSlots.delete(this.callerSlots.keys().next().value!);
    }
    this.callerSlots.set(key, slots);
    this.lastCaller = identity ? { subject: identity.subject, slots } : { address, slots };
    return slots;
  }
}

/**
 * What a modern client is told the endpoint does: no `tasks` (the extension is announced
 * under `extensions` instead, modern-tasks.ts); `listChanged` as for legacy sessions (served
 * on subscriptions/listen, listens.ts); `subscribe` only when `watchesResources` (a plugin
 * watches resources for listens).
 */
export function modernCapabilities(legacy: ServerCapabilities, watchesResources: boolean): ServerCapabilities {
  const { tasks: _tasks, ...rest } = legacy;
  const caps: ServerCapabilities = { ...rest };
  if (caps.resources && !watchesResources) {
    const { subscribe: _subscribe, ...resources } = caps.resources;
    caps.resources = resources;
  }
  return caps;
}

/** Whose the caller's tasks are: the person, else the client's address (modern-tasks.ts). */
function taskCaller(caller: StatelessCaller): { identity?: Identity; clientAddress?: string } {
  const address = caller.clientAddress ?? caller.peer;
  return { ...(caller.identity ? { identity: caller.identity } : {}), ...(address ? { clientAddress: address } : {}) };
}

function notServed(method: string): string {
  if (method === 'initialize')
    return "Method not found: 'initialize' is not part of MCP 2026-07-28 (send requests with their _meta directly, or initialize without it for 2025-11-25)";
  if (REMOVED_IN_MODERN.has(method)) return `Method not found: '${method}' was removed in MCP 2026-07-28`;
  return `Method not found: '${method}' is not served to MCP 2026-07-28 requests`;
}
