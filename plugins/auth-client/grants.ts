/**
 * Each owner's grant per remote server, and the access token the upstream connection sends.
 * A token close to expiry is refreshed before it is handed out (so a call does not first
 * fail); a refused one is renewed on demand; a grant that cannot be renewed is dropped and
 * its owner must sign in again. Concurrent requests share one refresh.
 *
 * A grant reused by single sign-on is the same object under both servers: refreshing it for
 * one refreshes it for both, so a rotated refresh token is never presented twice.
 */
import type { OAuthDiscoveryState } from '#mcp-sdk/client/auth.js';
import type { OAuthTokens } from '#mcp-sdk/shared/auth.js';
import type { Owner, UpstreamCredentials } from '../../kernel/index.js';

export interface Grant {
  /** The authorization server that issued it (single sign-on reuses grants of the same one). */
  issuer: string;
  serverUrl: string;
  tokens: OAuthTokens;
  obtainedAt: number;
  /** Epoch milliseconds; undefined when the token response named no lifetime. */
  expiresAt?: number;
  discovery?: OAuthDiscoveryState;
}

/** Refreshes a grant at its authorization server; undefined when it cannot be. */
export type Refresh = (grant: Grant) => Promise<Grant | undefined>;

/** Refresh this long before expiry, at most: a minute, or half the token's lifetime when shorter. */
const MAX_EARLY_MS = 60_000;

export function grantOf(tokens: OAuthTokens, issuer: string, serverUrl: string, discovery: OAuthDiscoveryState | undefined, now: number): Grant {
  const grant: Grant = { issuer, serverUrl, tokens, obtainedAt: now };
  if (typeof tokens.expires_in === 'number') grant.expiresAt = now + tokens.expires_in * 1000;
  if (discovery) grant.discovery = discovery;
  return grant;
}

export class Grants implements UpstreamCredentials {
  private readonly byServer = new Map<string, Map<Owner, Grant>>();
  private readonly renewing = new WeakMap<Grant, Promise<string | undefined>>();

  constructor(
    private readonly refresh: Refresh,
    private readonly now: () => number = Date.now,
    /** Told whenever `owner`'s grant changed or went (what persistence writes). */
    private readonly changed: (owner: Owner, grant: Grant) => void = () => undefined,
  ) {}

  /** The servers `owner` uses `grant` for (more than one after single sign-on). */
  serversUsing(owner: Owner, grant: Grant): string[] {
    return [...this.byServer].filter(([, owners]) => owners.get(owner) === grant).map(([server]) => server);
  }

  owners(server: string): readonly Owner[] {
    return [...(this.byServer.get(server)?.keys() ?? [])];
  }

  has(server: string, owner: Owner): boolean {
    return this.byServer.get(server)?.has(owner) ?? false;
  }

  get(server: string, owner: Owner): Grant | undefined {
    return this.byServer.get(server)?.get(owner);
  }

  put(server: string, owner: Owner, grant: Grant): void {
    let owners = this.byServer.get(server);
    if (!owners) this.byServer.set(server, (owners = new Map<Owner, Grant>()));
    const before = owners.get(owner);
    owners.set(owner, grant);
    if (before && before !== grant) this.changed(owner, before);
    this.changed(owner, grant);
  }

  /** Grants kept from before a restart (not written back). */
  restore(owner: Owner, servers: readonly string[], grant: Grant): void {
    for (const server of servers) {
      let owners = this.byServer.get(server);
      if (!owners) this.byServer.set(server, (owners = new Map<Owner, Grant>()));
      owners.set(owner, grant);
    }
  }

