/**
 * A 2026-07-28 upstream, through the v2 SDK client (`@modelcontextprotocol/client`): no
 * initialize and no session; the client adopts the server/discover answer era-probe.ts got
 * (no second round trip) and puts the `_meta` envelope (version, Switchboard's client info
 * and capabilities) on every request. Per call the envelope names the calling client's own
 * capabilities, so the upstream asks (input_required) only for what that client can answer.
 *
 * Multi round-trip (`input_required`, the 2026-07-28 replacement of server-to-client
 * requests): each embedded request is asked of the calling client through its session as a
 * legacy upstream's request would be (ClientRelay.ask: same admission, rate and scrubbing),
 * and the call retried with `inputResponses` and the upstream's `requestState` echoed byte
 * for byte, at most MAX_ROUNDS times.
 *
 * Log messages: a 2026-07-28 server logs during a request only at the level its `_meta` names,
 * so each call names the caller's own (a legacy session's setLevel, a modern request's
 * `_meta` level; none when the caller hears none), and what the server logs goes to that
 * caller as a legacy upstream's log lines do (modern-call-routes.ts).
 *
 * List changes reach Switchboard on a subscriptions/listen stream opened at connect for what
 * the server declares `listChanged`; when the server ends that stream the connection is made
 * again (lists re-read). A server that announces no tools `listChanged` has its lists read
 * again once its tools/list `ttlMs` has passed (RELIST_MS, connection.ts). Lists are read page by page with explicit cursors, which the v2
 * client never serves from its cache: Switchboard's catalogue is the one copy, refreshed on
 * each change.
 *
 * Resource subscriptions: 2026-07-28 has no resources/subscribe; the URIs watched are named
 * on one subscriptions/listen of Switchboard's own, replaced when the set changes
 * (modern-resource-listen.ts), and its `notifications/resources/updated` reach the sessions
 * and listens watching them as a legacy upstream's do.
 */
import { Client as ModernClient, type McpSubscription } from '@modelcontextprotocol/client';
import type { Transport } from '#mcp-sdk/shared/transport.js';
import type { CallToolResult } from '#mcp-sdk/types.js';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO,
  type CallContext,
  type JsonObject,
  type Logger,
  type ResultSink,
  type SecretsApi,
} from '../../../kernel/index.js';
import type { ListSource } from '../lists.js';
import type { ClientRelay, RelatingTransport } from './client-relay.js';
import { UPSTREAM_CLIENT_CAPABILITIES, type DiscoverResult } from './era-probe.js';
import type { SessionWatcher, UpstreamSession } from './upstream-session.js';
import type { CallFailures } from './upstream-client.js';
import { CALL_TAG, ModernCallRoutes } from './modern-call-routes.js';
import { ModernResourceListen } from './modern-resource-listen.js';
import { DirectCalls, type EarlyResult } from './direct-calls.js';
import { earlyComplete, outcome, RELAYED_RESULT, withoutEnvelope } from './modern-results.js';
import { paramHeaders, paramHeadersOf, type ParamHeader } from './param-headers.js';

/** Rounds of input_required one call may take before it is refused as a loop. */
export const MAX_ROUNDS = 8;

/**
 * How often the lists of a server without `listChanged` are read again: its tools/list
 * `ttlMs`, held between these (a `ttlMs` of 0, "stale at once", or none reads every minute:
 * there is no other way to learn of a change).
 */
export const RELIST_MS = { floor: 2_000, unknown: 60_000, ceiling: 86_400_000 } as const;

type Raw = Record<string, unknown>;

/** One round of a tools/call: its params (without `_meta`) out, its result back. */
type RoundTrip = (params: Raw) => Promise<Raw>;

