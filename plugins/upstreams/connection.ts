/**
 * One upstream MCP server: its connection, its lifecycle state and what it serves.
 * One connection serves every client session. A drop (crash, network) moves it to
 * `failed` and schedules a reconnect on the backoff; `stop` is the only way to stay down.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServiceHealth, ServiceState, ServiceStatus } from '../../kernel/contracts/lifecycle.js';
import type { McpServerDefinition } from '../../kernel/config/settings.js';
import { TimeoutError, type ServerUnavailableError, type SwitchboardError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/log.js';
import { SERVER_INFO } from '../../kernel/mcp/endpoint.js';
import { PASSTHROUGH } from '../../kernel/mcp/passthrough.js';
import { dispatchByShape } from '../../kernel/mcp/dispatch.js';
import { DirectCalls } from './direct-calls.js';
import type { CallContext, JsonObject } from '../../kernel/tools.js';
import { commandLine } from '../../kernel/config/command-line.js';
import { redactUrl } from '../../kernel/secrets/redact.js';
import type { SecretScrubber } from '../../kernel/secrets/scrubber.js';
import { resolvedSecrets } from './resolved-secrets.js';
import { ClientRelay } from './client-relay.js';
import { listToolsPage } from './tool-list.js';
import { checkToolPage, ToolListLimitError, type ToolListLimits } from './tool-limits.js';
import { backoffDelayMs } from './backoff.js';
import { mapUpstreamError } from './call-errors.js';
import { ChildProcessTransport } from './child-process-transport.js';
import { HttpStatusError, type BearerSource } from './http-client-transport.js';
import { remoteTransport } from './remote-transport.js';
import type { OutboundPolicy } from '../../lib/net/outbound-policy.js';

/** After this many failed attempts in a row a remote server is reported unreachable. */
const UNREACHABLE_AFTER = 3;

/** The WWW-Authenticate challenge ('' when none) of a 401 answer, or undefined for any other failure. */
function signInChallenge(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e instanceof HttpStatusError && e.status === 401) return e.wwwAuthenticate ?? '';
    // The SDK's SSE transport reports the status as `code`.
    if (e.constructor?.name === 'SseError' && (e as { code?: unknown }).code === 401) return '';
  }
  return undefined;
}

/** The WWW-Authenticate challenge of a 403 insufficient_scope answer (a step-up), or undefined. */
function scopeChallenge(err: unknown): string | undefined {
  for (let e = err as { cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e instanceof HttpStatusError && e.status === 403 && /insufficient_scope/.test(`${e.wwwAuthenticate ?? ''} ${e.body}`)) return e.wwwAuthenticate ?? '';
  }
  return undefined;
}

export interface ConnectionEvents {
  onContentChange(conn: UpstreamConnection): void;
  onStateChange(conn: UpstreamConnection, previous: ServiceState): void;
  /** A value resolved for env or headers that must never appear in a log or result. */
  onSecret(value: string): void;
  /**
   * The known secrets. Everything this server says on its own initiative passes through
   * them as it comes in (errors, tool lists, resources, prompts, completions, log and
   * progress notifications): one choke point for upstream ingress. Tool results are the
   * exception, scrubbed once by kernel/invoke.ts for every kind of tool.
   */
  readonly secrets: SecretScrubber;
  /** A resource this server was asked to watch changed (resources/subscribe). */
  onResourceUpdated(conn: UpstreamConnection, uri: string): void;
  /** The outbound policy of the current settings (for servers whose URL a caller chose). */
  outbound(): OutboundPolicy;
  /** The error a call gets while this server is not running (it names the call that starts it). */
  unavailable(conn: UpstreamConnection): ServerUnavailableError;
  /** The limits a tool list is held to, as configured now. */
  toolLimits(): ToolListLimits;
  /** A signed-in connection's server refused its credentials during a call: the error the caller gets. */
  unauthorized?(conn: UpstreamConnection): SwitchboardError;
  /** A signed-in connection's server wants more scope for a call (403 insufficient_scope): the error the caller gets. */
  insufficientScope?(conn: UpstreamConnection, challenge: string): SwitchboardError;
}