  /**
   * `owner`'s grant from `issuer` as another replica left it (undefined: gone), replacing this
   * replica's copy without writing it back. Returns every server whose grant changed here.
   */
  adopt(owner: Owner, issuer: string, servers: readonly string[], grant: Grant | undefined): string[] {
    const same = (a: string) => a.replace(/\/+$/, '') === issuer.replace(/\/+$/, '');
    const touched = new Set<string>();
    for (const [server, owners] of this.byServer) {
      const held = owners.get(owner);
      if (held && same(held.issuer) && !(grant && servers.includes(server))) {
        owners.delete(owner);
        if (owners.size === 0) this.byServer.delete(server);
        touched.add(server);
      }
    }
    if (grant) {
      this.restore(owner, servers, grant);
      for (const server of servers) touched.add(server);
    }
    return [...touched];
  }

  /** A grant `owner` holds from `issuer` (with or without a trailing slash): what single sign-on reuses. */
  atIssuer(owner: Owner, issuer: string): Grant | undefined {
    return this.holding(owner, issuer)?.grant;
  }

  private holding(owner: Owner, issuer: string): { server: string; grant: Grant } | undefined {
    const same = (a: string) => a.replace(/\/+$/, '') === issuer.replace(/\/+$/, '');
    for (const [server, owners] of this.byServer) {
      const grant = owners.get(owner);
      if (grant && same(grant.issuer)) return { server, grant };
    }
    return undefined;
  }

  async release(owner: Owner, issuer: string): Promise<{ accessToken: string; expiresAt?: number } | undefined> {
    const held = this.holding(owner, issuer);
    if (!held) return undefined;
    const accessToken = await this.accessToken(held.server, owner);
    if (!accessToken) return undefined;
    const now = this.get(held.server, owner);
    return now?.expiresAt !== undefined ? { accessToken, expiresAt: now.expiresAt } : { accessToken };
  }

  /** Every owner and issuer this replica holds a grant for, once each. */
  held(): { owner: Owner; issuer: string }[] {
    const seen = new Map<string, { owner: Owner; issuer: string }>();
    for (const owners of this.byServer.values())
      for (const [owner, grant] of owners) seen.set(`${owner}\u0000${grant.issuer}`, { owner, issuer: grant.issuer });
    return [...seen.values()];
  }

  /** Servers `owner` holds a grant for. */
  serversOf(owner: Owner): string[] {
    return [...this.byServer].filter(([, owners]) => owners.has(owner)).map(([server]) => server);
  }

  async forget(server: string, owner: Owner): Promise<void> {
    const owners = this.byServer.get(server);
    const grant = owners?.get(owner);
    owners?.delete(owner);
    if (owners?.size === 0) this.byServer.delete(server);
    if (grant) this.changed(owner, grant);
  }

  accessToken(server: string, owner: Owner, renew = false): Promise<string | undefined> {
    const grant = this.get(server, owner);
    if (!grant) return Promise.resolve(undefined);
    if (!renew && !this.expiring(grant)) return Promise.resolve(grant.tokens.access_token);
    let pending = this.renewing.get(grant);
    if (!pending) {
      pending = this.renew(owner, grant).finally(() => this.renewing.delete(grant));
      this.renewing.set(grant, pending);
    }
    return pending;
  }

  private expiring(grant: Grant): boolean {
    if (grant.expiresAt === undefined) return false;
    const early = Math.min(MAX_EARLY_MS, (grant.expiresAt - grant.obtainedAt) / 2);
    return this.now() >= grant.expiresAt - early;
  }

  /** Refreshes `grant` in place (every server sharing it sees the new tokens), or drops it everywhere. */
  private async renew(owner: Owner, grant: Grant): Promise<string | undefined> {
    const next = grant.tokens.refresh_token ? await this.refresh(grant).catch(() => undefined) : undefined;
    if (!next) {
      for (const server of this.serversOf(owner)) if (this.get(server, owner) === grant) await this.forget(server, owner);
      return undefined;
    }
    Object.assign(grant, { tokens: next.tokens, obtainedAt: next.obtainedAt, expiresAt: next.expiresAt });
    this.changed(owner, grant);
    return grant.tokens.access_token;
  }
}
