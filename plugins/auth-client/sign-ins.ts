/**
 * Sign-ins in progress: the ticket core_auth_login hands out (bound to the caller and the
 * server, single use, ten minutes), the flow it starts at /oauth/proxy/start, and the code
 * exchange at the callback that turns into the caller's grant. Also the two things done
 * with a grant outside a browser: reuse at the same authorization server (single sign-on)
 * and refresh. Tickets and flows are kept as SingleUseValues, shared between replicas in
 * cluster mode: the browser may start on one replica and come back to another.
 */
import { randomBytes } from 'node:crypto';
import type { OAuthDiscoveryState } from '#mcp-sdk/client/auth.js';
import type { OAuthClientInformationMixed } from '#mcp-sdk/shared/auth.js';
import type { FetchLike } from '#mcp-sdk/shared/transport.js';
import type { Owner, SignInTarget, SingleUseValues, UpstreamRegistry } from '../../kernel/index.js';
import { challengeParams, FlowProvider, type FlowSettings } from './flow.js';
import type { ClientRegistry } from './clients.js';
import { grantOf, type Grant, type Grants } from './grants.js';
import { checkResponseIssuer, IssuerError, issuerKey, type ExpectedIssuer, type IssuerRefusal } from './issuer.js';

/**
 * The SDK's OAuth client, loaded at the first sign-in: it brings pkce-challenge and the SDK's
 * auth schemas, which every start loaded though most never sign in to an upstream.
 */
type SdkAuth = typeof import('#mcp-sdk/client/auth.js');
const sdkAuth = (): Promise<SdkAuth> => import('#mcp-sdk/client/auth.js');
const auth = async (...args: Parameters<SdkAuth['auth']>): ReturnType<SdkAuth['auth']> => (await sdkAuth()).auth(...args);
const discoverOAuthServerInfo = async (...args: Parameters<SdkAuth['discoverOAuthServerInfo']>): ReturnType<SdkAuth['discoverOAuthServerInfo']> =>
  (await sdkAuth()).discoverOAuthServerInfo(...args);

const TICKET_MS = 10 * 60_000;

const TICKET = 'auth-client ticket';
const FLOW = 'auth-client flow';

interface Ticket {
  owner: Owner;
  server: string;
  /** The URL-mode elicitation the link was offered as, whose client hears when the sign-in completes. */
  elicitationId?: string;
}

/** A flow in progress as kept between the start and the callback (JSON: any replica may finish it). */
interface PendingRecord extends Ticket {
  target: SignInTarget;
  redirect?: string;
  verifier: string;
  discovery?: OAuthDiscoveryState;
  /** The registration the start used, for a replica that did not make it. */
  client?: { issuer: string; info: OAuthClientInformationMixed };
  /** Recorded with the verifier before the browser left (RFC 9207): what the response's `iss` must be. */
  expected?: ExpectedIssuer;
}

interface Pending extends Ticket {
  provider: FlowProvider;
  target: SignInTarget;
  redirect?: string;
  expected?: ExpectedIssuer;
}

export type Outcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'signed-in'; server: string; redirect?: string }
  | { kind: 'refused'; status: 400 | 404 | 409 | 502; message: string; code?: IssuerRefusal };

/** The refusal of an IssuerError, with its code; undefined for any other error. */
function issuerRefusal(err: unknown, status: 400 | 502): Outcome | undefined {
  return err instanceof IssuerError ? { kind: 'refused', status, message: err.message, code: err.code } : undefined;
}

/** An event for core_events; who signed in is not named (any caller may read them). */
export type RecordEvent = (type: 'Normal' | 'Warning', reason: string, server: string, message: string) => void;

export interface SignInParts {
  record: RecordEvent;
  grants: Grants;
  clients: ClientRegistry;
  upstreams: () => UpstreamRegistry;
  flow: () => FlowSettings;
  /** fetch for discovery and token requests about the server at `serverUrl` (SSRF rules applied). */
  fetchFor: (serverUrl: string) => FetchLike;
  now?: () => number;
  /** Where tickets and flows in progress are kept (shared between replicas in cluster mode). */
  values: SingleUseValues;
  /** A sign-in offered as the URL-mode elicitation `elicitationId` came back to the callback. */
  completed?: (elicitationId: string) => void;
}

const token = () => randomBytes(24).toString('base64url');

/**
 * A pinned authorization server stands in for protected-resource discovery (RFC 9728): the
 * SDK takes a discovery state with the issuer and a resource document naming the server's
 * own URL, so it reads only the issuer's metadata, and the RFC 8707 resource it sends is the
 * server's URL whatever the server publishes (or does not).
 */
