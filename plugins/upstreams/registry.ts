/**
 * All upstream connections, reconciled against each configuration snapshot: a server
 * whose definition changed restarts, one that disappeared stops, one that appeared starts
 * (remote servers always, stdio servers when autoStart), and nothing else is touched.
 */
import {
  NotFoundError,
  type ConfigSnapshot,
  type ContentChange,
  type KernelApi,
  type Icon,
  type Logger,
  type McpServerDefinition,
  type Owner,
  type RequestContext,
  type LifecycleState,
  type ListedTool,
  type ServiceStatus,
  type SignInStatus,
  type SignInTarget,
  type UpstreamPrompt,
  type UpstreamRegistry,
  type UpstreamResource,
  type UpstreamResourceTemplate,
} from '../../kernel/index.js';
import { outboundPolicy } from '../../lib/net/outbound-policy.js';
import { UpstreamConnection } from './connection.js';
import { FamilyCatalogue } from './family-catalogue.js';
import { enabledTools, promptEntries, toolDefinitions } from './tool-definitions.js';
import { unavailable } from './unavailable.js';
import { personModeOf, SignInGates, type SharedEvents } from './sign-in-gates.js';
import { modeName } from './person-tokens.js';
import { authStatus } from './auth-status.js';

/** Fields whose change needs a new connection. */
function connectionKey(d: McpServerDefinition): string {
  return JSON.stringify([d.type, d.command, d.args, d.url, d.env, d.headers, d.timeout, d.auth]);
}

type Described = { title?: string; description?: string; mimeType?: string; icons?: Icon[] };

/** `entry` with the descriptive fields `from` has (absent ones stay absent, not undefined). */
function withDescription<T extends Described>(entry: T, from: Described): T {
  if (from.title) entry.title = from.title;
  if (from.description) entry.description = from.description;
  if (from.mimeType) entry.mimeType = from.mimeType;
  if (from.icons) entry.icons = from.icons;
  return entry;
}

/** A server's tools in the catalogue. */
function source(conn: UpstreamConnection): string {
  return `server:${conn.name}`;
}

function shouldRunOnArrival(d: McpServerDefinition): boolean {
  return !d.suspended && (d.type !== 'stdio' || d.autoStart);
}

export class Upstreams implements UpstreamRegistry {
  private readonly conns = new Map<string, UpstreamConnection>();
  /** Tool names each server listed last, so a call after it stopped can say so. */
  private readonly lastKnown = new Map<string, string[]>();
  private readonly watchers: ((change: ContentChange) => void)[] = [];
  /** What every connection is given alike, the shared ones and each owner's. */
  private readonly shared: SharedEvents;
  /** Servers waiting for sign-in, used with each owner's own grant (when the OAuth client is on). */
  private readonly gates: SignInGates;
  private readonly families: FamilyCatalogue;

  constructor(
    private readonly kernel: KernelApi,
    private readonly log: Logger,
    private readonly options: { secretPollMs: number } = { secretPollMs: 0 },
  ) {
    this.shared = {
      onSecret: (value) => kernel.secrets.add(value),
      secrets: kernel.secrets,
      unavailable: (c) => this.unavailableFor(c),
      toolLimits: () => kernel.settings().aggregator.limits,
      outbound: () => outboundPolicy(kernel.settings()),
      allowedEnv: () => kernel.settings().runtimeServers.allowedEnv,
    };
    this.gates = new SignInGates(kernel, log, { shared: this.shared, publish: (conn) => this.publish(conn) });
    this.families = new FamilyCatalogue({ catalogue: kernel.catalogue, log, lastKnown: this.lastKnown, unavailable: (c) => this.unavailableFor(c) });
  }