export class UpstreamConnection {
  state: ServiceState = 'stopped';
  health: ServiceHealth = 'unknown';
  error: string | undefined;
  /** The WWW-Authenticate challenge of the 401 that put this server in auth_required. */
  challenge: string | undefined;
  nextRetryAt: Date | undefined;
  lastRestartedAt: string | undefined;
  tools: Tool[] = [];
  resources: Resource[] = [];
  resourceTemplates: ResourceTemplate[] = [];
  prompts: Prompt[] = [];
  private client: Client | undefined;
  private transport: Transport | undefined;
  /** tools/call without the SDK's request machinery (direct-calls.ts); set while connected. */
  private direct: DirectCalls | undefined;
  private wanted = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Bumped on every start/stop so late callbacks of an old connection are ignored. */
  private epoch = 0;
  /** Sampling, elicitation, roots and log messages during a call go to the calling client. */
  private readonly relay: ClientRelay;

  constructor(
    public def: McpServerDefinition,
    private readonly configPath: string,
    private readonly log: Logger,
    private readonly events: ConnectionEvents,
    /** Set for a connection made with one owner's grant (sign-in-gate.ts). */
    private readonly bearer?: BearerSource,
  ) {
    this.relay = new ClientRelay(def.name, log, events.secrets);
  }

  get name(): string {
    return this.def.name;
  }

  /** The pid of a stdio server's process while it runs. */
  get pid(): number | undefined {
    return this.transport instanceof ChildProcessTransport ? this.transport.pid : undefined;
  }

  status(): ServiceStatus {
    const s: ServiceStatus = {
      name: this.name,
      service_type: 'MCPServer',
      state: this.state,
      health: this.health,
      metadata: {
        type: this.def.type,
        autoStart: this.def.autoStart,
        suspended: this.def.suspended,
        tools: this.state === 'running' ? this.tools.length : 0,
        ...(this.def.command ? { command: commandLine(this.def) } : {}),
        ...(this.def.url ? { url: redactUrl(this.def.url) } : {}),
        ...(this.pid !== undefined ? { pid: this.pid } : {}),
      },
    };
    if (this.error) s.error = this.error;
    if (this.nextRetryAt) s.nextRetryAfter = this.nextRetryAt.toISOString();
    if (this.lastRestartedAt) s.lastRestartedAt = this.lastRestartedAt;
    return s;
  }

  async start(): Promise<void> {
    this.wanted = true;
    if (this.state === 'running' || this.state === 'starting') return;
    this.failures = 0;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.wanted = false;
    this.epoch++;
    this.clearRetry();
    if (this.state === 'stopped') return;
    this.setState('stopping');
    await this.disconnect();
    this.error = undefined;
    this.health = 'unknown';
    this.setState('stopped');
  }

  async restart(): Promise<void> {
    await this.stop();
    this.lastRestartedAt = new Date().toISOString();
    await this.start();
  }

  /** Runs one tool on this server. Hot path: no work that could be done earlier. */
  async callTool(originalName: string, args: JsonObject, call: CallContext): Promise<CallToolResult> {
    const client = this.client;
    const direct = this.direct;
    if (!client || !direct || this.state !== 'running') {
      throw this.events.unavailable(this);
    }
    const timeout = this.def.callTimeout * 1000;
    try {
      if (!call.progress) return await this.relay.around(call, () => direct.call(originalName, args, call.cancellation, timeout));
      const params = { method: 'tools/call' as const, params: { name: originalName, arguments: args } };
      // Progress must reach the client before the result does: chain the sends, await the chain.
      const forward = call.progress;
      let sent: Promise<void> = Promise.resolve();
      const result = (await this.relay.around(call, () =>
        client.request(params, PASSTHROUGH, {
          signal: call.cancellation.signal,
          timeout,
          resetTimeoutOnProgress: true,
          onprogress: (p) => {
            const message = p.message === undefined ? undefined : this.events.secrets.scrubText(p.message);
            sent = sent.then(() => forward(p.progress, p.total, message)).catch(() => undefined);
          },
        }),
      )) as CallToolResult;
      await sent;
      return result;
    } catch (err) {
      if (this.bearer && this.events.unauthorized && signInChallenge(err) !== undefined) throw this.events.unauthorized(this);
      const more = this.bearer ? scopeChallenge(err) : undefined;
      if (more !== undefined && this.events.insufficientScope) throw this.events.insufficientScope(this, more);
      throw this.mapped(`tool '${originalName}'`, err);
    }
  }

  async readResource(uri: string): Promise<Record<string, unknown>> {
    const client = this.requireClient();
    try {
      // Both ways a client reads one (resources/read, get_resource) come through here.
      return this.events.secrets.scrubValue((await client.readResource({ uri })) as Record<string, unknown>);
    } catch (err) {
      throw this.mapped(`resource '${uri}'`, err);
    }
  }

