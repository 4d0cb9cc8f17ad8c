/**
 * The authorization server itself is oidc-provider (a certified OpenID provider, a Koa
 * application): authorize, token, registration, revocation, introspection, userinfo, JWKS,
 * DPoP and client metadata documents are its code. This module configures it to the
 * interface: opaque access tokens whose aud is this resource, 30 minutes capped to the
 * identity provider's token, rotating refresh tokens rolling for sessionDuration, PKCE
 * (S256) required for every client, sign-in handed to /oauth/interaction (sign-in.ts).
 */
import { randomBytes } from 'node:crypto';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { PrivateAddressError, resolveChecked } from '../../lib/net/pinned-fetch.js';
import type { TrustedIssuer, UpstreamCredentials } from '../../kernel/index.js';
import type { Accounts } from './accounts.js';
import { registerTokenExchange } from './token-exchange.js';
import { brokerClientMetadata } from './broker.js';
import type { Broker } from './broker-settings.js';
import { accessTokenLifetime, refreshTokenLifetime } from './lifetimes.js';
import { providerAdapter } from './provider-adapter.js';
import type { Revocation } from './verified-tokens.js';
import { INTERACTION_PATH, OIDC_SCOPES, RESOURCE_SCOPE, ROUTES, sameResource, SILENT_PARAM } from './paths.js';
import type { SealedStore } from '../../lib/grants/sealed-store.js';
import type { AuthServerSettings } from './settings.js';
import type { ClientLedger } from './client-ledger.js';

interface Keys {
  signing: JWK;
  cookies: string[];
}

/**
 * Signing and cookie keys: generated once, kept in the store (sealed) so a restart with
 * persistent storage keeps them. Created atomically (create-or-read): replicas starting
 * together on an empty store each propose keys, one proposal is kept, and every replica
 * serves the kept one (issue 36: a read-then-write let each keep its own).
 */
