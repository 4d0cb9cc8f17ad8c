/**
 * One upstream MCP server: its lifecycle state and what it serves. One connection serves
 * every client session. A drop (crash, network) moves it to `failed` and schedules a
 * reconnect on the backoff (retry-schedule.ts); `stop` is the only way to stay down. The
 * connected client and its requests are client/upstream-client.ts, its transport
 * client/build-transport.ts, its lists lists.ts.
 */
import type { Transport } from '#mcp-sdk/shared/transport.js';
import type { CallToolResult, Prompt, Resource, ResourceTemplate, Tool } from '#mcp-sdk/types.js';
import {
  SwitchboardError,
  type CallContext,
  type JsonObject,
  type Logger,
  type McpServerDefinition,
  type ResultSink,
  type ServiceHealth,
  type LifecycleState,
  type ServiceStatus,
} from '../../kernel/index.js';
import { signInChallenge } from './client/auth-challenge.js';
import { StderrTail } from './stderr-tail.js';
import { buildTransport } from './client/build-transport.js';
import { ChildProcessTransport } from './client/child-process-transport.js';
import { ClientRelay } from './client/client-relay.js';
import type { BearerSource } from './client/http-client-transport.js';
import { openUpstream } from './client/open-upstream.js';
import type { CallFailures } from './client/upstream-client.js';
import type { UpstreamSession } from './client/upstream-session.js';
import { readLists, type ServedLists } from './lists.js';
import { callFailures } from './call-failures.js';
import type { ConnectionEvents } from './connection-events.js';
import { serviceStatus } from './connection-status.js';
import { lastingFailure } from './lasting-failure.js';
import { RetrySchedule } from './retry-schedule.js';
import { RequestDrain } from './request-drain.js';
import { hasReferences, rotationLine, SecretRotation } from './secret-rotation.js';
import { StrandedStreamCheck } from './stranded-stream.js';
import { ToolListLimitError } from './tool-limits.js';

/** After this many failed attempts in a row a remote server is reported unreachable. */
const UNREACHABLE_AFTER = 3;
/** A renewal that starts the server again waits at most this long (or its call timeout) for the requests in flight. */
const RENEWAL_DRAIN_SECONDS = 30;

export class UpstreamConnection implements ServedLists {
  state: LifecycleState = 'stopped';
  health: ServiceHealth = 'unknown';
  error: string | undefined;
  /** The WWW-Authenticate challenge of the 401 that put this server in auth_required. */
  challenge: string | undefined;
  lastRestartedAt: string | undefined;
  /** Down for a reason no retry heals (lasting-failure.ts): tried again only when started or redefined. */
  lasting = false;
  /** The reason last said at WARN: a retry that fails the same way says it again only at debug. */
  private warned: string | undefined;
  /** Set while restart() runs: its state changes are announced as part of a restart (events tell MCPServerRestarting from a first start). */
  restarting = false;
  tools: Tool[] = [];
  resources: Resource[] = [];
  resourceTemplates: ResourceTemplate[] = [];
  prompts: Prompt[] = [];
  /** The last lines the server wrote on stderr (stdio), across restarts. */
  readonly stderr = new StderrTail();
  /** Set while connected. */
  private connected: UpstreamSession | undefined;
  private wanted = false;
  private readonly retry = new RetrySchedule();
  /** Bumped on every start/stop so late callbacks of an old connection are ignored. */
  private epoch = 0;
  /** Sampling, elicitation, roots and log messages during a call go to the calling client. */
  private readonly relay: ClientRelay;
  /** Reads the lists of a server that announces no changes again once they expire (a modern server's `ttlMs`). */
  private relist: NodeJS.Timeout | undefined;
  /**
   * The resources this server was asked to watch (resources/subscribe, or a modern server's
   * resource listen), kept across reconnects and restarts: a new connection is a new session
   * upstream that knows none of them, and the sessions watching here still expect updates.
   */
  private readonly watching = new Set<string>();
  /** A failed request as the caller reads it (call-failures.ts). */
  private readonly failures: CallFailures;
  /** What the definition's references resolved to, read again on a timer while wanted (secret-rotation.ts). */
  private readonly rotation = new SecretRotation();
  /** The requests in flight, which a renewal lets end before it starts the server again (request-drain.ts). */
  private readonly requests = new RequestDrain();
  /** Over HTTP+SSE, a call that times out has the connection's one stream checked (stranded-stream.ts). */
  private readonly streamCheck = new StrandedStreamCheck((session, reason) => this.stranded(session, reason));

