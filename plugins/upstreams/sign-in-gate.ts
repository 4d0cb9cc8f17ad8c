/**
 * A remote server that answered 401 and is used with each caller's own grant. The shared
 * connection waits in auth_required; the gate keeps one connection per owner (made with
 * that owner's bearer token), routes each call to the caller's, and lists the server's tools
 * from the last owner connection that listed them. Grants outlive connections: an owner
 * whose connection is gone (a restart, a resumed server) is reconnected on its next call.
 */
import type { CallToolResult, Tool } from '#mcp-sdk/types.js';
import {
  AuthRequiredError,
  ownerOf,
  type CallContext,
  type JsonObject,
  type Logger,
  type Owner,
  SwitchboardError,
  type SignInTarget,
  type UpstreamCredentials,
} from '../../kernel/index.js';
import type { UpstreamConnection } from './connection.js';
import type { BearerSource } from './client/http-client-transport.js';

export interface GateParts {
  credentials: UpstreamCredentials;
  /** A new connection to the gate's server that sends `bearer`; `onRefused` when the server stops accepting it. */
  connect(owner: Owner, bearer: BearerSource, onRefused: () => void): UpstreamConnection;
  /** The gate's tool list changed. */
  publish(): void;
  /** `owner`'s view of the server changed (signed in, signed out, grant refused). */
  notify(owner: Owner): void;
  /** The name of core_auth_login under the configured ServicePrefix. */
  authTool(): string;
  /** Set for a server called with each person's own token: why `owner` has no connection (instead of "sign in"). */
  notSignedIn?(owner: Owner | undefined): SwitchboardError;
  log: Logger;
}

export class SignInGate {
  private readonly conns = new Map<Owner, UpstreamConnection>();
  private readonly connecting = new Map<Owner, Promise<UpstreamConnection>>();
  /** Owners the server asked for more scope (403 insufficient_scope), with that challenge. */
  private readonly stepUps = new Map<Owner, string>();
  /** What the catalogue shows for the server: the tools an owner connection listed last. */
  tools: readonly Tool[] = [];

  constructor(
    readonly server: string,
    readonly target: SignInTarget,
    private readonly parts: GateParts,
  ) {}

  signedIn(owner: Owner): boolean {
    return this.parts.credentials.has(this.server, owner);
  }

  /** true for a server called with each person's own token: there is nothing to sign in to. */
  get personal(): boolean {
    return this.parts.notSignedIn !== undefined;
  }

  /** The error of a call from `owner`, who has no connection here. */
  notSignedIn(owner: Owner | undefined): SwitchboardError {
    return this.parts.notSignedIn?.(owner) ?? new AuthRequiredError(this.server, 'you have not signed in to it', this.parts.authTool());
  }

  /** Brings up one owner connection so the server's tools can be listed (after a restart or a resume). */
  async adoptGrants(): Promise<void> {
    for (const owner of this.parts.credentials.owners(this.server)) {
      try {
        await this.connect(owner);
        return;
      } catch (err) {
        this.parts.log.warn(`a stored sign-in could not be used: ${(err as Error).message}`);
      }
    }
  }

  /** The owner's connection when it is up (what lists its resources and prompts). */
  live(owner: Owner): UpstreamConnection | undefined {
    const c = this.conns.get(owner);
    return c?.state === 'running' ? c : undefined;
  }

  /** The owner's connection, made now when it has a grant but no connection. Rejects with why the server refused. */
  connect(owner: Owner): Promise<UpstreamConnection> {
    const live = this.conns.get(owner);
    if (live?.state === 'running') return Promise.resolve(live);
    const pending = this.connecting.get(owner);
    if (pending) return pending;
    const attempt = this.open(owner).finally(() => this.connecting.delete(owner));
    this.connecting.set(owner, attempt);
    return attempt;
  }

