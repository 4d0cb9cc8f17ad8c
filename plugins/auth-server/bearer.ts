/**
 * The gate in front of /mcp, /sse and /message (the kernel's RequestAuthenticator): an
 * opaque access token this server issued, unexpired, for this resource, presented the way
 * it is bound (Bearer, or DPoP with a valid proof). Anything else is a 401 whose
 * WWW-Authenticate points at the protected-resource metadata, where a client learns how
 * to get a token.
 */
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import type { Authentication, RequestAuthenticator } from '../../kernel/index.js';
import type { Accounts } from './accounts.js';
import type { DpopVerifier } from './dpop.js';
import { sameResource } from './paths.js';
import { tokenDigest, type VerifiedToken, type VerifiedTokens } from './verified-tokens.js';
import type { TrustedProxies } from '../../lib/net/trusted-proxies.js';

export interface BearerDeps {
  provider: Provider;
  audience: string;
  issuer: string;
  resourceMetadataUrl: string;
  dpop: DpopVerifier;
  proxies: TrustedProxies;
  now: () => number;
  accounts: Pick<Accounts, 'cached' | 'find'>;
  verified: VerifiedTokens;
}

const quoted = (s: string) => s.replace(/[\\"]/g, '');

/** The identity provider's claims about the person, without those that describe its ID token. */
function personClaims(claims: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!claims) return {};
  const { iss: _iss, aud: _aud, exp: _exp, iat: _iat, nonce: _nonce, at_hash: _a, auth_time: _t, azp: _azp, sid: _sid, ...rest } = claims;
  return rest;
}

export class BearerAuthenticator implements RequestAuthenticator {
  constructor(private readonly deps: BearerDeps) {}

  private refuse(status: 400 | 401 | 403, error: string | undefined, description: string, scheme = 'Bearer'): Authentication {
    const params = [`resource_metadata="${this.deps.resourceMetadataUrl}"`];
    // RFC 6750 section 3.1: no error code when the request carried no credentials at all.
    if (error) params.push(`error="${error}"`, `error_description="${quoted(description)}"`);
    return { kind: 'refused', status, headers: { 'www-authenticate': `${scheme} ${params.join(', ')}` }, error: error ?? 'unauthorized', description };
  }

  /** The token as this replica verified it lately, else as the store has it now (then kept a while). */
  private async verify(value: string): Promise<VerifiedToken | undefined> {
    const digest = tokenDigest(value);
    const known = this.deps.verified.get(digest);
    if (known) return known;
    const mark = this.deps.verified.mark;
    const token = await this.deps.provider.AccessToken.find(value, { ignoreExpiration: true });
    if (!token) return undefined;
    // The person's claims from the identity provider (email, groups) travel with the token's
    // own: authorization decides on them. The token's claims win where names meet.
    const subject = token.accountId;
    const person = (this.deps.accounts.cached(subject) ?? (await this.deps.accounts.find(subject)))?.claims;
    const verified: VerifiedToken = {
      subject,
      clientId: token.clientId,
      scope: token.scope,
      exp: typeof token.exp === 'number' ? token.exp : undefined,
      aud: Array.isArray(token.aud) ? token.aud : [token.aud],
      jkt: token.jkt,
      grantId: token.grantId,
      person,
    };
    this.deps.verified.put(digest, verified, mark);
    return verified;
  }

  async authenticate(req: IncomingMessage, url: URL): Promise<Authentication> {
    const header = req.headers.authorization;
    if (!header)
      return this.refuse(401, undefined, `this endpoint needs an OAuth access token; how to get one is described at ${this.deps.resourceMetadataUrl}`);
    const match = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header);
    if (!match) return this.refuse(400, 'invalid_request', 'the Authorization header must be "Bearer <token>" or "DPoP <token>"');
    const scheme = match[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
    const value = match[2]!;
    const token = await this.verify(value);
    if (!token) return this.refuse(401, 'invalid_token', 'the access token is unknown, revoked or malformed');
    if (typeof token.exp === 'number' && token.exp <= this.deps.now()) return this.refuse(401, 'invalid_token', 'the access token has expired');
    const aud = token.aud;
    if (!aud.some((a) => typeof a === 'string' && sameResource(a, this.deps.audience))) {
      return this.refuse(401, 'invalid_token', `the access token was issued for another resource (${aud.join(', ') || 'none'}), not ${this.deps.audience}`);
    }
    if (token.jkt) {
      if (scheme !== 'DPoP') return this.refuse(401, 'invalid_token', 'the access token is DPoP-bound: present it as "DPoP <token>" with a DPoP proof', 'DPoP');
      const proof = req.headers.dpop;
      const check = await this.deps.dpop.verify(typeof proof === 'string' ? proof : undefined, {
        method: req.method ?? 'GET',
        url: this.deps.proxies.requestUrl(req, url.pathname),
        accessToken: value,
        jkt: token.jkt,
      });
      if (!check.ok) return this.refuse(401, 'invalid_dpop_proof', check.reason, 'DPoP');
    } else if (scheme === 'DPoP') {
      return this.refuse(401, 'invalid_token', 'the access token is not DPoP-bound: present it as "Bearer <token>"');
    }
    const subject = token.subject;
    return {
      kind: 'authenticated',
      identity: {
        subject,
        claims: {
          ...personClaims(token.person),
          iss: this.deps.issuer,
          sub: subject,
          client_id: token.clientId,
          scope: token.scope ?? '',
          aud: this.deps.audience,
          exp: token.exp,
        },
      },
    };
  }
}