function pinnedDiscovery(target: SignInTarget): OAuthDiscoveryState | undefined {
  if (!target.pinned) return undefined;
  return { authorizationServerUrl: target.pinned.issuer, resourceMetadata: { resource: target.url, authorization_servers: [target.pinned.issuer] } };
}

export class SignIns {
  private readonly now: () => number;

  constructor(private readonly parts: SignInParts) {
    this.now = parts.now ?? Date.now;
  }

  /** A single-use ticket for `owner` to sign in to `server`, valid ten minutes (offered as the elicitation `elicitationId`, if given). */
  async ticket(owner: Owner, server: string, elicitationId?: string): Promise<{ ticket: string; expiresIn: number }> {
    const t = token();
    const kept: Ticket = { owner, server, ...(elicitationId ? { elicitationId } : {}) };
    await this.parts.values.put(TICKET, t, JSON.stringify(kept), TICKET_MS / 1000);
    return { ticket: t, expiresIn: TICKET_MS / 1000 };
  }

  /** The browser arrived with a ticket: discovery, registration, then off to the authorization server. */
  async begin(ticket: string, redirect: string | undefined): Promise<Outcome> {
    const kept = ticket ? await this.parts.values.take(TICKET, ticket) : undefined;
    const t = kept === undefined ? undefined : (JSON.parse(kept) as Ticket);
    if (!t) return { kind: 'refused', status: 400, message: 'This sign-in link is unknown, used or expired. Ask for a new one with core_auth_login.' };
    const target = this.parts.upstreams().signInTarget(t.server, t.owner);
    if (!target) return { kind: 'refused', status: 409, message: `Server '${t.server}' does not ask for a sign-in any more.` };
    const state = token();
    const provider = new FlowProvider(this.parts.flow(), this.parts.clients, state, undefined, pinnedDiscovery(target));
    const { resourceMetadataUrl, scope: challenged } = challengeParams(target.challenge);
    const scope = target.pinned?.scopes ?? challenged;
    try {
      const result = await auth(provider, {
        serverUrl: target.url,
        ...(resourceMetadataUrl && !target.pinned ? { resourceMetadataUrl } : {}),
        ...(scope ? { scope } : {}),
        fetchFn: this.parts.fetchFor(target.url),
      });
      if (result !== 'REDIRECT' || !provider.authorizationUrl)
        return { kind: 'refused', status: 502, message: `The authorization server of '${t.server}' did not start a sign-in.` };
    } catch (err) {
      return (
        issuerRefusal(err, 502) ?? {
          kind: 'refused',
          status: 502,
          message: `Signing in to '${t.server}' failed before the authorization server: ${(err as Error).message}`,
        }
      );
    }
    const issuer = provider.issuer;
    const expected = provider.expectedIssuer;
    const client = issuer ? this.parts.clients.obtained(issuer) : undefined;
    const record: PendingRecord = {
      owner: t.owner,
      server: t.server,
      ...(t.elicitationId ? { elicitationId: t.elicitationId } : {}),
      target,
      verifier: provider.codeVerifier(),
      ...(redirect ? { redirect } : {}),
      ...(provider.discovered ? { discovery: provider.discovered } : {}),
      ...(issuer && client ? { client: { issuer, info: client } } : {}),
      ...(expected ? { expected } : {}),
    };
    await this.parts.values.put(FLOW, state, JSON.stringify(record), TICKET_MS / 1000);
    return { kind: 'redirect', url: provider.authorizationUrl.href };
  }

  /** The authorization server sent the browser back: exchange the code, keep the grant, connect. */
  async finish(query: Record<string, string | undefined>): Promise<Outcome> {
    const kept = query.state ? await this.parts.values.take(FLOW, query.state) : undefined;
    const p = kept === undefined || !query.state ? undefined : this.resume(query.state, JSON.parse(kept) as PendingRecord);
    const outcome = await this.exchange(p, query);
    // Complete whichever way it ended: the client retries or reports, and its next call tells.
    if (p?.elicitationId) this.parts.completed?.(p.elicitationId);
    if (p && outcome.kind === 'refused')
      this.parts.record('Warning', 'MCPServerSignInFailed', p.server, `a sign-in to '${p.server}' failed: ${outcome.message}`);
    return outcome;
  }