  /** Reconciles against `next`. Waits for new connections only when `wait` (startup). */
  async reconcile(next: ConfigSnapshot, wait: boolean): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const [name, conn] of this.conns) {
      if (!next.mcpServers.has(name)) {
        this.conns.delete(name);
        // Deleted: its tools are forgotten, and a call to one is TOOL_NOT_FOUND again.
        this.lastKnown.delete(name);
        this.kernel.catalogue.forgetAbsence(`server:${name}`);
        const family = conn.def.family?.name;
        pending.push(
          conn.stop().then(() => {
            this.kernel.catalogue.replaceSource(`server:${name}`, []);
            if (family) this.publishFamily(family);
          }),
        );
      }
    }
    for (const [name, { value: def }] of next.mcpServers) {
      const conn = this.conns.get(name);
      if (!conn) {
        const created = new UpstreamConnection(def, next.configPath, this.log.child(name), {
          ...this.shared,
          onContentChange: (c) => this.publish(c),
          onStateChange: (c, previous) => this.announce(c, previous),
          onResourceUpdated: (c, uri) => this.emit({ type: 'updated', server: c.name, uri }),
          secretPollMs: this.options.secretPollMs,
          perPerson: (d) => {
            const mode = personModeOf(d);
            return mode && `calls carry each signed-in person's own token (${modeName(mode)}): one connection per person, made at their first use`;
          },
        });
        this.conns.set(name, created);
        if (shouldRunOnArrival(def)) pending.push(created.start());
        continue;
      }
      const before = conn.def;
      conn.def = def;
      if (before.family?.name !== def.family?.name || before.family?.instanceArg !== def.family?.instanceArg) {
        // Joined, left or changed family: both surfaces change, whatever else happens.
        if (before.family) this.publishFamily(before.family.name);
        this.publish(conn);
      }
      if (def.suspended) {
        pending.push(conn.stop());
      } else if (before.suspended) {
        pending.push(conn.start());
      } else if (connectionKey(before) !== connectionKey(def) || (def.restartRequestedAt && def.restartRequestedAt !== before.restartRequestedAt)) {
        if (conn.state !== 'stopped') pending.push(conn.restart());
      } else if (conn.lasting && JSON.stringify(before) !== JSON.stringify(def)) {
        // Down for a reason no retry heals: any edit of its definition is the operator's answer.
        pending.push(conn.restart());
      } else if (before.toolPrefix !== def.toolPrefix || JSON.stringify(before.disabledTools ?? []) !== JSON.stringify(def.disabledTools ?? [])) {
        // Names or switched-off tools: the same connection, its tools published again.
        this.publish(conn);
      }
    }
    const all = Promise.all(pending).then(() => undefined);
    if (wait) await all;
    else all.catch((err: unknown) => this.log.error(`reconcile failed: ${String(err)}`));
  }

  async stopAll(): Promise<void> {
    await this.gates.closeAll();
    await Promise.all([...this.conns.values()].map((c) => c.stop()));
  }

  private publish(conn: UpstreamConnection): void {
    // A connection replaced by a newer definition of the same name must not publish.
    if (this.conns.get(conn.name) !== conn) return;
    this.emit({ type: 'list' });
    const source = `server:${conn.name}`;
    if (conn.def.family) {
      // A member's tools appear only through its family's surface.
      this.kernel.catalogue.replaceSource(source, []);
      this.publishFamily(conn.def.family.name);
      return;
    }
    const gate = this.gates.get(conn.name);
    const defs = gate ? toolDefinitions(conn, gate.tools, (name, args, call, asTask) => gate.call(name, args, call, asTask)) : toolDefinitions(conn);
    if (defs.length > 0)
      this.lastKnown.set(
        conn.name,
        defs.map((d) => d.name),
      );
    this.explain(conn, defs.length);
    this.kernel.catalogue.replaceSource(source, defs);
  }

  /**
   * Why a server that lists no tools now has none: its last tools, or (it never listed any)
   * every name under its prefix, say it is down and how to get it back.
   */
  private explain(conn: UpstreamConnection, listed: number): void {
    const known = listed === 0 ? (this.lastKnown.get(conn.name) ?? []) : [];
    const prefix = listed === 0 && known.length === 0 && conn.state !== 'running' ? `x_${conn.def.toolPrefix ?? conn.def.name}_` : undefined;
    // A server waiting for sign-in with nobody signed in: its last tools say how to get them back.
    this.kernel.catalogue.explainAbsence(source(conn), known, () => this.gates.get(conn.name)?.notSignedIn(undefined) ?? this.unavailableFor(conn), prefix);
  }

  private publishFamily(family: string): void {
    const members = [...this.conns.values()].filter((c) => c.def.family?.name === family).sort((a, b) => (a.name < b.name ? -1 : 1));
    this.families.publish(family, members);
  }

  /** A connection's status, with its family and what of it the family refused. */
  private statusOf(c: UpstreamConnection): ServiceStatus {
    const status = c.status();
    const s = c.def.auth ? { ...status, metadata: { ...status.metadata, auth: authStatus(c.def, this.kernel) } } : status;
    const family = c.def.family;
    if (!family) return s;
    return { ...s, metadata: { ...s.metadata, family: { ...family, refused: this.families.refusedOf(family.name, c.name) } } };
  }

  private unavailableFor(c: UpstreamConnection) {
    return unavailable(
      { name: c.name, type: c.def.type, state: c.state, error: c.error, nextRetryAt: c.nextRetryAt, suspended: c.def.suspended, lasting: c.lasting },
      this.kernel.settings().aggregator.servicePrefix,
    );
  }

  private announce(conn: UpstreamConnection, previous: LifecycleState): void {
    // A server that never listed tools: a call under its prefix says it is down (publish() when it lists some).
    if (this.conns.get(conn.name) === conn && !conn.def.family && conn.tools.length === 0) this.explain(conn, 0);
    if (conn.state === 'auth_required' && this.conns.get(conn.name) === conn) this.gates.open(conn);
    else if (previous === 'auth_required') this.gates.close(conn.name);
    const change = { name: conn.name, serviceType: 'MCPServer' as const, state: conn.state, previous, ...(conn.restarting ? { restart: true as const } : {}) };
    this.kernel.hooks.onServiceStateChange.call(conn.error ? { ...change, detail: conn.error } : change);
  }

  /** A person's session opened: servers called with each person's token list their tools through its connection. */
  sessionOpened(owner: Owner): void {
    this.gates.sessionOpened(owner);
  }

  /** Narrows the request's view to what its owner has signed in to (a no-op while no server waits for sign-in). */
  narrow(request: RequestContext): void {
    this.gates.narrow(request);
  }

  signInTarget(name: string, owner?: Owner): SignInTarget | undefined {
    return this.gates.signInTarget(name, owner);
  }

  grantChanged(name: string, owner: Owner): Promise<void> {
    return this.gates.grantChanged(name, owner);
  }

  statusFor(name: string, owner: Owner): SignInStatus {
    const conn = this.conns.get(name);
    if (!conn || conn.def.suspended) return 'disconnected';
    const gate = this.gates.get(name);
    if (gate) return gate.signedIn(owner) ? 'connected' : 'auth_required';
    return conn.state === 'running' ? 'connected' : conn.state === 'auth_required' ? 'auth_required' : 'disconnected';
  }

  private require(name: string): UpstreamConnection {
    const conn = this.conns.get(name);
    if (!conn) throw new NotFoundError('MCP server', name);
    return conn;
  }

  connection(name: string): UpstreamConnection | undefined {
    return this.conns.get(name);
  }

  list(): ServiceStatus[] {
    return [...this.conns.values()].map((c) => this.statusOf(c));
  }

  status(name: string): ServiceStatus | undefined {
    const c = this.conns.get(name);
    return c && this.statusOf(c);
  }

  async start(name: string): Promise<ServiceStatus> {
    const conn = this.require(name);
    await conn.start();
    return this.statusOf(conn);
  }

  async stop(name: string): Promise<ServiceStatus> {
    const conn = this.require(name);
    await conn.stop();
    return this.statusOf(conn);
  }

  async restart(name: string): Promise<ServiceStatus> {
    const conn = this.require(name);
    await conn.restart();
    return this.statusOf(conn);
  }

  connectedCount(): number {
    let n = 0;
    for (const c of this.conns.values()) if (c.state === 'running') n++;
    return n;
  }

  toolCount(name: string): number {
    const c = this.conns.get(name);
    return c && c.state === 'running' ? enabledTools(c, c.tools).length : 0;
  }

  stderrTail(name: string): string[] {
    return this.conns.get(name)?.stderr.lines() ?? [];
  }

  listedTools(name: string): ListedTool[] {
    const c = this.conns.get(name);
    if (!c) return [];
    const off = new Set(c.def.disabledTools);
    return c.tools.map((t) => ({ name: t.name, description: t.description ?? t.title ?? '', disabled: off.has(t.name) }));
  }

  /**
   * Where `c`'s resources and prompts come from for `owner`: the server's own connection, or
   * (a server waiting for sign-in) the owner's, when it is up.
   */
  private contentOf(c: UpstreamConnection, owner: Owner | undefined): UpstreamConnection | undefined {
    const gate = this.gates.get(c.name);
    if (gate) return owner === undefined ? undefined : gate.live(owner);
    return c.state === 'running' ? c : undefined;
  }

  /** The connection a request of `owner` to `server` goes to (an owner's is made when it has a grant but none yet). */
  private async routeTo(server: string, owner: Owner | undefined): Promise<UpstreamConnection> {
    const conn = this.require(server);
    const gate = this.gates.get(server);
    if (!gate) return conn;
    if (owner === undefined || !gate.signedIn(owner)) throw gate.notSignedIn(owner);
    return gate.connect(owner);
  }

  resources(owner?: Owner): UpstreamResource[] {
    const out: UpstreamResource[] = [];
    for (const c of this.conns.values()) {
      const src = this.contentOf(c, owner);
      if (!src) continue;
      for (const r of src.resources) {
        out.push(withDescription<UpstreamResource>({ server: c.name, uri: r.uri, name: r.name }, r));
      }
    }
    return out;
  }

  resourceTemplates(owner?: Owner): UpstreamResourceTemplate[] {
    const out: UpstreamResourceTemplate[] = [];
    for (const c of this.conns.values()) {
      const src = this.contentOf(c, owner);
      if (!src) continue;
      for (const t of src.resourceTemplates) {
        out.push(withDescription<UpstreamResourceTemplate>({ server: c.name, uriTemplate: t.uriTemplate, name: t.name }, t));
      }
    }
    return out;
  }

  subscribe(server: string, uri: string): Promise<void> {
    return this.require(server).subscribe(uri, true);
  }

  unsubscribe(server: string, uri: string): Promise<void> {
    return this.require(server).subscribe(uri, false);
  }

  async complete(server: string, params: Record<string, unknown>, owner?: Owner): Promise<Record<string, unknown>> {
    return (await this.routeTo(server, owner)).complete(params);
  }

  watch(listener: (change: ContentChange) => void): void {
    this.watchers.push(listener);
  }

  private emit(change: ContentChange): void {
    for (const w of this.watchers) w(change);
  }

  async readResource(server: string, uri: string, owner?: Owner): Promise<Record<string, unknown>> {
    return (await this.routeTo(server, owner)).readResource(uri);
  }

  prompts(owner?: Owner): UpstreamPrompt[] {
    return [...this.conns.values()].flatMap((c) => {
      if (!this.gates.get(c.name)) return promptEntries(c);
      const src = this.contentOf(c, owner);
      return src ? promptEntries(src) : [];
    });
  }

  async getPrompt(name: string, args: Record<string, string>, owner?: Owner): Promise<Record<string, unknown>> {
    const prompt = this.prompts(owner).find((p) => p.name === name);
    if (!prompt) throw new NotFoundError('prompt', name);
    return (await this.routeTo(prompt.server, owner)).getPrompt(prompt.originalName, args);
  }
}