/** Connects the v2 client on a transport era-probe.ts found modern; rejects as a failed handshake would. */
export async function connectModern(
  transport: Transport & RelatingTransport,
  version: string,
  discover: DiscoverResult,
  timeoutMs: number,
  deps: { relay: ClientRelay; secrets: SecretsApi; failures: CallFailures; log: Logger },
): Promise<ModernUpstream> {
  const hears: { watcher?: SessionWatcher } = {};
  const changed = (what: string) => () => void hears.watcher?.changed(what);
  const client = new ModernClient(
    { name: SERVER_INFO.name, version: SERVER_INFO.version },
    {
      capabilities: UPSTREAM_CLIENT_CAPABILITIES,
      // Input is asked of the calling client per call (below), never by a handler of this shared client.
      inputRequired: { autoFulfill: false },
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 0, onChanged: changed('tool') },
        prompts: { autoRefresh: false, debounceMs: 0, onChanged: changed('prompt') },
        resources: { autoRefresh: false, debounceMs: 0, onChanged: changed('resource') },
      },
    },
  );
  transport.setProtocolVersion?.(version);
  // Our transports implement the v1 Transport, which the v2 one extends only with optional members.
  await client.connect(transport, { prior: { kind: 'modern', discover }, timeout: timeoutMs });
  const directCalls = new DirectCalls(transport);
  const routes = new ModernCallRoutes(transport, deps.relay, directCalls);
  // Adopting a prior discover registers the list handlers but opens no stream: opened here, for what the server says it announces.
  const caps = discover.capabilities as { [K in 'tools' | 'prompts' | 'resources']?: { listChanged?: boolean } };
  const filter = {
    ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
    ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
  };
  let subscription: McpSubscription | undefined;
  if (Object.keys(filter).length > 0) {
    try {
      subscription = await client.listen(filter, { timeout: timeoutMs });
    } catch (err) {
      // A proxy that buffers answers, or a server whose stream is broken, must not cost its tools:
      // its lists are then read again on a schedule (relistAfterMs), as if it announced no changes.
      const why = deps.secrets.scrubText((err as Error).message);
      deps.log.warn(
        `its list changes cannot be heard (subscriptions/listen: ${why}); its lists are read again at least every ${RELIST_MS.unknown / 1000} s instead`,
      );
    }
  }
  const resources = new ModernResourceListen(client, timeoutMs, () => void hears.watcher?.closed());
  return new ModernUpstream(
    client,
    transport,
    version,
    hears,
    { relay: deps.relay, routes, resources, directCalls },
    deps.secrets,
    deps.failures,
    subscription,
  );
}

export class ModernUpstream implements UpstreamSession {
  readonly era = 'modern';
  readonly lists: ListSource;
  /** The `ttlMs` of the last tools/list's first page. */
  private toolsTtlMs: number | undefined;
  private readonly relay: ClientRelay;
  /** Where what the server logs during a call goes (modern-call-routes.ts). */
  private readonly routes: ModernCallRoutes;
  /** The URIs watched, on one listen (modern-resource-listen.ts). */
  private readonly resources: ModernResourceListen;
  /** The tools whose arguments travel in headers too (param-headers.ts), read from each tools/list. */
  private readonly headerParams = new Map<string, ParamHeader[]>();
  /** tools/call without the v2 client's request machinery (direct-calls.ts). */
  private readonly directCalls: DirectCalls;
  /** What every request's `_meta` names besides the caller's capabilities and log level, as the v2 client would. */
  private readonly envelope: Readonly<Raw>;

  constructor(
    readonly client: ModernClient,
    readonly transport: Transport,
    readonly protocolVersion: string,
    private readonly hears: { watcher?: SessionWatcher },
    parts: { relay: ClientRelay; routes: ModernCallRoutes; resources: ModernResourceListen; directCalls: DirectCalls },
    private readonly secrets: SecretsApi,
    private readonly failures: CallFailures,
    /** The subscriptions/listen stream list changes come on, when the server announces any. */
    private readonly subscription?: McpSubscription,
  ) {
    ({ relay: this.relay, routes: this.routes, resources: this.resources, directCalls: this.directCalls } = parts);
    this.envelope = {
      [PROTOCOL_VERSION_META_KEY]: protocolVersion,
      [CLIENT_INFO_META_KEY]: { name: SERVER_INFO.name, version: SERVER_INFO.version },
      [CLIENT_CAPABILITIES_META_KEY]: UPSTREAM_CLIENT_CAPABILITIES,
    };
    const page = (cursor: string | undefined) => (cursor ? { cursor } : {});
    // An explicit cursor fetches the server's own page, uncached: Switchboard keeps the lists itself.
    this.lists = {
      capabilities: () => client.getServerCapabilities() ?? {},
      toolsPage: async (cursor) => {
        const result = await client.request({ method: 'tools/list', params: page(cursor) });
        if (cursor === undefined) {
          this.toolsTtlMs = typeof result.ttlMs === 'number' ? result.ttlMs : undefined;
          this.headerParams.clear();
        }
        for (const tool of result.tools) {
          const marked = paramHeadersOf(tool.inputSchema);
          if (marked.length > 0) this.headerParams.set(tool.name, marked);
        }
        return result;
      },
      resourcesPage: (cursor) => client.request({ method: 'resources/list', params: page(cursor) }),
      templatesPage: (cursor) => client.request({ method: 'resources/templates/list', params: page(cursor) }),
      promptsPage: (cursor) => client.request({ method: 'prompts/list', params: page(cursor) }),
    };
  }