  constructor(
    public def: McpServerDefinition,
    private readonly configPath: string,
    private readonly log: Logger,
    private readonly events: ConnectionEvents,
    /** Set for a connection made with one owner's grant (sign-in-gate.ts). */
    private readonly bearer?: BearerSource,
  ) {
    this.relay = new ClientRelay(def.name, log, events.secrets);
    this.failures = callFailures(this, events, bearer);
  }

  get name(): string {
    return this.def.name;
  }

  get nextRetryAt(): Date | undefined {
    return this.retry.nextRetryAt;
  }

  /** The pid of a stdio server's process while it runs. */
  get pid(): number | undefined {
    const transport = this.connected?.transport;
    return transport instanceof ChildProcessTransport ? transport.pid : undefined;
  }

  status(): ServiceStatus {
    return serviceStatus(this);
  }

  async start(): Promise<void> {
    this.wanted = true;
    if (this.rereadsSecrets) this.rotation.poll(this.events.secretPollMs ?? 0, () => this.lookAtSecrets());
    if (this.state === 'running' || this.state === 'starting') return;
    this.retry.failures = 0;
    this.lasting = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.wanted = false;
    this.rotation.stopPolling();
    this.epoch++;
    // A renewal waiting for requests in flight has nothing left to restart (its epoch is gone).
    this.requests.stopWaiting();
    this.retry.clear();
    if (this.state === 'stopped') return;
    this.setState('stopping');
    await this.disconnect();
    this.error = undefined;
    this.lasting = false;
    this.warned = undefined;
    this.health = 'unknown';
    this.setState('stopped');
  }

  async restart(): Promise<void> {
    this.restarting = true;
    try {
      await this.stop();
      this.lastRestartedAt = new Date().toISOString();
      await this.start();
    } finally {
      this.restarting = false;
    }
  }

  /** Runs one tool on this server for `call` (its client hears what the server asks meanwhile). Hot path. */
  callTool(originalName: string, args: JsonObject, call: CallContext, sink?: ResultSink): Promise<CallToolResult> {
    if (this.requests.held) return this.requests.held.then(() => this.callTool(originalName, args, call, sink));
    const c = this.connected;
    if (!c || this.state !== 'running') return Promise.reject(this.events.unavailable(this));
    // An SSE server's call is watched for its stream after the answer: no early answer there.
    if (this.def.type === 'sse') return this.streamCheck.watch(this.requests.track(c.callTool(originalName, args, call, this.def.callTimeout * 1000)), c);
    return this.requests.track(c.callTool(originalName, args, call, this.def.callTimeout * 1000, sink));
  }

  /**
   * Runs a tool that may or must run as a task of this server as one (client/upstream-task.ts):
   * created, followed and its result fetched within the call timeout.
   */
  callToolTask(originalName: string, args: JsonObject, call: CallContext): Promise<CallToolResult> {
    if (this.requests.held) return this.requests.held.then(() => this.callToolTask(originalName, args, call));
    const c = this.connected;
    if (!c || this.state !== 'running') return Promise.reject(this.events.unavailable(this));
    const calling = this.requests.track(c.callToolTask(originalName, args, call, this.def.callTimeout * 1000));
    return this.def.type === 'sse' ? this.streamCheck.watch(calling, c) : calling;
  }

  /** The MCP revision spoken with the server while connected (2026-07-28, or what initialize agreed). */
  get protocolVersion(): string | undefined {
    return this.connected?.protocolVersion;
  }

  /** The server, connected, declared it runs tools/call as tasks. */
  get runsToolTasks(): boolean {
    return this.connected?.runsToolTasks() ?? false;
  }

