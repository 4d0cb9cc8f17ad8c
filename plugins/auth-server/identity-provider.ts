/**
 * Switchboard as a client of the identity provider people sign in with: OIDC discovery
 * (bounded retry at start-up), the authorization-code flow with PKCE, the ID token checked
 * against the provider's JWKS, and refresh. Protocol work is oauth4webapi's; signature
 * checks are jose's; every outbound request goes through the pinned fetch (SSRF guard).
 */
import * as oauth from 'oauth4webapi';
import { createRemoteJWKSet, customFetch as joseFetch, jwtVerify, type JWTPayload } from 'jose';
import { pinnedFetch } from '../../lib/net/pinned-fetch.js';
import { isLoopbackHost } from '../../lib/net/address-class.js';
import type { IdentityProviderSettings } from './settings.js';
import { SwitchboardError } from '../../kernel/index.js';

export interface SignInStart {
  url: string;
  /** Kept server-side until the provider sends the person back. */
  verifier: string;
  state: string;
  nonce: string;
}

export interface IdpTokens {
  /** Absent for a person known from a token exchange rather than a sign-in. */
  accessToken?: string;
  refreshToken?: string;
  idToken?: string;
  /** Epoch seconds. */
  accessExpiresAt?: number;
  /** When the provider's own session ends (refresh_expires_in, where the provider says it), epoch seconds. */
  sessionEndsAt?: number;
}

export interface SignedIn {
  subject: string;
  claims: Record<string, unknown>;
  tokens: IdpTokens;
}

/** The identity provider cannot be used, or did not sign the person in. */
export class IdentityProviderError extends SwitchboardError {
  constructor(
    message: string,
    /** The provider's own error code, when it answered with one (login_required, access_denied...). */
    readonly oauthError?: string,
  ) {
    super('AUTH_REQUIRED', message);
  }
}

export class IdentityProvider {
  private constructor(
    private readonly settings: IdentityProviderSettings,
    private readonly as: oauth.AuthorizationServer,
    private readonly options: { [oauth.customFetch]: ReturnType<typeof pinnedFetch>; [oauth.allowInsecureRequests]: boolean },
    private readonly keys: ReturnType<typeof createRemoteJWKSet>,
    private readonly now: () => number,
  ) {}

  private get client(): oauth.Client {
    return { client_id: this.settings.clientId };
  }

  private clientAuth(secret: string | undefined): oauth.ClientAuth {
    return secret !== undefined ? oauth.ClientSecretBasic(secret) : oauth.None();
  }

  /**
   * A request to the token endpoint, sent once more with the client secret read again when the
   * provider answers `invalid_client`: a secret rotated at the provider and renewed where it is
   * kept (its file, secrets.env) takes effect at the first refusal, with no restart. The
   * provider authenticates the client before it looks at the code or refresh token, so the
   * grant is still good for the second try.
   */
  private async tokenRequest(send: (auth: oauth.ClientAuth) => Promise<Response>): Promise<Response> {
    const secret = this.settings.clientSecret;
    if (secret === undefined) return send(this.clientAuth(undefined));
    const sent = secret.current;
    const response = await send(this.clientAuth(sent));
    if (response.status !== 400 && response.status !== 401) return response;
    const answer = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { error?: unknown } | undefined;
    if (answer?.error !== 'invalid_client' || !(await secret.refused(sent))) return response;
    return send(this.clientAuth(secret.current));
  }

