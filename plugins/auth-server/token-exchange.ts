/**
 * Token exchange (RFC 8693) at /oauth/token for subject tokens of trusted issuers: a JWT
 * (id_token, access_token or jwt) from an issuer listed in trustedIssuers, verified against
 * that issuer's key set, its audience within allowedAudiences, the scope asked within
 * allowedScopes, every allowedClaims pattern matched. The result is one of Switchboard's own
 * access tokens for this resource, for the token's subject, living no longer than the
 * subject token (ttl.AccessToken caps it by the account's expiry); no refresh token (the
 * client exchanges again). Broker clients take the brokered path (broker.ts).
 */
import type Provider from 'oidc-provider';
import { errors, type TokenEndpointGrantContext } from 'oidc-provider';
import { createRemoteJWKSet, customFetch, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import type { TrustedIssuer } from '../../kernel/config/settings.js';
import { compileGlob, type Glob } from '../../lib/glob.js';
import { pinnedFetch } from '../../lib/net/pinned-fetch.js';
import type { Accounts } from './accounts.js';
import { brokeredExchange } from './broker.js';
import type { Broker } from './broker-settings.js';
import type { UpstreamCredentials } from '../../kernel/contracts/sign-in.js';
import { RESOURCE_SCOPE, sameResource } from './paths.js';
import type { AuthServerSettings } from './settings.js';

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const SUBJECT_TYPES = new Set([
  'urn:ietf:params:oauth:token-type:id_token',
  'urn:ietf:params:oauth:token-type:access_token',
  'urn:ietf:params:oauth:token-type:jwt',
]);
const ISSUED_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** invalid_grant with the reason as its description (oidc-provider's own InvalidGrant keeps reasons to itself). */
function invalidGrant(description: string): Error {
  return new errors.CustomOIDCProviderError('invalid_grant', description);
}

interface Trusted {
  config: TrustedIssuer;
  keys: ReturnType<typeof createRemoteJWKSet>;
  claims: [name: string, pattern: Glob, written: string][];
}

interface ExchangeParams {
  subject_token?: string;
  subject_token_type?: string;
  requested_token_type?: string;
  audience?: string;
  resource?: string;
  scope?: string;
}

/** The scopes a token carries (`scope` as a string, or `scp` as a list). */
function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(' ').filter(Boolean);
  if (Array.isArray(payload.scp)) return payload.scp.filter((s): s is string => typeof s === 'string');
  return [];
}

export function registerTokenExchange(
  provider: Provider,
  settings: AuthServerSettings,
  trustedIssuers: TrustedIssuer[],
  accounts: Accounts,
  now: () => number,
  broker?: Broker,
  credentials: () => UpstreamCredentials | undefined = () => undefined,
): void {
  const trusted = new Map<string, Trusted>();
  for (const config of trustedIssuers) {
    trusted.set(config.issuer, {
      config,
      keys: createRemoteJWKSet(new URL(config.jwksUrl), { [customFetch]: pinnedFetch({ allowPrivate: config.allowPrivateIPJWKS }) }),
      claims: Object.entries(config.allowedClaims).map(([name, pattern]) => [name, compileGlob(pattern, true, false), pattern]),
    });
  }

  const handler = async (ctx: TokenEndpointGrantContext<ExchangeParams>): Promise<void> => {
    const { params, client } = ctx.oidc;
    if (broker?.clients.has(client!.clientId)) return brokeredExchange(ctx, { broker, provider, accounts, audience: settings.audience, now, credentials });
    if (!params.subject_token) throw new errors.InvalidRequest('subject_token is required');
    if (!params.subject_token_type || !SUBJECT_TYPES.has(params.subject_token_type)) {
      throw new errors.InvalidRequest(`subject_token_type must be one of ${[...SUBJECT_TYPES].join(', ')}`);
    }
    if (params.requested_token_type && params.requested_token_type !== ISSUED_TYPE)
      throw new errors.InvalidRequest(`requested_token_type: only ${ISSUED_TYPE} is issued`);
    for (const target of [params.resource, params.audience]) {
      if (target && !sameResource(target, settings.audience))
        throw new errors.InvalidTarget(`'${target}' is not served here; this server issues tokens for ${settings.audience}`);
    }

    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(params.subject_token);
    } catch {
      throw invalidGrant('subject_token is not a JWT');
    }
    const issuer = trusted.get(String(unverified.iss));
    if (!issuer) throw invalidGrant(`subject_token issuer '${String(unverified.iss)}' is not a trusted issuer`);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(params.subject_token, issuer.keys, { issuer: issuer.config.issuer, currentDate: new Date(now() * 1000) }));
    } catch (err) {
      throw invalidGrant(`subject_token rejected: ${(err as Error).message}`);
    }
    const audiences = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    const allowed = issuer.config.allowedAudiences;
    if (allowed.length && !audiences.some((a) => allowed.includes(a))) {
      throw invalidGrant(`subject_token audience (${audiences.join(', ') || 'none'}) is not among the allowed audiences of ${issuer.config.issuer}`);
    }
    for (const [name, pattern, written] of issuer.claims) {
      const value = payload[name];
      if (typeof value !== 'string')
        throw invalidGrant(`subject_token claim '${name}' is ${value === undefined ? 'absent' : 'not a string'}; it must match '${written}'`);
      if (!pattern.test(value)) throw invalidGrant(`subject_token claim '${name}' ('${value}') does not match '${written}'`);
    }
    const asked = params.scope ? params.scope.split(' ').filter(Boolean) : scopesOf(payload);
    const ceiling = issuer.config.allowedScopes;
    if (ceiling) {
      const above = asked.filter((s) => !ceiling.includes(s));
      if (above.length) throw new errors.InvalidScope(`scope above the ceiling of ${issuer.config.issuer}: ${above.join(' ')}`, above.join(' '));
    }
    if (typeof payload.sub !== 'string' || !payload.sub) throw invalidGrant('subject_token has no sub');

    // People from the sign-in provider keep their subject; others are named by issuer too, so subjects never collide.
    const subject = issuer.config.issuer === settings.idp.issuer ? payload.sub : `${payload.sub}@${issuer.config.issuer}`;
    const expiresAt = typeof payload.exp === 'number' ? payload.exp : undefined;
    await accounts.exchanged(subject, payload as Record<string, unknown>, expiresAt);
    const grant = new provider.Grant({ accountId: subject, clientId: client!.clientId });
    grant.addResourceScope(settings.audience, RESOURCE_SCOPE);
    const grantId = await grant.save();
    const token = new provider.AccessToken({ accountId: subject, client, grantId, gty: 'token_exchange', scope: RESOURCE_SCOPE, expiresWithSession: false });
    token.resourceServer = new provider.ResourceServer(settings.audience, { scope: RESOURCE_SCOPE, audience: settings.audience, accessTokenFormat: 'opaque' });
    const value = await token.save();
    ctx.body = {
      access_token: value,
      issued_token_type: ISSUED_TYPE,
      token_type: 'Bearer',
      expires_in: token.expiration,
      scope: RESOURCE_SCOPE,
    };
  };
  provider.registerGrantType(TOKEN_EXCHANGE, handler, [
    'subject_token',
    'subject_token_type',
    'requested_token_type',
    'audience',
    'resource',
    'scope',
    'actor_token',
    'actor_token_type',
  ]);
}