  private async open(owner: Owner): Promise<UpstreamConnection> {
    const old = this.conns.get(owner);
    this.conns.delete(owner);
    await old?.stop();
    const credentials = this.parts.credentials;
    // A person's token is obtained first, so a failure (exchange refused, endpoint forbidden) is reported as itself, not as a closed connection.
    if (this.personal && (await credentials.accessToken(this.server, owner)) === undefined) throw this.notSignedIn(owner);
    const conn = this.parts.connect(
      owner,
      (renew) => credentials.accessToken(this.server, owner, renew),
      () => void this.refused(owner),
    );
    await conn.start();
    if (conn.state !== 'running') {
      const why = conn.error ?? `the connection is ${conn.state}`;
      await conn.stop();
      if (conn.challenge !== undefined) await credentials.forget(this.server, owner);
      if (this.personal)
        throw new SwitchboardError('AUTH_REQUIRED', `Server '${this.server}' did not accept the signed-in person's token (${why})`, { server: this.server });
      throw new AuthRequiredError(this.server, `the server did not accept your sign-in (${why})`, this.parts.authTool());
    }
    this.conns.set(owner, conn);
    this.listed(conn);
    return conn;
  }

  /** An owner connection listed its tools (connected, or the server said its list changed). */
  listed(conn: UpstreamConnection): void {
    if (conn.state !== 'running') return;
    this.tools = conn.tools;
    this.parts.publish();
  }

  /** The owner signed out, or its grant is gone: its connection closes; the last one out takes the tools along. */
  async drop(owner: Owner): Promise<void> {
    const conn = this.conns.get(owner);
    this.conns.delete(owner);
    await conn?.stop();
    if (this.parts.credentials.owners(this.server).length === 0 && this.tools.length > 0) {
      this.tools = [];
      this.parts.publish();
    }
  }

  /** The server stopped accepting the owner's credentials (revoked, expired beyond refresh). */
  private async refused(owner: Owner): Promise<void> {
    this.parts.log.warn("the server refused a signed-in connection's credentials; its owner must sign in again");
    await this.parts.credentials.forget(this.server, owner);
    await this.drop(owner);
    this.parts.notify(owner);
  }

  /** Where `owner`'s next sign-in starts: the server's challenge, or the step-up it asked for. */
  targetFor(owner: Owner | undefined): SignInTarget {
    const more = owner === undefined ? undefined : this.stepUps.get(owner);
    return more === undefined ? this.target : { ...this.target, challenge: more, stepUp: true };
  }

  /** The server wants more scope from `owner` for a call: the next sign-in asks for it; the grant stays for everything else. */
  stepUp(owner: Owner, challenge: string): AuthRequiredError {
    this.stepUps.set(owner, challenge);
    const scope = /scope="([^"]*)"/.exec(challenge)?.[1];
    return new AuthRequiredError(
      this.server,
      `it needs more permission for this call${scope ? ` (scope "${scope}")` : ''}; sign in again to grant it`,
      this.parts.authTool(),
    );
  }

  /** A new grant arrived for `owner`: any step-up it was asked for is answered. */
  granted(owner: Owner): void {
    this.stepUps.delete(owner);
  }

  /** The error of a call whose caller's credentials the server refused. */
  refusal(): AuthRequiredError {
    return new AuthRequiredError(this.server, 'the server no longer accepts your sign-in (revoked or expired)', this.parts.authTool());
  }

  /** Runs a tool on the caller's own connection (as a task of the server when `asTask`). */
  async call(originalName: string, args: JsonObject, call: CallContext, asTask = false): Promise<CallToolResult> {
    const owner = ownerOf(call.request.session);
    let conn = this.conns.get(owner);
    if (!conn || conn.state !== 'running') {
      if (!this.signedIn(owner)) throw this.notSignedIn(owner);
      conn = await this.connect(owner);
    }
    return asTask ? conn.callToolTask(originalName, args, call) : conn.callTool(originalName, args, call);
  }

  /** The shared connection left auth_required (stopped, suspended, reconfigured): every owner connection closes; grants stay. */
  async close(): Promise<void> {
    const all = [...this.conns.values()];
    this.conns.clear();
    await Promise.all(all.map((c) => c.stop()));
  }
}
