/**
 * The servers waiting for sign-in, one gate each (sign-in-gate.ts): a shared connection that
 * got 401 while the OAuth client is on, or a server called with each person's own token.
 * Each owner's grant opens a connection of its own; what an owner sees is narrowed to the
 * servers they signed in to (sign-in-view.ts), and their sessions hear when that changes.
 */
import {
  coreToolName,
  ownerOf,
  type KernelApi,
  type Logger,
  type McpServerDefinition,
  type Owner,
  type RequestContext,
  type SignInTarget,
} from '../../kernel/index.js';
import { authMode } from '../../lib/server-auth/auth-mode.js';
import { UpstreamConnection } from './connection.js';
import type { ConnectionEvents } from './connection-events.js';
import { PersonTokens, type PersonMode } from './person-tokens.js';
import { SignInGate } from './sign-in-gate.js';
import { SignInView } from './sign-in-view.js';

/** What every connection is given alike (the registry's settings, secrets and policies). */
export type SharedEvents = Pick<ConnectionEvents, 'onSecret' | 'secrets' | 'unavailable' | 'toolLimits' | 'outbound' | 'allowedEnv'>;

/** The authorization server a definition pins for its sign-in, as a SignInTarget carries it. */
function pinnedOf(d: McpServerDefinition): Pick<SignInTarget, 'pinned'> {
  const mode = authMode(d);
  return mode.kind === 'sign-in' && mode.pinned ? { pinned: mode.pinned } : {};
}

/** The mode of a server called with each person's own token, else undefined. */
export function personModeOf(d: McpServerDefinition): PersonMode | undefined {
  const mode = authMode(d);
  return mode.kind === 'forward' || mode.kind === 'exchange' ? mode : undefined;
}

export class SignInGates {
  private readonly gates = new Map<string, SignInGate>();
  private readonly views = new SignInView(this.gates, () => this.authTool());

  constructor(
    private readonly kernel: KernelApi,
    private readonly log: Logger,
    private readonly deps: {
      shared: SharedEvents;
      /** Publishes the shared connection's tools again (a gate's tools are listed through it). */
      publish: (conn: UpstreamConnection) => void;
    },
  ) {}

  get(name: string): SignInGate | undefined {
    return this.gates.get(name);
  }

  /** The shared connection got 401: with the OAuth client on, each owner's grant opens its own connection. */
  open(conn: UpstreamConnection): void {
    const personal = personModeOf(conn.def);
    const tokens = personal && this.personTokens(conn.def, personal);
    const credentials = tokens ?? this.kernel.services.find('upstream-credentials');
    if (!credentials || this.gates.has(conn.name) || !conn.def.url) return;
    const log = this.log.child(conn.name);
    const gate: SignInGate = new SignInGate(
      conn.name,
      { url: conn.def.url, challenge: conn.challenge ?? '', ...pinnedOf(conn.def) },
      {
        credentials,
        log,
        connect: (owner, bearer, onRefused) =>
          new UpstreamConnection(
            conn.def,
            this.kernel.config.configPath,
            log,
            {
              ...this.deps.shared,
              onContentChange: (c) => gate.listed(c),
              onStateChange: (c) => {
                if (c.state === 'auth_required') onRefused();
              },
              onResourceUpdated: () => undefined,
              unauthorized: () => {
                onRefused();
                return gate.refusal();
              },
              insufficientScope: (_c, challenge) => gate.stepUp(owner, challenge),
            },
            bearer,
          ),
        publish: () => this.deps.publish(conn),
        authTool: () => this.authTool(),
        notify: (owner) => this.notifyOwner(owner),
        ...(tokens ? { notSignedIn: (owner: Owner | undefined) => tokens.refusal(owner) } : {}),
      },
    );
    this.gates.set(conn.name, gate);
    this.views.changed();
    void gate.adoptGrants();
  }

  close(name: string): void {
    const gate = this.gates.get(name);
    if (!gate) return;
    this.gates.delete(name);
    this.views.changed();
    void gate.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.gates.values()].map((g) => g.close()));
  }

  /** A person's session opened: servers called with each person's token list their tools through its connection. */
  sessionOpened(owner: Owner): void {
    for (const gate of this.gates.values()) {
      if (gate.personal && gate.tools.length === 0 && gate.signedIn(owner))
        void gate
          .connect(owner)
          .catch((err: unknown) => this.log.child(gate.server).warn(`connecting with a person's token failed: ${(err as Error).message}`));
    }
  }

  /** Narrows the request's view to what its owner has signed in to (a no-op while no server waits for sign-in). */
  narrow(request: RequestContext): void {
    if (this.gates.size === 0) return;
    const view = this.views.viewFor(ownerOf(request.session), request.view);
    if (view) request.view = view;
  }

  signInTarget(name: string, owner?: Owner): SignInTarget | undefined {
    const gate = this.gates.get(name);
    // A server called with each person's own token has nothing to sign in to.
    return gate?.personal ? undefined : gate?.targetFor(owner);
  }

  async grantChanged(name: string, owner: Owner): Promise<void> {
    const gate = this.gates.get(name);
    if (!gate) return;
    try {
      gate.granted(owner);
      if (gate.signedIn(owner)) await gate.connect(owner);
      else await gate.drop(owner);
    } finally {
      this.notifyOwner(owner);
    }
  }

  private personTokens(def: McpServerDefinition, mode: PersonMode): PersonTokens {
    const kernel = this.kernel;
    return new PersonTokens(def, mode, {
      callerTokens: () => kernel.services.find('caller-tokens'),
      orchestratorSecrets: () => kernel.services.find('orchestrator-secrets'),
      configPath: kernel.config.configPath,
      onSecret: (v) => kernel.secrets.add(v),
      allowPrivate: () => kernel.settings().mcpClient?.tokenExchange?.allowPrivateIP === true,
      people: () => [...new Set(kernel.sessions.all().flatMap((s) => (s.identity ? [ownerOf(s)] : [])))],
    });
  }

  private authTool(): string {
    return coreToolName(this.kernel.settings().aggregator.servicePrefix, 'core_auth_login');
  }

  private notifyOwner(owner: Owner): void {
    this.views.changed();
    for (const session of this.kernel.sessions.all()) {
      if (ownerOf(session) === owner) void session.server.sendToolListChanged().catch(() => undefined);
    }
    // The owner's subscriptions/listen streams (2026-07-28 clients) held here.
    this.kernel.endpoint.notifyListChanged('tools', [], owner);
  }
}