async function keysFrom(store: SealedStore): Promise<Keys> {
  const kept = await store.get<Keys>('Keys', 'current');
  if (kept) return kept.payload;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const signing = { ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig', kid: randomBytes(8).toString('hex') };
  return store.create<Keys>('Keys', 'current', { payload: { signing, cookies: [randomBytes(32).toString('base64url')] } });
}

/** The identity claims a token's scopes release. */
function claimsFor(record: { subject: string; claims: Record<string, unknown> }): { sub: string; [claim: string]: unknown } {
  const { sub: _sub, iss: _iss, aud: _aud, exp: _exp, iat: _iat, nonce: _nonce, at_hash: _a, auth_time: _t, azp: _azp, sid: _sid, ...claims } = record.claims;
  return { ...claims, sub: record.subject };
}

export async function createProvider(
  settings: AuthServerSettings,
  exchange: { trustedIssuers: TrustedIssuer[]; broker?: Broker; credentials?: () => UpstreamCredentials | undefined },
  store: SealedStore,
  accounts: Accounts,
  now: () => number,
  log: { debug(m: string): void; error(m: string): void },
  revoked: (revocation: Revocation) => Promise<void>,
  clients: ClientLedger,
): Promise<Provider> {
  const keys = await keysFrom(store);
  const refreshTtl = (accountId: string | undefined): number =>
    refreshTokenLifetime(now(), settings.sessionSeconds, accountId ? accounts.cached(accountId)?.tokens.sessionEndsAt : undefined);
  const configuration: Configuration = {
    // Broker clients come from the configuration, with the secret in use at each lookup (read
    // again at most once a second); every other client registers itself.
    adapter: providerAdapter(store, now, revoked, clients, async (id) => {
      const secret = exchange.broker?.clients.get(id);
      return secret ? brokerClientMetadata(id, await secret.fresh()) : undefined;
    }),
    clients: [],
    findAccount: async (ctx: KoaContextWithOIDC, sub: string) => {
      // At the token endpoint (code exchange, refresh) the identity provider's tokens are kept fresh.
      const record = ctx.oidc.route === 'token' ? await accounts.fresh(sub) : await accounts.find(sub);
      if (!record) return undefined;
      return { accountId: sub, claims: async () => claimsFor(record) };
    },
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username', 'given_name', 'family_name', 'picture', 'locale'],
      email: ['email', 'email_verified'],
      groups: ['groups'],
    },
    // The resource's scope is also an OP scope: clients register with it (RFC 7591 `scope`) and it is granted alongside.
    scopes: [...OIDC_SCOPES, RESOURCE_SCOPE],
    cookies: { keys: keys.cookies },
    jwks: { keys: [keys.signing] },
    pkce: { required: () => true },
    responseTypes: ['code'],
    extraParams: [SILENT_PARAM],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    routes: ROUTES,
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    rotateRefreshToken: true,
    // A refresh token outlives the browser session at this server: it lasts sessionDuration, rolling.
    expiresWithSession: async () => false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: (_ctx, token) => accessTokenLifetime(now(), token.accountId ? accounts.cached(token.accountId)?.tokens.accessExpiresAt : undefined),
      RefreshToken: (_ctx, token) => refreshTtl(token.accountId),
      Grant: (_ctx, grant) => refreshTtl(grant.accountId),
      Session: () => settings.sessionSeconds,
      Interaction: () => 10 * 60,
      AuthorizationCode: () => 60,
      IdToken: () => 30 * 60,
    },
    features: {
      devInteractions: { enabled: false },
      // Gated in front too (registration.ts): closed is not advertised, token is checked twice.
      registration: {
        enabled: settings.registration.mode !== 'closed',
        initialAccessToken: settings.registration.mode === 'token' ? settings.registration.token! : false,
        // No RFC 7592 token: nothing here reads or manages a registration afterwards, and each would be one more record per registration.
        issueRegistrationAccessToken: false,
      },
      revocation: { enabled: true },
      introspection: { enabled: true },
      userinfo: { enabled: true },
      dPoP: { enabled: true },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        // Checked before the fetch for a clear refusal; the connection itself is checked again
        // by oidc-provider's guarded dispatcher, so a second DNS answer cannot slip through.
        allowFetch: async (_ctx, clientId) => {
          try {
            await resolveChecked(clientId, settings.allowPrivateClientMetadata);
            return true;
          } catch (err) {
            if (err instanceof PrivateAddressError) {
              throw new errors.InvalidClient(
                `client_id ${clientId} resolves to a private or internal address (${err.address}); metadata documents must be public (aggregator.oauth.server.allowPrivateIPClientMetadata allows it)`,
              );
            }
            throw new errors.InvalidClient(`client_id ${clientId}: its host cannot be resolved (${(err as Error).message})`);
          }
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => settings.audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (!sameResource(resource, settings.audience)) {
            throw new errors.InvalidTarget(`resource '${resource}' is not served here; this server issues tokens for ${settings.audience}`);
          }
          return { scope: RESOURCE_SCOPE, audience: settings.audience, accessTokenFormat: 'opaque' };
        },
      },
    },
    // With private metadata documents allowed, the connection-level guard steps aside too.
    fetch: (url, init) => {
      const options = settings.allowPrivateClientMetadata ? { ...init, dispatcher: undefined } : init;
      return globalThis.fetch(url, options);
    },
    // Errors are answered as JSON: there is no page to render, and a browser shows JSON plainly.
    renderError: (ctx, out) => {
      ctx.type = 'application/json';
      ctx.body = out;
    },
  };
  const provider = new Provider(settings.issuer, configuration);
  provider.proxy = true;
  registerTokenExchange(provider, settings, exchange.trustedIssuers, accounts, now, exchange.broker, exchange.credentials);
  // Why a request was refused, for the operator (clients see only the standard error).
  const explain = (event: string) => (_ctx: unknown, err: { error?: string; error_description?: string; error_detail?: string }) =>
    log.debug(`${event}: ${err.error ?? 'error'}: ${err.error_description ?? ''}${err.error_detail ? ` (${err.error_detail})` : ''}`);
  for (const event of ['grant.error', 'authorization.error', 'registration_create.error', 'introspection.error', 'revocation.error', 'userinfo.error']) {
    (provider as unknown as NodeJS.EventEmitter).on(event, explain(event));
  }
  provider.on('server_error', (_ctx: unknown, err: Error) => log.error(`authorization server error: ${err.stack ?? err.message}`));
  // The grant behind a rolling refresh token rolls with it: each rotation extends it to the new token's end.
  provider.on('refresh_token.saved', (token: { grantId?: string; accountId?: string }) => {
    if (!token.grantId) return;
    const until = Math.floor(now()) + refreshTtl(token.accountId);
    void provider.Grant.find(token.grantId).then(async (grant) => {
      if (!grant || (typeof grant.exp === 'number' && grant.exp >= until)) return;
      grant.exp = until;
      await grant.save();
    });
  });
  return provider;
}