  private async exchange(p: Pending | undefined, query: Record<string, string | undefined>): Promise<Outcome> {
    if (!p) return { kind: 'refused', status: 400, message: 'This sign-in is unknown or expired (no matching state). Start again with core_auth_login.' };
    // Before the code goes anywhere and before an error is shown: a response from another server is dropped whole.
    if (p.expected) {
      try {
        checkResponseIssuer(p.expected, query.iss);
      } catch (err) {
        const refused = issuerRefusal(err, 400);
        if (refused) return refused;
        throw err;
      }
    }
    if (query.error)
      return {
        kind: 'refused',
        status: 400,
        message: `The authorization server of '${p.server}' refused the sign-in: ${query.error}${query.error_description ? ` (${query.error_description})` : ''}`,
      };
    if (!query.code) return { kind: 'refused', status: 400, message: 'The authorization server sent no code back.' };
    const { resourceMetadataUrl } = challengeParams(p.target.challenge);
    try {
      await auth(p.provider, {
        serverUrl: p.target.url,
        authorizationCode: query.code,
        ...(resourceMetadataUrl && !p.target.pinned ? { resourceMetadataUrl } : {}),
        fetchFn: this.parts.fetchFor(p.target.url),
      });
    } catch (err) {
      return { kind: 'refused', status: 502, message: `Exchanging the sign-in of '${p.server}' for a token failed: ${(err as Error).message}` };
    }
    const tokens = p.provider.obtained;
    if (!tokens) return { kind: 'refused', status: 502, message: `The authorization server of '${p.server}' issued no token.` };
    // Kept under the checked issuer: two authorization servers never share a grant.
    const issuer = issuerKey(p.provider.issuer ?? (tokens as { issuer?: string }).issuer ?? p.target.url);
    return this.keep(p.owner, p.server, grantOf(tokens, issuer, p.target.url, p.provider.discovered, this.now()), p.redirect);
  }

  /**
   * Single sign-on: `owner` already holds a grant from the authorization server `server`
   * uses. It is tried on `server` as is; undefined when there is none or the server refuses it.
   */
  async reuse(owner: Owner, server: string, target: SignInTarget): Promise<string | undefined> {
    // Nothing to reuse: no discovery round trip.
    if (this.parts.grants.serversOf(owner).length === 0) return undefined;
    let issuer: string;
    try {
      const { resourceMetadataUrl } = challengeParams(target.challenge);
      issuer =
        target.pinned?.issuer ??
        (
          await discoverOAuthServerInfo(target.url, {
            ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
            fetchFn: this.parts.fetchFor(target.url),
          })
        ).authorizationServerUrl;
    } catch {
      return undefined;
    }
    const existing = this.parts.grants.atIssuer(owner, issuer);
    if (!existing) return undefined;
    const outcome = await this.keep(owner, server, existing);
    return outcome.kind === 'signed-in' ? issuer : undefined;
  }

  /** A refresh at the grant's authorization server (the refresh token is sent where it came from only). */
  readonly refresh = async (grant: Grant): Promise<Grant | undefined> => {
    const provider = new FlowProvider(this.parts.flow(), this.parts.clients, token(), grant.tokens, grant.discovery);
    const result = await auth(provider, { serverUrl: grant.serverUrl, fetchFn: this.parts.fetchFor(grant.serverUrl) });
    if (result !== 'AUTHORIZED' || !provider.obtained) return undefined;
    return grantOf(provider.obtained, grant.issuer, grant.serverUrl, provider.discovered ?? grant.discovery, this.now());
  };

  private async keep(owner: Owner, server: string, grant: Grant, redirect?: string): Promise<Outcome> {
    this.parts.grants.put(server, owner, grant);
    try {
      await this.parts.upstreams().grantChanged(server, owner);
    } catch (err) {
      await this.parts.grants.forget(server, owner);
      return { kind: 'refused', status: 502, message: `Signed in, but '${server}' did not accept the token: ${(err as Error).message}` };
    }
    this.parts.record(
      'Normal',
      'MCPServerSignedIn',
      server,
      `${owner.startsWith('person:') ? 'a person' : 'a session'} signed in to '${server}'; its tools are listed for them`,
    );
    return { kind: 'signed-in', server, ...(redirect ? { redirect } : {}) };
  }

  /** The flow as the start left it, on whichever replica the browser came back to. */
  private resume(state: string, record: PendingRecord): Pending {
    if (record.client && !this.parts.clients.get(record.client.issuer)) this.parts.clients.restore(record.client.issuer, record.client.info);
    const provider = new FlowProvider(this.parts.flow(), this.parts.clients, state, undefined, record.discovery);
    provider.saveCodeVerifier(record.verifier);
    return {
      owner: record.owner,
      server: record.server,
      provider,
      target: record.target,
      ...(record.redirect ? { redirect: record.redirect } : {}),
      ...(record.elicitationId ? { elicitationId: record.elicitationId } : {}),
      ...(record.expected ? { expected: record.expected } : {}),
    };
  }
}
