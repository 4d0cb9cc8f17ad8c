/**
 * One RFC 8693 exchange at a remote identity provider's token endpoint (Dex-style: a
 * connector there trusts Switchboard's identity provider): a person's ID token in, that
 * provider's access token out. The broker's brokered exchange (auth-server) and the
 * per-server exchange (upstreams, auth.tokenExchange) both send exactly this request, so it
 * lives here once; each maps the typed failure to its own surface.
 *
 * Every request goes through the pinned fetch: an endpoint whose name resolves to a private,
 * loopback or link-local address is refused unless `allowPrivate` (DNS rebinding protection).
 */
import { decodeJwt } from 'jose/jwt/decode';
import { PrivateAddressError, pinnedFetch } from '../net/pinned-fetch.js';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

export interface IdpExchangeRequest {
  endpoint: string;
  /** The iss the exchanged token must carry (with or without a trailing slash). */
  expectedIssuer: string;
  connectorId: string;
  scopes: string;
  clientId: string;
  clientSecret: string;
  subjectToken: string;
  allowPrivate: boolean;
  /**
   * The clock (epoch seconds), read when the answer arrives: a lifetime counted from before the
   * request could outlast the token by the second that passed while the provider issued it.
   */
  now: () => number;
}

export interface IdpExchangeResult {
  accessToken: string;
  tokenType: string;
  issuedTokenType: string;
  /** Seconds, the smaller of the answer's expires_in and the token's own exp; absent when neither says. */
  expiresIn?: number;
}

/**
 * Why an exchange failed, as an OAuth error code: `invalid_target` (the endpoint is at a
 * refused address), `temporarily_unavailable` (unreachable), `invalid_grant` (the provider
 * refused, or its token is not from the expected issuer).
 */
export class IdpExchangeError extends Error {
  constructor(
    readonly code: 'invalid_target' | 'temporarily_unavailable' | 'invalid_grant',
    message: string,
    /** The provider's own error code, when it answered with one (`invalid_client`: it refused the client's secret). */
    readonly providerError?: string,
  ) {
    super(message);
    this.name = 'IdpExchangeError';
  }
}

/** Bounded: an identity provider's answer is a small JSON document. */
const MAX_ANSWER_BYTES = 64 * 1024;
const TIMEOUT_MS = 15_000;

async function answerOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text().catch(() => '');
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function exchangeAtIdp(req: IdpExchangeRequest): Promise<IdpExchangeResult> {
  const form = new URLSearchParams({
    grant_type: EXCHANGE,
    subject_token: req.subjectToken,
    subject_token_type: ID_TOKEN_TYPE,
    requested_token_type: ACCESS_TOKEN_TYPE,
    connector_id: req.connectorId,
    scope: req.scopes,
  });
  const basic = Buffer.from(`${encodeURIComponent(req.clientId)}:${encodeURIComponent(req.clientSecret)}`).toString('base64');
  let response: Response;
  try {
    // The pinned fetch follows no redirect: the person's token goes to the endpoint named, nowhere else.
    response = await pinnedFetch({ allowPrivate: req.allowPrivate, maxBodyBytes: MAX_ANSWER_BYTES, timeoutMs: TIMEOUT_MS })(req.endpoint, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, accept: 'application/json' },
      body: form,
    });
  } catch (err) {
    if (err instanceof PrivateAddressError)
      throw new IdpExchangeError('invalid_target', `downstream token endpoint: ${err.message} (DNS rebinding protection)`);
    throw new IdpExchangeError('temporarily_unavailable', `the downstream token endpoint cannot be reached: ${(err as Error).message}`);
  }
  const body = await answerOf(response);
  const accessToken = typeof body.access_token === 'string' ? body.access_token : undefined;
  if (!response.ok || !accessToken) {
    const error = typeof body.error === 'string' ? body.error : `HTTP ${response.status}`;
    const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
    throw new IdpExchangeError(
      'invalid_grant',
      `the downstream identity provider refused the exchange: ${error}${description}`,
      typeof body.error === 'string' ? body.error : undefined,
    );
  }
  let expiresIn = typeof body.expires_in === 'number' ? body.expires_in : undefined;
  let claims: ReturnType<typeof decodeJwt> | undefined;
  try {
    claims = decodeJwt(accessToken);
  } catch {
    // An opaque downstream token: its expires_in is all there is to go by.
  }
  if (claims) {
    const expected = req.expectedIssuer.replace(/\/$/, '');
    if (claims.iss !== undefined && claims.iss !== expected && claims.iss !== `${expected}/`)
      throw new IdpExchangeError('invalid_grant', `the downstream token's issuer '${claims.iss}' is not ${expected}`);
    if (typeof claims.exp === 'number') expiresIn = Math.min(expiresIn ?? Infinity, claims.exp - Math.floor(req.now()));
  }
  return {
    accessToken,
    tokenType: typeof body.token_type === 'string' ? body.token_type : 'Bearer',
    issuedTokenType: typeof body.issued_token_type === 'string' ? body.issued_token_type : ACCESS_TOKEN_TYPE,
    ...(expiresIn !== undefined ? { expiresIn: Math.max(0, Math.floor(expiresIn)) } : {}),
  };
}
