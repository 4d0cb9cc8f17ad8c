/**
 * Brokered token exchange (RFC 8693) for confidential broker clients: a broker presents a
 * person's Switchboard access token and names an audience from its allowlist; Switchboard
 * exchanges the person's identity-provider ID token at that audience's downstream token
 * endpoint (Dex-style, with a connector that trusts the identity provider) and hands back
 * the downstream token, with no refresh token and expires_in bounded by the downstream
 * token. DPoP is refused here (the downstream token cannot be bound); the client's own scope
 * is ignored (the target's scopes are asked).
 */
import type { UpstreamCredentials } from '../../kernel/contracts/sign-in.js';
import type Provider from 'oidc-provider';
import { errors, type ClientMetadata, type TokenEndpointGrantContext } from 'oidc-provider';
import { decodeJwt } from 'jose';
import { PrivateAddressError, pinnedFetch } from '../../lib/net/pinned-fetch.js';
import type { Accounts } from './accounts.js';
import type { Broker } from './broker-settings.js';
import { sameResource } from './paths.js';

const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

/** The broker clients, as oidc-provider's static clients: confidential, token exchange only. */
export function brokerClientMetadata(broker: Broker): ClientMetadata[] {
  return [...broker.clients].map(([client_id, client_secret]) => ({
    client_id,
    client_secret,
    grant_types: [EXCHANGE],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
  }));
}

function fail(error: string, description: string): Error {
  return new errors.CustomOIDCProviderError(error, description);
}

export async function brokeredExchange(
  ctx: TokenEndpointGrantContext<{ subject_token?: string; subject_token_type?: string; audience?: string; resource?: string }>,
  deps: { broker: Broker; provider: Provider; accounts: Accounts; audience: string; now: () => number; credentials: () => UpstreamCredentials | undefined },
): Promise<void> {
  const { params, client } = ctx.oidc;
  const clientId = client!.clientId;
  if (ctx.get('dpop')) throw fail('invalid_request', 'DPoP is not supported for brokered token exchange: the downstream token cannot be bound');
  const audience = params.audience ?? params.resource;
  if (!audience) throw new errors.InvalidRequest('audience is required for a brokered exchange');
  if (!deps.broker.audiences.get(clientId)?.has(audience)) throw new errors.InvalidTarget(`audience '${audience}' is not allowed for client '${clientId}'`);
  const target = deps.broker.targets.get(audience);
  if (!target) throw new errors.InvalidTarget(`audience '${audience}' has no target configured`);
  if (params.subject_token_type !== ACCESS_TOKEN_TYPE || !params.subject_token)
    throw new errors.InvalidRequest(
      `a brokered exchange takes the person's access token from this server as subject_token (subject_token_type ${ACCESS_TOKEN_TYPE})`,
    );

  const subjectToken = await deps.provider.AccessToken.find(params.subject_token);
  const aud = subjectToken ? (Array.isArray(subjectToken.aud) ? subjectToken.aud : [subjectToken.aud]) : [];
  if (!subjectToken?.accountId || !aud.some((a) => typeof a === 'string' && sameResource(a, deps.audience)))
    throw fail('invalid_grant', 'subject_token is not a valid access token of this server');
  const person = subjectToken.accountId;

  if (target.config.grantIssuer) {
    // The person's own grant at that authorization server, from signing in there through the
    // OAuth client: its access token (refreshed first when due), never its refresh token.
    const released = await deps.credentials()?.release(`person:${person}`, target.config.grantIssuer);
    if (!released) throw new errors.InvalidTarget(`'${person}' has no grant at ${target.config.grantIssuer}`);
    ctx.body = {
      access_token: released.accessToken,
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_type: 'Bearer',
      ...(released.expiresAt !== undefined ? { expires_in: Math.max(0, Math.floor((released.expiresAt - deps.now() * 1000) / 1000)) } : {}),
    };
    return;
  }
  const account = await deps.accounts.fresh(person);
  const idToken = account?.tokens.idToken;
  if (!idToken) throw fail('invalid_grant', `no identity-provider sign-in is on record for '${person}'; they must sign in again`);

  const form = new URLSearchParams({
    grant_type: EXCHANGE,
    subject_token: idToken,
    subject_token_type: ID_TOKEN_TYPE,
    requested_token_type: ACCESS_TOKEN_TYPE,
    connector_id: target.config.connectorId!,
    scope: target.config.scopes,
  });
  const basic = Buffer.from(`${encodeURIComponent(target.credentials!.clientId)}:${encodeURIComponent(target.credentials!.secret)}`).toString('base64');
  let response: Response;
  try {
    response = await pinnedFetch({ allowPrivate: deps.broker.allowPrivate })(target.config.idpTokenEndpoint!, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, accept: 'application/json' },
      body: form,
    });
  } catch (err) {
    if (err instanceof PrivateAddressError) throw fail('invalid_target', `downstream token endpoint: ${err.message} (DNS rebinding protection)`);
    throw fail('temporarily_unavailable', `the downstream token endpoint cannot be reached: ${(err as Error).message}`);
  }
  const body = (await response.json().catch(() => ({}))) as {
    access_token?: string;
    token_type?: string;
    expires_in?: number;
    issued_token_type?: string;
    error?: string;
    error_description?: string;
  };
  if (!response.ok || !body.access_token) {
    throw fail(
      'invalid_grant',
      `the downstream identity provider refused the exchange: ${body.error ?? `HTTP ${response.status}`}${body.error_description ? `: ${body.error_description}` : ''}`,
    );
  }
  const expectedIssuer = target.config.expectedIssuer || new URL(target.config.idpTokenEndpoint!).origin;
  let expiresIn = typeof body.expires_in === 'number' ? body.expires_in : undefined;
  try {
    const claims = decodeJwt(body.access_token);
    if (claims.iss !== undefined && claims.iss !== expectedIssuer && claims.iss !== `${expectedIssuer}/`)
      throw fail('invalid_grant', `the downstream token's issuer '${claims.iss}' is not ${expectedIssuer}`);
    if (typeof claims.exp === 'number') expiresIn = Math.min(expiresIn ?? Infinity, claims.exp - Math.floor(deps.now()));
  } catch (err) {
    if (err instanceof errors.OIDCProviderError) throw err;
    // An opaque downstream token: its expires_in is all there is to go by.
  }
  ctx.body = {
    access_token: body.access_token,
    issued_token_type: body.issued_token_type ?? ACCESS_TOKEN_TYPE,
    token_type: body.token_type ?? 'Bearer',
    ...(expiresIn !== undefined ? { expires_in: Math.max(0, Math.floor(expiresIn)) } : {}),
  };
}
