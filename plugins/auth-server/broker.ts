/**
 * Brokered token exchange (RFC 8693) for confidential broker clients: a broker presents a
 * person's Switchboard access token and names an audience from its allowlist; Switchboard
 * exchanges the person's identity-provider ID token at that audience's downstream token
 * endpoint (Dex-style, with a connector that trusts the identity provider) and hands back
 * the downstream token, with no refresh token and expires_in bounded by the downstream
 * token. DPoP is refused here (the downstream token cannot be bound); the client's own scope
 * is ignored (the target's scopes are asked).
 */
import type { UpstreamCredentials } from '../../kernel/index.js';
import type Provider from 'oidc-provider';
import { errors, type ClientMetadata, type TokenEndpointGrantContext } from 'oidc-provider';
import { ACCESS_TOKEN_TYPE, exchangeAtIdp, IdpExchangeError, type IdpExchangeResult } from '../../lib/oauth/idp-token-exchange.js';
import type { Accounts } from './accounts.js';
import type { Broker } from './broker-settings.js';
import { sameResource } from './paths.js';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

/**
 * A broker client as oidc-provider reads it from the adapter (provider.ts): confidential, token
 * exchange only, with the secret in use now. Not a static client, whose secret could not be
 * renewed without a restart.
 */
export function brokerClientMetadata(client_id: string, client_secret: string): ClientMetadata {
  return {
    client_id,
    client_secret,
    grant_types: [EXCHANGE],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
  };
}

function fail(error: string, description: string): Error {
  return new errors.CustomOIDCProviderError(error, description);
}

export async function brokeredExchange(
  ctx: TokenEndpointGrantContext<{ subject_token?: string; subject_token_type?: string; audience?: string; resource?: string }>,
  deps: { broker: Broker; provider: Provider; accounts: Accounts; audience: string; now: () => number; credentials: () => UpstreamCredentials | undefined },
): Promise<void> {
  const { params, client } = ctx.oidc;
  const clientId = client.clientId;
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

  const { clientId: targetClient, secret } = target.credentials!;
  const exchange = (clientSecret: string) =>
    exchangeAtIdp({
      endpoint: target.config.idpTokenEndpoint!,
      expectedIssuer: target.config.expectedIssuer || new URL(target.config.idpTokenEndpoint!).origin,
      connectorId: target.config.connectorId!,
      scopes: target.config.scopes,
      clientId: targetClient,
      clientSecret,
      subjectToken: idToken,
      allowPrivate: deps.broker.allowPrivate,
      now: () => deps.now(),
    });
  let exchanged: IdpExchangeResult;
  try {
    const sent = secret.current;
    exchanged = await exchange(sent).catch(async (err: unknown) => {
      // The provider refused Switchboard's secret: renewed where it is kept since, the exchange is sent once more with it.
      if (err instanceof IdpExchangeError && err.providerError === 'invalid_client' && (await secret.refused(sent))) return exchange(secret.current);
      throw err;
    });
  } catch (err) {
    if (err instanceof IdpExchangeError) throw fail(err.code, err.message);
    throw err;
  }
  ctx.body = {
    access_token: exchanged.accessToken,
    issued_token_type: exchanged.issuedTokenType,
    token_type: exchanged.tokenType,
    ...(exchanged.expiresIn !== undefined ? { expires_in: exchanged.expiresIn } : {}),
  };
}
