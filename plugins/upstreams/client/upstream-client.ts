/**
 * One connected upstream: the SDK Client on its transport, with the message router, the
 * direct tools/call path and the relay to calling clients wired in once. The requests
 * Switchboard makes of a server go through here; what the server answers is scrubbed of known
 * secrets as it comes in (tool results excepted: kernel/invoke.ts scrubs those for every kind
 * of tool), and a failure comes out as the caller reads it (CallFailures).
 */
import { Client } from '#mcp-sdk/client/index.js';
import type { Transport } from '#mcp-sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type RequestId,
} from '#mcp-sdk/types.js';
import {
  nextRequestId,
  PASSTHROUGH,
  SERVER_INFO,
  TimeoutError,
  type CallContext,
  type JsonObject,
  type Logger,
  type ResultSink,
  type SecretsApi,
  type SwitchboardError,
} from '../../../kernel/index.js';
import type { ListSource } from '../lists.js';
import { TOOLS_PAGE } from '../tool-list.js';
import type { ClientRelay } from './client-relay.js';
import { UPSTREAM_CLIENT_CAPABILITIES } from './era-probe.js';
import { DirectCalls, type EarlyResult } from './direct-calls.js';
import { OutputValidatorOnFirstSchema } from './output-validator.js';
import { routeMessages } from './message-router.js';
import type { ResyncingTransport, SessionWatcher, UpstreamSession } from './upstream-session.js';
import { runUpstreamTask } from './upstream-task.js';

export interface CallFailures {
  /** A failed tools/call as the caller reads it (a sign-in or step-up challenge included). */
  call(what: string, err: unknown): SwitchboardError;
  /** Any other failed request. */
  request(what: string, err: unknown): SwitchboardError;
}

/** The SDK Client, connected to `transport` within `timeoutMs`; on failure (`failed`) it is returned too, to be closed. */
export async function handshake(
  transport: Transport,
  timeoutMs: number,
  server: string,
): Promise<{ client: Client; failed: false; protocolVersion: string | undefined } | { client: Client; failed: true; error: unknown }> {
  // Declared on the shared connection; each request is relayed only to a calling client that has the capability.
  const client = new Client(
    { name: SERVER_INFO.name, version: SERVER_INFO.version },
    { capabilities: UPSTREAM_CLIENT_CAPABILITIES, jsonSchemaValidator: new OutputValidatorOnFirstSchema() },
  );
  let timer: NodeJS.Timeout | undefined;
  // The transport's own failure (refused, reset, a TLS error) comes before the SDK's generic
  // "Connection closed" that fails the pending initialize: that is the one worth reporting.
  let transportError: Error | undefined;
  client.onerror = (err) => (transportError ??= err);
  // The SDK hands the agreed version to the transport and keeps its own copy private: heard here.
  let agreed: string | undefined;
  const setVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version) => {
    agreed = version;
    setVersion?.(version);
  };
  try {
    await Promise.race([
      client.connect(transport, { timeout: timeoutMs }),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError(`connecting to '${server}'`, timeoutMs)), timeoutMs);
      }),
    ]);
    return { client, failed: false, protocolVersion: agreed };
  } catch (error) {
    const closed = error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number);
    return { client, failed: true, error: closed && transportError ? transportError : error };
  } finally {
    clearTimeout(timer);
    client.onerror = undefined;
  }
}

/** A 2025-11-25 (or earlier) server, through the v1 SDK client. */
export class UpstreamClient implements UpstreamSession {
  readonly era = 'legacy';
  readonly lists: ListSource;
  /** tools/call without the SDK's request machinery (direct-calls.ts). */
  private readonly direct: DirectCalls;
  /** Aborted when the transport closes: calls following an upstream task fail at once rather than at their next poll. */
  private readonly lost = new AbortController();

  /** Call once `client` is connected to `transport` (handshake). */
  constructor(
    readonly client: Client,
    readonly transport: Transport,
    private readonly relay: ClientRelay,
    private readonly secrets: SecretsApi,
    private readonly failures: CallFailures,
    private readonly log: Logger,
    readonly protocolVersion: string | undefined,
  ) {
    this.direct = new DirectCalls(transport);
    routeMessages(client, transport, this.direct, relay, () => this.lost.abort());
    const page = (cursor: string | undefined) => (cursor ? { cursor } : {});
    this.lists = {
      capabilities: () => client.getServerCapabilities() ?? {},
      toolsPage: (cursor) => client.request({ method: 'tools/list', params: page(cursor) }, TOOLS_PAGE),
      resourcesPage: (cursor) => client.listResources(page(cursor)),
      templatesPage: (cursor) => client.listResourceTemplates(page(cursor)),
      promptsPage: (cursor) => client.listPrompts(page(cursor)),
    };
  }