  async subscribe(uri: string, on: boolean): Promise<void> {
    const client = this.requireClient();
    try {
      await (on ? client.subscribeResource({ uri }) : client.unsubscribeResource({ uri }));
    } catch (err) {
      throw this.mapped(`${on ? 'subscribe to' : 'unsubscribe from'} '${uri}'`, err);
    }
  }

  async complete(params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const client = this.requireClient();
    try {
      return this.events.secrets.scrubValue((await client.request({ method: 'completion/complete', params }, PASSTHROUGH)) as Record<string, unknown>);
    } catch (err) {
      throw this.mapped('completion', err);
    }
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<Record<string, unknown>> {
    const client = this.requireClient();
    try {
      return this.events.secrets.scrubValue((await client.getPrompt({ name, arguments: args })) as Record<string, unknown>);
    } catch (err) {
      throw this.mapped(`prompt '${name}'`, err);
    }
  }

  /** A failed request as the caller reads it, the upstream's words scrubbed (call-errors.ts). */
  private mapped(what: string, err: unknown): SwitchboardError {
    return mapUpstreamError(this.name, what, err, (text) => this.events.secrets.scrubText(text));
  }

  private requireClient(): Client {
    if (!this.client || this.state !== 'running') throw this.events.unavailable(this);
    return this.client;
  }

  private setState(state: ServiceState): void {
    const previous = this.state;
    if (previous === state) return;
    this.state = state;
    this.events.onStateChange(this, previous);
  }

  private async createTransport(): Promise<Transport> {
    const d = this.def;
    const { env, headers } = resolvedSecrets(d, this.configPath, (value) => this.events.onSecret(value));
    if (this.bearer && d.type === 'sse') {
      // The SSE transport takes its headers once: the token of the moment, renewed by reconnecting.
      const token = await this.bearer(false);
      if (token) headers.authorization = `Bearer ${token}`;
    }
    if (d.type === 'stdio') {
      const [command, ...args] = commandLine(d);
      return new ChildProcessTransport({
        command: command!,
        args,
        env: { ...getDefaultEnvironment(), ...env },
        cwd: this.configPath,
        maxMessageBytes: d.maxMessageBytes,
        onStderrLine: (line) => this.log.info(`stderr: ${line}`),
      });
    }
    return remoteTransport(d, headers, this.events.outbound(), this.bearer);
  }

  private async connect(): Promise<void> {
    const epoch = ++this.epoch;
    this.clearRetry();
    this.setState('starting');
    let transport: Transport;
    try {
      transport = await this.createTransport();
    } catch (err) {
      // An unresolvable secret (unset variable, unreadable file) is a failed start, retried on the backoff.
      this.fail((err as Error).message);
      return;
    }
    // Declared on the shared connection; each request is relayed only to a calling client that has the capability.
    const client = new Client({ name: SERVER_INFO.name, version: SERVER_INFO.version }, { capabilities: { sampling: {}, elicitation: {}, roots: {} } });
    const timeoutMs = this.def.timeout * 1000;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect(transport, { timeout: timeoutMs }),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new TimeoutError(`connecting to '${this.name}'`, timeoutMs)), timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      if (epoch !== this.epoch) {
        await client.close().catch(() => undefined);
        return;
      }
      this.client = client;
      this.transport = transport;
      dispatchByShape(client);
      this.relay.attach(transport);
      this.direct = new DirectCalls(transport);
      client.onclose = () => {
        if (epoch === this.epoch) this.onDropped('connection closed');
      };
      client.onerror = (err) => this.log.warn(`transport: ${err.message}`);
      this.watchLists(client, epoch);
      await this.refreshAll(client);
      if (epoch !== this.epoch) return;
      this.failures = 0;
      this.error = undefined;
      this.challenge = undefined;
      this.health = 'healthy';
      this.setState('running');
      this.log.info(`connected (${this.tools.length} tools)`);
      this.events.onContentChange(this);
    } catch (err) {
      clearTimeout(timer);
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      if (epoch !== this.epoch) return;
      this.client = undefined;
      this.transport = undefined;
      this.direct = undefined;
      const challenge = signInChallenge(err);
      if (challenge !== undefined) return this.requireSignIn(challenge);
      this.fail(err instanceof Error ? err.message : String(err));
    }
  }

  /**
   * The server answered 401: no retry on the backoff can change that, only credentials.
   * It waits in auth_required (listed in servers_requiring_auth) until a start, a restart or
   * a changed definition (new headers) tries again.
   */
  private requireSignIn(challenge: string): void {
    this.failures = 0;
    this.challenge = challenge;
    this.error = this.events.secrets.scrubText(
      `the server requires sign-in${challenge ? ` (WWW-Authenticate: ${challenge})` : ''}; configure credentials in its headers, or sign in when the OAuth client is enabled`,
    );
    this.health = 'unhealthy';
    this.log.warn(this.error);
    this.setState('auth_required');
  }

  private async refreshAll(client: Client): Promise<void> {
    const caps = client.getServerCapabilities() ?? {};
    // Scrubbed once here, as they arrive: every listing then serves them as they are.
    const secrets = this.events.secrets;
    this.tools = caps.tools ? await this.listTools(client) : [];
    this.resources = caps.resources ? secrets.scrubValue(await this.listAll((cursor) => client.listResources(cursor ? { cursor } : {}), 'resources')) : [];
    // Templates are optional even for servers with resources: one that has none may not answer.
    this.resourceTemplates = caps.resources
      ? secrets.scrubValue(
          await this.listAll<'resourceTemplates', ResourceTemplate>(
            (cursor) => client.listResourceTemplates(cursor ? { cursor } : {}),
            'resourceTemplates',
          ).catch((): ResourceTemplate[] => []),
        )
      : [];
    this.prompts = caps.prompts ? secrets.scrubValue(await this.listAll((cursor) => client.listPrompts(cursor ? { cursor } : {}), 'prompts')) : [];
  }

  /** Page by page, so a list past the limits is refused before the rest of it is read. */
  private async listTools(client: Client): Promise<Tool[]> {
    const limits = this.events.toolLimits();
    const all: Tool[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listToolsPage(client, cursor, this.log, this.events.secrets);
      checkToolPage(all.length, page.tools, limits);
      all.push(...page.tools);
      cursor = page.nextCursor;
      // Empty pages with a cursor each time would never end.
      if (++pages > limits.maxToolsPerServer)
        throw new ToolListLimitError(`the server's tools/list never ends (more than ${limits.maxToolsPerServer} pages); its tool list is refused`);
    } while (cursor);
    return all;
  }

  private async listAll<K extends 'tools' | 'resources' | 'resourceTemplates' | 'prompts', T>(
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

  private watchLists(client: Client, epoch: number): void {
    const refresh = (what: string) => async () => {
      if (epoch !== this.epoch) return;
      try {
        await this.refreshAll(client);
        if (epoch === this.epoch) this.events.onContentChange(this);
      } catch (err) {
        if (err instanceof ToolListLimitError && epoch === this.epoch) {
          // The new list is refused whole, like at connect: no stale tools stay callable.
          this.epoch++;
          await this.disconnect();
          this.fail(err.message);
          return;
        }
        this.log.warn(`refreshing after ${what} list change failed: ${(err as Error).message}`);
      }
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, refresh('tool'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, refresh('resource'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, refresh('prompt'));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      if (epoch === this.epoch) this.events.onResourceUpdated(this, n.params.uri);
    });
  }

  private onDropped(reason: string): void {
    // The tools stay listed while reconnecting: a call then gets SERVER_UNAVAILABLE with
    // the next retry time, which says more than a tool that vanished and came back.
    this.client = undefined;
    this.transport = undefined;
    this.direct = undefined;
    this.log.warn(`lost: ${reason}`);
    this.fail(reason);
  }

  private fail(failure: string): void {
    // Shown in the server's status, its events and the admin pages: it may quote the server.
    const reason = this.events.secrets.scrubText(failure);
    this.failures++;
    this.error = reason;
    this.health = 'unhealthy';
    const remote = this.def.type !== 'stdio';
    this.setState(remote && this.failures >= UNREACHABLE_AFTER ? 'unreachable' : 'failed');
    if (!this.wanted) return;
    const delay = backoffDelayMs(this.failures - 1, this.def.backoff.initialSeconds, this.def.backoff.maxSeconds);
    this.nextRetryAt = new Date(Date.now() + delay);
    this.log.warn(`${reason}; retrying in ${Math.round(delay)} ms`);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.nextRetryAt = undefined;
      if (this.wanted) void this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  private clearRetry(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.nextRetryAt = undefined;
  }

  private async disconnect(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    this.direct = undefined;
    this.tools = [];
    this.resources = [];
    this.resourceTemplates = [];
    this.prompts = [];
    this.events.onContentChange(this);
    if (client) await client.close().catch(() => undefined);
    if (transport) await transport.close().catch(() => undefined);
  }
}