  watch(watcher: SessionWatcher): void {
    // The client's close, the list listen's end and the resource listen's loss may all come of one
    // server going away: the connection hears of it once.
    let ended = false;
    const closed = () => {
      if (ended) return;
      ended = true;
      watcher.closed();
    };
    this.hears.watcher = {
      closed,
      error: (err) => watcher.error(err),
      changed: (what) => watcher.changed(what),
      missed: () => watcher.missed(),
      resourceUpdated: (uri) => watcher.resourceUpdated(uri),
    };
    this.client.onclose = closed;
    this.client.onerror = (err) => watcher.error(err);
    // On the resource listen (subscribe, below); the handler is the same whichever listen carries it.
    this.client.setNotificationHandler('notifications/resources/updated', (n) => watcher.resourceUpdated(n.params.uri));
    // A stream the server ended (restarted, shut down) would leave the lists stale for good: connect again and re-read them.
    void this.subscription?.closed.then((how) => {
      if (how !== 'local') closed();
    });
  }

  relistAfterMs(): number | undefined {
    const announces = this.client.getServerCapabilities()?.tools?.listChanged === true;
    if (announces && this.subscription) return undefined;
    const ttl = this.toolsTtlMs !== undefined && this.toolsTtlMs > 0 ? this.toolsTtlMs : RELIST_MS.unknown;
    // A server that announces changes may keep its lists long; unheard, they are read at least every minute.
    return Math.min(Math.max(ttl, RELIST_MS.floor), announces ? RELIST_MS.unknown : RELIST_MS.ceiling);
  }

  /** Tasks are the `io.modelcontextprotocol/tasks` extension in 2026-07-28: not followed yet, so every call is plain. */
  runsToolTasks(): boolean {
    return false;
  }

  callToolTask(name: string, args: JsonObject, call: CallContext, timeoutMs: number): Promise<CallToolResult> {
    return this.callTool(name, args, call, timeoutMs);
  }