  async readResource(uri: string): Promise<Record<string, unknown>> {
    await this.requests.held;
    return this.requests.track(this.requireClient().readResource(uri));
  }

  async subscribe(uri: string, on: boolean): Promise<void> {
    // Unwatched even when the server cannot be told (it is down): a reconnect must not watch it again.
    if (!on) this.watching.delete(uri);
    await this.requireClient().subscribe(uri, on);
    if (on) this.watching.add(uri);
  }

  async complete(params: Record<string, unknown>): Promise<Record<string, unknown>> {
    await this.requests.held;
    return this.requests.track(this.requireClient().complete(params));
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<Record<string, unknown>> {
    await this.requests.held;
    return this.requests.track(this.requireClient().getPrompt(name, args));
  }

  private requireClient(): UpstreamSession {
    if (!this.connected || this.state !== 'running') throw this.events.unavailable(this);
    return this.connected;
  }

  private setState(state: LifecycleState): void {
    const previous = this.state;
    if (previous === state) return;
    this.state = state;
    this.events.onStateChange(this, previous);
  }

  private async connect(): Promise<void> {
    const epoch = ++this.epoch;
    this.retry.clear();
    const perPerson = this.bearer ? undefined : this.events.perPerson?.(this.def);
    if (perPerson !== undefined) return this.awaitPeople(perPerson);
    this.setState('starting');
    let transport: Transport;
    try {
      const events = this.events;
      const built = await buildTransport(this.def, {
        configPath: this.configPath,
        log: this.log,
        onSecret: (value) => events.onSecret(value),
        outbound: () => events.outbound(),
        allowedEnv: () => events.allowedEnv(),
        onStderrLine: (line) => this.stderr.push(line),
        ...(this.bearer ? { bearer: this.bearer } : {}),
      });
      transport = built.transport;
      this.rotation.madeWith(built.resolved, built.liveHeaders);
    } catch (err) {
      if (err instanceof SwitchboardError && err.code === 'SECRET_UNRESOLVED') this.rotation.unresolved();
      // An unresolvable secret or a missing command is a lasting failure (lasting-failure.ts); the rest backs off.
      this.fail((err as Error).message, lastingFailure(err, this.rereadsSecrets));
      return;
    }
    let session: UpstreamSession | undefined;
    // A close while the lists are read fails that reading, and the catch below counts the
    // failure; counted by the close watcher too, one failure doubled the backoff and was warned
    // twice. `cause`: what the transport said, which tells more than the SDK's "Connection closed".
    const opening: { now: boolean; closed: boolean; cause?: string } = { now: true, closed: false };
    try {
      session = await openUpstream(transport, this.def, { relay: this.relay, secrets: this.events.secrets, failures: this.failures, log: this.log });
      const opened = session;
      if (epoch !== this.epoch) {
        await opened.close();
        return;
      }
      this.connected = opened;
      opened.watch({
        closed: () => {
          if (epoch !== this.epoch) return;
          if (opening.now) opening.closed = true;
          else this.onDropped('connection closed');
        },
        error: (err) => {
          this.log.warn(`transport: ${err.message}`);
          if (opening.now) opening.cause ??= err.message;
        },
        changed: (what) => this.refresh(opened, epoch, what),
        missed: () => {
          if (epoch !== this.epoch) return;
          void this.refresh(opened, epoch, 'a possibly missed');
          // As after a reconnect (watchAgain): a subscriber that reads again loses nothing; one that missed a change would.
          for (const uri of this.watching) this.events.onResourceUpdated(this, uri);
        },
        resourceUpdated: (uri) => {
          if (epoch === this.epoch) this.events.onResourceUpdated(this, uri);
        },
      });
      await this.readLists(opened);
      if (epoch !== this.epoch) return;
      opening.now = false;
      // Closed after the last list was read: nothing failed, so the drop is said here.
      if (opening.closed) return this.onDropped('connection closed');
      this.scheduleRelist(opened, epoch);
      this.retry.failures = 0;
      this.error = undefined;
      this.warned = undefined;
      this.challenge = undefined;
      this.health = 'healthy';
      this.setState('running');
      this.log.info(`connected (${opened.protocolVersion ?? 'unknown version'}, ${this.tools.length} tool${this.tools.length === 1 ? '' : 's'})`);
      this.events.onContentChange(this);
      void this.watchAgain(opened, epoch);
    } catch (err) {
      // Read before the closes below, which the watcher hears too.
      const lostTo = opening.closed ? opening.cause : undefined;
      await session?.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      if (epoch !== this.epoch) return;
      this.connected = undefined;
      const challenge = signInChallenge(err);
      if (challenge !== undefined) return this.requireSignIn(challenge);
      this.fail(lostTo ?? (err instanceof Error ? err.message : String(err)), lastingFailure(err, this.rereadsSecrets));
    }
  }

  /** Whether its references are read again on a timer: not for a connection per person (auth.forwardToken...), made with their tokens. */
  private get rereadsSecrets(): boolean {
    return (this.events.secretPollMs ?? 0) > 0 && !this.bearer && !this.events.perPerson?.(this.def) && hasReferences(this.def);
  }

  /** A referenced secret was renewed where it is kept: used from the next request, or connected with. */
  private lookAtSecrets(): void {
    // A renewal under way already starts it again with what is kept now.
    if (!this.wanted || this.state === 'starting' || this.state === 'stopping' || this.requests.held) return;
    const found = this.rotation.look(this.def, this.configPath, this.state === 'running', (value) => this.events.onSecret(value));
    const line = rotationLine(found);
    if (line) this.log[line.level](line.text);
    if (found.kind === 'headers') found.apply();
    else if (found.kind === 'reconnect') void this.renew();
  }

  /**
   * Starts the server again with a renewed secret its process (or connection) was made with,
   * once the requests in flight have ended: new requests wait for the new connection meanwhile
   * (request-drain.ts), so a renewal nobody asked for fails no call that ends within the wait.
   */
  private async renew(): Promise<void> {
    const epoch = this.epoch;
    const seconds = Math.min(this.def.callTimeout, RENEWAL_DRAIN_SECONDS);
    const inFlight = this.requests.count;
    if (inFlight > 0)
      this.log.info(
        `waiting for ${inFlight === 1 ? '1 request' : `${inFlight} requests`} in flight to end (at most ${seconds} s); new requests wait for the new connection`,
      );
    await this.requests
      .holdFor(seconds * 1000, async () => {
        // Stopped, started or redefined meanwhile: that connection was made with the renewed value.
        if (epoch === this.epoch && this.wanted) await this.restart();
      })
      .catch((err: unknown) => this.log.warn(this.events.secrets.scrubText(`starting again with the renewed value failed: ${(err as Error).message}`)));
  }

  /**
   * The server answered 401: no retry on the backoff can change that, only credentials.
   * It waits in auth_required (listed in servers_requiring_auth) until a start, a restart or
   * a changed definition (new headers) tries again.
   */
  private requireSignIn(challenge: string): void {
    this.retry.failures = 0;
    this.challenge = challenge;
    this.error = this.events.secrets.scrubText(
      `the server requires sign-in${challenge ? ` (WWW-Authenticate: ${challenge})` : ''}; configure credentials in its headers, or sign in when the OAuth client is enabled`,
    );
    this.health = 'unhealthy';
    this.log.warn(this.error);
    this.setState('auth_required');
  }

  /** Calls carry each person's own token: nothing connects without one (registry.ts opens a connection per person). */
  private awaitPeople(explanation: string): void {
    this.retry.failures = 0;
    this.challenge = '';
    this.error = explanation;
    this.health = 'unknown';
    this.setState('auth_required');
  }

  /**
   * A new connection (after a drop, a restart or a resume) is told the resources the last one
   * watched. Each is then announced as updated: it may have changed while nobody was listening,
   * and a subscriber that reads it again loses nothing, while one that missed a change would.
   */
  private async watchAgain(session: UpstreamSession, epoch: number): Promise<void> {
    for (const uri of [...this.watching]) {
      if (epoch !== this.epoch) return;
      try {
        await session.subscribe(uri, true);
      } catch (err) {
        // Its subscribers asked while the server offered it; they are not told it stopped, so say it here.
        this.log.warn(`could not watch '${uri}' again after reconnecting; its subscribers hear no updates: ${(err as Error).message}`);
        continue;
      }
      if (epoch === this.epoch) this.events.onResourceUpdated(this, uri);
    }
  }

  private readLists(session: UpstreamSession): Promise<void> {
    return readLists(session.lists, this, this.events.toolLimits(), this.log, this.events.secrets);
  }

  /** The server said a list changed: read them again. */
  private async refresh(session: UpstreamSession, epoch: number, what: string): Promise<void> {
    if (epoch !== this.epoch) return;
    try {
      await this.readLists(session);
      if (epoch === this.epoch) this.events.onContentChange(this);
      this.scheduleRelist(session, epoch);
    } catch (err) {
      if (err instanceof ToolListLimitError && epoch === this.epoch) {
        // The new list is refused whole, like at connect: no stale tools stay callable.
        this.epoch++;
        await this.disconnect();
        this.fail(err.message);
        return;
      }
      this.log.warn(`refreshing after ${what} list change failed: ${(err as Error).message}`);
      // An expiring list is tried again at its next expiry; a failed read must not end that.
      this.scheduleRelist(session, epoch);
    }
  }

  private scheduleRelist(session: UpstreamSession, epoch: number): void {
    clearTimeout(this.relist);
    const ms = session.relistAfterMs?.();
    if (ms === undefined || epoch !== this.epoch) return;
    this.relist = setTimeout(() => void this.refresh(session, epoch, 'expired (ttlMs)'), ms);
    this.relist.unref();
  }

  /** `session`'s event stream was found dead: it is closed and the connection made again. */
  private stranded(session: UpstreamSession, reason: string): void {
    if (this.connected !== session) return;
    // Its close, heard by the session's watcher, is not a second drop.
    this.epoch++;
    void session.close();
    this.onDropped(reason);
  }

  private onDropped(reason: string): void {
    // The tools stay listed while reconnecting: a call then gets SERVER_UNAVAILABLE with
    // the next retry time, which says more than a tool that vanished and came back.
    this.connected = undefined;
    this.log.warn(`lost: ${reason}`);
    this.fail(reason);
  }

  /** `lasting`: the reason, with what to change, of a failure no retry heals (lasting-failure.ts). */
  private fail(failure: string, lasting?: string): void {
    // Shown in the server's status, its events and the admin pages: it may quote the server.
    const reason = this.events.secrets.scrubText(lasting ?? failure);
    this.error = reason;
    this.health = 'unhealthy';
    this.lasting = lasting !== undefined;
    if (this.lasting) {
      this.retry.failures = 0;
      this.setState('failed');
      this.warnOnce(reason, '');
      return;
    }
    this.retry.failures++;
    const remote = this.def.type !== 'stdio';
    this.setState(remote && this.retry.failures >= UNREACHABLE_AFTER ? 'unreachable' : 'failed');
    if (!this.wanted) return;
    const delay = this.retry.schedule(this.def.backoff, () => {
      if (this.wanted) void this.connect();
    });
    this.warnOnce(reason, `; retrying in ${Math.round(delay)} ms`);
  }

  /** One WARN per new reason: the same failure on every retry of the backoff is said at debug. */
  private warnOnce(reason: string, tail: string): void {
    if (reason === this.warned) return this.log.debug(`${reason}${tail} (again)`);
    this.warned = reason;
    this.log.warn(`${reason}${tail}`);
  }

  private async disconnect(): Promise<void> {
    clearTimeout(this.relist);
    const connected = this.connected;
    this.connected = undefined;
    this.tools = [];
    this.resources = [];
    this.resourceTemplates = [];
    this.prompts = [];
    this.events.onContentChange(this);
    if (connected) await connected.close();
  }
}