  /** Reads the provider's metadata, retrying until `retryMs` has passed; then throws one clear line. */
  static async discover(settings: IdentityProviderSettings, retryMs: number, now: () => number, onRetry: (message: string) => void): Promise<IdentityProvider> {
    const issuer = new URL(settings.issuer);
    // Plain http only for a provider on this machine, and only when private addresses are allowed.
    const insecure = issuer.protocol === 'http:' && settings.allowPrivate && isLoopbackHost(issuer.hostname);
    if (issuer.protocol !== 'https:' && !insecure) {
      throw new IdentityProviderError(
        `identity provider ${settings.issuer}: the issuer must be an https URL (plain http is accepted only on loopback with idp.allowPrivateIPOIDC)`,
      );
    }
    const fetchImpl = pinnedFetch({ allowPrivate: settings.allowPrivate });
    const options = { [oauth.customFetch]: fetchImpl, [oauth.allowInsecureRequests]: insecure } as const;
    const deadline = Date.now() + retryMs;
    let delay = 500;
    for (;;) {
      try {
        const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...options }));
        if (!as.jwks_uri) throw new Error('its metadata names no jwks_uri');
        const keys = createRemoteJWKSet(new URL(as.jwks_uri), { [joseFetch]: fetchImpl });
        return new IdentityProvider(settings, as, options, keys, now);
      } catch (err) {
        const reason = (err as Error).message;
        if ((err as { code?: string }).code === 'PRIVATE_ADDRESS') {
          throw new IdentityProviderError(`identity provider ${settings.issuer}: ${reason}; set idp.allowPrivateIPOIDC: true if it is meant to be there`);
        }
        if (Date.now() + delay > deadline)
          throw new IdentityProviderError(
            `identity provider ${settings.issuer} unreachable: ${reason} (discovery retried for ${Math.round(retryMs / 1000)} s)`,
          );
        onRetry(`identity provider ${settings.issuer}: ${reason}; retrying`);
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 5000);
      }
    }
  }

  async start(redirectUri: string, options: { silent?: boolean; extraScopes?: readonly string[] } = {}): Promise<SignInStart> {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(this.as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: this.settings.clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: [...new Set([...this.settings.scopes, ...(options.extraScopes ?? [])])].join(' '),
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...(options.silent ? { prompt: 'none' } : {}),
    }).toString();
    return { url: url.href, verifier, state, nonce };
  }

  /** Finishes a sign-in from the callback URL; the ID token's signature is checked against the provider's JWKS. */
  async finish(callback: URL, started: SignInStart, redirectUri: string): Promise<SignedIn> {
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(this.as, this.client, callback, started.state);
    } catch (err) {
      const cause = (err as { cause?: URLSearchParams }).cause;
      const described =
        cause instanceof URLSearchParams
          ? `${cause.get('error')}${cause.get('error_description') ? `: ${cause.get('error_description')}` : ''}`
          : (err as Error).message;
      throw new IdentityProviderError(
        `the identity provider refused the sign-in (${described})`,
        cause instanceof URLSearchParams ? (cause.get('error') ?? undefined) : undefined,
      );
    }
    const response = await this.tokenRequest((auth) =>
      oauth.authorizationCodeGrantRequest(this.as, this.client, auth, params, redirectUri, started.verifier, this.options),
    );
    const result = await oauth.processAuthorizationCodeResponse(this.as, this.client, response, { expectedNonce: started.nonce, requireIdToken: true });
    const claims = await this.verifyIdToken(result.id_token!);
    const person = { ...(await this.userInfo(result.access_token, String(claims.sub))), ...claims };
    return { subject: String(claims.sub), claims: person, tokens: this.tokensOf(result) };
  }

  /**
   * Claims a provider releases only at its userinfo endpoint (OpenID Connect puts scope-based
   * claims such as email and groups there when an access token is issued): authorization
   * decides on them. A provider without the endpoint, or one that fails, leaves the ID token's.
   */
  private async userInfo(accessToken: string, subject: string): Promise<Record<string, unknown>> {
    if (!this.as.userinfo_endpoint) return {};
    try {
      const response = await oauth.userInfoRequest(this.as, this.client, accessToken, this.options);
      return await oauth.processUserInfoResponse(this.as, this.client, subject, response);
    } catch {
      return {};
    }
  }

  async refresh(refreshToken: string): Promise<IdpTokens> {
    const response = await this.tokenRequest((auth) => oauth.refreshTokenGrantRequest(this.as, this.client, auth, refreshToken, this.options));
    const result = await oauth.processRefreshTokenResponse(this.as, this.client, response);
    return this.tokensOf(result, refreshToken);
  }

  private async verifyIdToken(idToken: string): Promise<JWTPayload> {
    const { payload } = await jwtVerify(idToken, this.keys, {
      issuer: this.as.issuer,
      audience: this.settings.clientId,
      currentDate: new Date(this.now() * 1000),
    });
    if (typeof payload.sub !== 'string' || !payload.sub) throw new IdentityProviderError('the identity provider sent an ID token without a subject');
    return payload;
  }

  private tokensOf(result: oauth.TokenEndpointResponse, previousRefresh?: string): IdpTokens {
    const now = Math.floor(this.now());
    const refreshExpiresIn = (result as { refresh_expires_in?: unknown }).refresh_expires_in;
    const refreshToken = result.refresh_token ?? previousRefresh;
    return {
      accessToken: result.access_token,
      ...(refreshToken ? { refreshToken } : {}),
      ...(result.id_token ? { idToken: result.id_token } : {}),
      ...(typeof result.expires_in === 'number' ? { accessExpiresAt: now + result.expires_in } : {}),
      ...(typeof refreshExpiresIn === 'number' && refreshExpiresIn > 0 ? { sessionEndsAt: now + refreshExpiresIn } : {}),
    };
  }
}