  /**
   * The request carries the caller's own capabilities and log level (a 2026-07-28 server logs
   * only when its request names a level). Without progress to forward it goes out directly
   * (direct-calls.ts: the answer taken by its id before the v2 client sees it, its log lines
   * routed by that id); with progress, through the v2 client, which forwards it and resets the
   * timeout on each, tagged so what the server logs still finds the caller (modern-call-routes.ts).
   */
  async callTool(name: string, args: JsonObject, call: CallContext, timeoutMs: number, sink?: ResultSink): Promise<CallToolResult> {
    const level = call.client?.logLevel?.();
    const meta: Raw = {
      ...this.envelope,
      [CLIENT_CAPABILITIES_META_KEY]: call.client?.capabilities() ?? {},
      ...(level ? { [LOG_LEVEL_META_KEY]: level } : {}),
    };
    const marked = this.headerParams.get(name);
    const headers = marked && paramHeaders(marked, args);
    const route = call.progress ? this.routes.open(call) : undefined;
    const send: RoundTrip = route
      ? (params) => this.throughClient({ ...params, _meta: { ...meta, [CALL_TAG]: route.tag } }, call, timeoutMs, headers)
      : (params) => this.direct(params, call, timeoutMs, headers, meta, sink && earlyComplete(sink));
    try {
      let params: Raw = { name, arguments: args };
      for (let round = 0; ; round++) {
        const result = await send(params);
        if (result.resultType !== 'input_required') return withoutEnvelope(result) as CallToolResult;
        if (round + 1 >= MAX_ROUNDS)
          throw new Error(`'${this.relay.server}' asked for input ${MAX_ROUNDS} times in one call; Switchboard stopped the call there`);
        const inputResponses = await this.answer(result.inputRequests, call);
        params = { name, arguments: args, inputResponses, ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}) };
      }
    } catch (err) {
      throw this.failures.call(`tool '${name}'`, err);
    } finally {
      route?.done();
    }
  }

  /** One round of a call on the direct path; the id it goes under is the caller's while it runs. */
  private async direct(
    params: Raw,
    call: CallContext,
    timeoutMs: number,
    headers: Record<string, string> | undefined,
    meta: Raw,
    early: EarlyResult | undefined,
  ): Promise<Raw> {
    const id = this.directCalls.nextId();
    this.relay.track(id, call);
    try {
      const modern = { headers, envelope: this.envelope };
      return outcome(await this.directCalls.call(id, { ...params, _meta: meta }, call.cancellation, timeoutMs, modern, early));
    } finally {
      this.relay.untrack(id);
    }
  }

  /** One round of a call whose caller wants progress, through the v2 client. */
  private throughClient(params: Raw, call: CallContext, timeoutMs: number, headers: Record<string, string> | undefined): Promise<Raw> {
    return this.client.request({ method: 'tools/call', params }, RELAYED_RESULT, {
      signal: call.cancellation.signal,
      timeout: timeoutMs,
      allowInputRequired: true,
      ...(headers ? { headers } : {}),
      resetTimeoutOnProgress: true,
      onprogress: (p: { progress: number; total?: number; message?: string }) =>
        void call.progress?.(p.progress, p.total, p.message === undefined ? undefined : this.secrets.scrubText(p.message)).catch(() => undefined),
    });
  }

  /** Each embedded request asked of the calling client, in parallel; the answers keyed as the server keyed the requests. */
  private async answer(requests: unknown, call: CallContext): Promise<Raw> {
    if (typeof requests !== 'object' || requests === null) return {};
    const entries = Object.entries(requests as Record<string, { method?: unknown; params?: unknown }>);
    const answers = await Promise.all(
      entries.map(async ([key, r]) => {
        const method = typeof r.method === 'string' ? r.method : '';
        return [key, await this.relay.ask(call, method, r.params as Raw | undefined)] as const;
      }),
    );
    return Object.fromEntries(answers);
  }

  async readResource(uri: string): Promise<Raw> {
    try {
      return this.secrets.scrubValue(withoutEnvelope(await this.client.readResource({ uri }, { cacheMode: 'bypass' })));
    } catch (err) {
      throw this.failures.request(`resource '${uri}'`, err);
    }
  }

  /** 2026-07-28 has no resources/subscribe: the URI is named on Switchboard's resource listen to the server instead. */
  async subscribe(uri: string, on: boolean): Promise<void> {
    const what = `${on ? 'subscribe to' : 'unsubscribe from'} '${uri}'`;
    try {
      if (on && this.client.getServerCapabilities()?.resources?.subscribe !== true)
        throw new Error('the server does not announce resource subscriptions (capabilities.resources.subscribe)');
      await this.resources.set(uri, on);
    } catch (err) {
      throw this.failures.request(what, err);
    }
  }

  async complete(params: Raw): Promise<Raw> {
    try {
      return this.secrets.scrubValue(withoutEnvelope(await this.client.complete(params as never)));
    } catch (err) {
      throw this.failures.request('completion', err);
    }
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<Raw> {
    try {
      return this.secrets.scrubValue(withoutEnvelope(await this.client.getPrompt({ name, arguments: args })));
    } catch (err) {
      throw this.failures.request(`prompt '${name}'`, err);
    }
  }

  async close(): Promise<void> {
    await this.resources.close();
    await this.subscription?.close().catch(() => undefined);
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }
}