  watch(watcher: SessionWatcher): void {
    const client = this.client;
    client.onclose = () => watcher.closed();
    client.onerror = (err) => watcher.error(err);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => watcher.changed('tool'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => watcher.changed('resource'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => watcher.changed('prompt'));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => watcher.resourceUpdated(n.params.uri));
    (this.transport as Transport & ResyncingTransport).onresync = () => watcher.missed();
  }

  /** The server declared it runs tools/call as tasks (2025-11-25 `capabilities.tasks.requests.tools.call`). */
  runsToolTasks(): boolean {
    return this.client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
  }

  /**
   * Runs one tool as a task of the server (upstream-task.ts), for a tool that says it may or
   * must run as one. A server that did not declare task support gets a plain call: the
   * protocol forbids asking it for a task whatever its tools say.
   */
  async callToolTask(name: string, args: JsonObject, call: CallContext, timeoutMs: number): Promise<CallToolResult> {
    if (!this.runsToolTasks()) return this.callTool(name, args, call, timeoutMs);
    try {
      const deps = {
        client: this.client,
        server: this.relay.server,
        relay: this.relay,
        lost: this.lost.signal,
        scrub: this.secrets.scrubText.bind(this.secrets),
        log: this.log,
      };
      return await runUpstreamTask(deps, name, args, call, timeoutMs);
    } catch (err) {
      throw this.failures.call(`tool '${name}'`, err);
    }
  }

  /** Runs one tool for `call`, whose client gets what the server asks or logs meanwhile. Hot path: no work that could be done earlier. */
  async callTool(name: string, args: JsonObject, call: CallContext, timeoutMs: number, sink?: ResultSink): Promise<CallToolResult> {
    try {
      if (call.progress) return await this.callWithProgress(name, args, call, call.progress, timeoutMs);
      const id = this.direct.nextId();
      this.relay.track(id, call);
      try {
        // A legacy result is relayed as it comes: the sink gets the very result returned here.
        return await this.direct.call(id, { name, arguments: args }, call.cancellation, timeoutMs, undefined, sink as EarlyResult | undefined);
      } finally {
        this.relay.untrack(id);
      }
    } catch (err) {
      throw this.relay.urlRequired(err, call) ?? this.failures.call(`tool '${name}'`, err);
    }
  }

  /** A call whose caller wants progress: the SDK's request path, which forwards it and resets the timeout on each. */
  private async callWithProgress(
    name: string,
    args: JsonObject,
    call: CallContext,
    forward: NonNullable<CallContext['progress']>,
    timeoutMs: number,
  ): Promise<CallToolResult> {
    const params = { method: 'tools/call' as const, params: { name, arguments: args } };
    // request() sends under this id; unknown (the SDK changed), the call is still in flight for the relay's rule 2.
    const id: RequestId | symbol = nextRequestId(this.client) ?? Symbol('tools/call');
    // Progress must reach the client before the result does: chain the sends, await the chain.
    let sent: Promise<void> = Promise.resolve();
    this.relay.track(id, call);
    let result: CallToolResult;
    try {
      result = (await this.client.request(params, PASSTHROUGH, {
        signal: call.cancellation.signal,
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: (p) => {
          const message = p.message === undefined ? undefined : this.secrets.scrubText(p.message);
          sent = sent.then(() => forward(p.progress, p.total, message)).catch(() => undefined);
        },
      })) as CallToolResult;
    } finally {
      this.relay.untrack(id);
    }
    await sent;
    return result;
  }

  async readResource(uri: string): Promise<Record<string, unknown>> {
    try {
      // Both ways a client reads one (resources/read, get_resource) come through here.
      return this.secrets.scrubValue(await this.client.readResource({ uri }));
    } catch (err) {
      throw this.failures.request(`resource '${uri}'`, err);
    }
  }

  async subscribe(uri: string, on: boolean): Promise<void> {
    try {
      await (on ? this.client.subscribeResource({ uri }) : this.client.unsubscribeResource({ uri }));
    } catch (err) {
      throw this.failures.request(`${on ? 'subscribe to' : 'unsubscribe from'} '${uri}'`, err);
    }
  }

  async complete(params: Record<string, unknown>): Promise<Record<string, unknown>> {
    try {
      return this.secrets.scrubValue(await this.client.request({ method: 'completion/complete', params }, PASSTHROUGH));
    } catch (err) {
      throw this.failures.request('completion', err);
    }
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<Record<string, unknown>> {
    try {
      return this.secrets.scrubValue(await this.client.getPrompt({ name, arguments: args }));
    } catch (err) {
      throw this.failures.request(`prompt '${name}'`, err);
    }
  }

  async answersWithin(ms: number): Promise<boolean> {
    try {
      await this.client.ping({ timeout: ms });
      return true;
    } catch (err) {
      return !(err instanceof McpError && err.code === (ErrorCode.RequestTimeout as number));
    }
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }
}
