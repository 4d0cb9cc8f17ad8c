/**
 * One OAuth exchange with a remote server's authorization server, driven by the SDK's
 * `auth()` (RFC 9728 and RFC 8414/OIDC discovery, client metadata document or dynamic
 * registration, PKCE S256, RFC 8707 resource, scope selection, token endpoint
 * authentication). This is the SDK's OAuthClientProvider for one (owner, server): it holds
 * what one flow needs and hands registrations to the shared client registry.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from '#mcp-sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '#mcp-sdk/shared/auth.js';
import type { ClientRegistry } from './clients.js';
import { isLoopbackHost } from '../../lib/net/address-class.js';
import { checkMetadataIssuer, type ExpectedIssuer } from './issuer.js';

/** OpenID Connect Dynamic Client Registration's application types (MCP 2026-07-28 asks clients to send one). */
export type ApplicationType = 'web' | 'native';

export interface FlowSettings {
  redirectUrl: string;
  /** Set only when it is an https URL (authorization servers fetch it). */
  clientMetadataUrl?: string;
  clientMetadata: OAuthClientMetadata & { application_type: ApplicationType };
}

/**
 * `native` when the callback is on this machine (loopback: a Switchboard run by a person for
 * themselves, where OIDC servers refuse a `web` client's http redirect), else `web` (a
 * Switchboard served from a host of its own): what the specification's own examples say.
 */
export function applicationTypeFor(redirectUrl: string): ApplicationType {
  const host = new URL(redirectUrl).hostname.replace(/^\[|\]$/g, '');
  return isLoopbackHost(host) ? 'native' : 'web';
}

export class FlowProvider implements OAuthClientProvider {
  readonly clientMetadataUrl?: string;
  /** Where the browser goes next, once auth() answered REDIRECT. */
  authorizationUrl: URL | undefined;
  /** Tokens obtained (code exchanged, or refreshed). */
  obtained: OAuthTokens | undefined;
  private verifier = '';
  private discovery: OAuthDiscoveryState | undefined;
  /** The client secret last handed to the SDK: what a refused token request carried. */
  private offeredSecret: string | undefined;

  constructor(
    private readonly settings: FlowSettings,
    private readonly clients: ClientRegistry,
    private readonly flowState: string,
    /** Tokens of an existing grant, for a refresh. */
    private current?: OAuthTokens,
    discovery?: OAuthDiscoveryState,
  ) {
    if (settings.clientMetadataUrl) this.clientMetadataUrl = settings.clientMetadataUrl;
    this.discovery = discovery;
  }

  get redirectUrl(): string {
    return this.settings.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return this.settings.clientMetadata;
  }

  /**
   * The authorization server discovery settled on (the key of registrations and grants): its
   * metadata's issuer, checked against the URL it came from when the state was saved.
   */
  get issuer(): string | undefined {
    return this.discovery?.authorizationServerMetadata?.issuer ?? this.discovery?.authorizationServerUrl;
  }

  /** What an authorization response must name (RFC 9207); undefined when the server published no metadata. */
  get expectedIssuer(): ExpectedIssuer | undefined {
    const metadata = this.discovery?.authorizationServerMetadata;
    if (!metadata) return undefined;
    // RFC 9207's metadata field is not in the SDK's type; the document is kept whole (loose parse).
    const announced = (metadata as { authorization_response_iss_parameter_supported?: unknown }).authorization_response_iss_parameter_supported;
    return { issuer: metadata.issuer, issParameterSupported: announced === true };
  }

  get discovered(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  state(): string {
    return this.flowState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const info = this.issuer ? this.clients.get(this.issuer) : undefined;
    this.offeredSecret = info?.client_secret;
    return info;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    // Under the issuer discovery checked: a registration response may carry an `issuer` member
    // of its own (not RFC 7591's), which names nothing this client verified.
    const issuer = this.issuer ?? (info as { issuer?: string }).issuer;
    if (issuer) this.clients.save(issuer, info);
  }

  tokens(): OAuthTokens | undefined {
    return this.current;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.obtained = tokens;
    this.current = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  /**
   * The SDK calls this after discovery and before registration or the redirect: a metadata
   * document naming another issuer than its URL stops the flow here (IssuerError), before
   * anything is sent to that server. Only when the URL is an issuer identifier, named by the
   * resource's protected resource metadata (RFC 9728): without that metadata the SDK falls
   * back to the MCP server's origin as 2025-03-26 servers expect, a place to look rather than
   * a name, and such servers put their metadata there under another issuer (the conformance
   * suite's auth/2025-03-26-oauth-metadata-backcompat). The response's `iss` is still checked
   * against the metadata's own issuer (expectedIssuer).
   */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    if (state.authorizationServerMetadata && state.resourceMetadata)
      checkMetadataIssuer(state.authorizationServerUrl, state.authorizationServerMetadata.issuer);
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    // The SDK says 'all' for invalid_client and then runs the flow again. A pre-registered
    // client whose secret was renewed where the operator keeps it was refused for that secret
    // only: the grant and discovery stand, so a refresh is retried as a refresh (and a code
    // exchanged again) instead of asking the person to sign in anew.
    const sent = this.offeredSecret;
    if ((scope === 'all' || scope === 'client') && this.issuer && sent !== undefined && (await this.clients.secretRefused(this.issuer, sent))) return;
    if ((scope === 'all' || scope === 'client') && this.issuer) this.clients.forgetRegistered(this.issuer);
    if (scope === 'all' || scope === 'tokens') this.current = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}

/** The `resource_metadata` and `scope` parameters of a WWW-Authenticate Bearer challenge. */
export function challengeParams(challenge: string): { resourceMetadataUrl?: URL; scope?: string } {
  const out: { resourceMetadataUrl?: URL; scope?: string } = {};
  const param = (name: string) =>
    new RegExp(`(?:^|[\\s,])${name}="([^"]*)"`, 'i').exec(challenge)?.[1] ?? new RegExp(`(?:^|[\\s,])${name}=([^\\s,"]+)`, 'i').exec(challenge)?.[1];
  const metadata = param('resource_metadata');
  if (metadata && URL.canParse(metadata)) out.resourceMetadataUrl = new URL(metadata);
  const scope = param('scope');
  if (scope) out.scope = scope;
  return out;
}
