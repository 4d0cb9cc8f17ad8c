/**
 * aggregator.oauth.server as the plugin uses it: secrets resolved, durations in seconds,
 * the audience decided. Resolution happens once at start (the identity provider's client
 * secret is read again when the provider refuses it); a missing secret stops startup with
 * the field that named it.
 */
import {
  resolveSecretValue,
  SwitchboardError,
  type OAuthServerSettings,
  type RateLimit,
  type RegistrationMode,
  type ResolveContext,
  type SecretValue,
  type Settings,
} from '../../kernel/index.js';
import { renewableReference, type RenewableSecret } from '../../lib/secrets/renewable-secret.js';

export interface IdentityProviderSettings {
  issuer: string;
  clientId: string;
  /** Read again when the provider refuses it (a secret rotated at the provider and renewed where it is kept). */
  clientSecret?: RenewableSecret;
  scopes: string[];
  /** Discovery and JWKS may reach a private or loopback address (idp.allowPrivateIPOIDC). */
  allowPrivate: boolean;
}

/** Who may register a client and how much: docs/oauth-server.md, "Registration". */
export interface RegistrationBounds {
  mode: RegistrationMode;
  /** The initial access token (mode `token`). */
  token?: string;
  maxClients: number;
  /** How long a client with no grant is kept. */
  unusedSeconds: number;
  /** Registrations per client address; undefined: not counted. */
  perAddress?: RateLimit;
}

export interface AuthServerSettings {
  /** The issuer of everything this server hands out: baseUrl without a trailing slash. */
  issuer: string;
  /** The aud of every access token: resourceIdentifier, else baseUrl. */
  audience: string;
  idp: IdentityProviderSettings;
  sessionSeconds: number;
  trustedProxyCIDRs: string[];
  allowPrivateClientMetadata: boolean;
  allowPrivateRedirectURIs: boolean;
  registration: RegistrationBounds;
  /** Persistent storage with its key, or memory. */
  storage: { persistent: true; key: string } | { persistent: false };
}

const UNIT_SECONDS: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };

/** Go-style durations (`720h`, `1h30m`, `45s`) in seconds; the schema has checked the shape. */
export function parseDuration(text: string): number {
  let seconds = 0;
  for (const m of text.matchAll(/([0-9]+(?:\.[0-9]+)?)(h|ms|m|s)/g)) seconds += Number(m[1]) * UNIT_SECONDS[m[2]!]!;
  return seconds;
}

export class AuthSettingsError extends SwitchboardError {
  constructor(field: string, message: string) {
    super('CONFIG_INVALID', `config.yaml: aggregator.oauth.server.${field}: ${message}`);
  }
}

export function resolveAuthSettings(all: Settings, ctx: ResolveContext): AuthServerSettings {
  const s: OAuthServerSettings = all.aggregator.oauth.server;
  if (!s.baseUrl) throw new AuthSettingsError('baseUrl', 'is required when enabled (the public URL of this instance)');
  if (!s.idp) throw new AuthSettingsError('idp', 'is required when enabled (the identity provider people sign in with)');
  const secret = (field: string, value: SecretValue) => resolveSecretValue(value, `aggregator.oauth.server.${field}`, ctx);
  const renewable = (field: string, value: SecretValue) => renewableReference(value, `aggregator.oauth.server.${field}`, ctx);
  let clientSecret: RenewableSecret | undefined;
  if (s.idp.clientSecret !== undefined) clientSecret = renewable('idp.clientSecret', s.idp.clientSecret);
  else if (s.idp.clientSecretFile) clientSecret = renewable('idp.clientSecretFile', { fromFile: s.idp.clientSecretFile });
  const issuer = s.baseUrl.replace(/\/+$/, '');
  let storage: AuthServerSettings['storage'] = { persistent: false };
  if (s.storage.persistent) {
    const key = secret('storage.encryptionKey', s.storage.encryptionKey ?? '');
    if (key.length < 32) throw new AuthSettingsError('storage.encryptionKey', `must be at least 32 characters (it is ${key.length})`);
    storage = { persistent: true, key };
  }
  return {
    issuer,
    audience: s.resourceIdentifier || issuer,
    idp: {
      issuer: s.idp.issuer,
      clientId: s.idp.clientId,
      ...(clientSecret !== undefined ? { clientSecret } : {}),
      scopes: s.idp.scopes,
      allowPrivate: all.idp?.allowPrivateIPOIDC === true,
    },
    sessionSeconds: parseDuration(s.sessionDuration),
    trustedProxyCIDRs: s.trustedProxyCIDRs,
    allowPrivateClientMetadata: s.allowPrivateIPClientMetadata,
    allowPrivateRedirectURIs: s.allowPrivateIPRedirectURIs,
    registration: resolveRegistration(s.registration, secret),
    storage,
  };
}

function resolveRegistration(
  r: OAuthServerSettings['registration'],
  secret: (field: string, value: NonNullable<typeof r.token>) => string,
): RegistrationBounds {
  const mode: RegistrationMode = r.mode ?? (r.token !== undefined ? 'token' : r.public ? 'open' : 'closed');
  if (mode === 'token' && r.token === undefined)
    throw new AuthSettingsError('registration.token', 'is required when registration.mode is token (the initial access token clients present)');
  if (mode !== 'token' && r.token !== undefined)
    throw new AuthSettingsError('registration.token', `is set, but registration.mode is ${mode}: set mode: token to require it, or remove it`);
  const { perMinute, burst } = r.perAddress;
  return {
    mode,
    ...(mode === 'token' ? { token: secret('registration.token', r.token!) } : {}),
    maxClients: r.maxClients,
    unusedSeconds: Math.round(r.unusedClientHours * 3600),
    ...(perMinute > 0 ? { perAddress: { callsPerSecond: perMinute / 60, burst } } : {}),
  };
}

/** Each flag that weakens a guard is said at every start (the interface asks for a startup warning). */
export function allowanceWarnings(settings: AuthServerSettings, raw: OAuthServerSettings): string[] {
  const out: string[] = [];
  if (settings.idp.allowPrivate) out.push('idp.allowPrivateIPOIDC is on: the identity provider may be reached at a private or loopback address');
  if (settings.allowPrivateClientMetadata) out.push('allowPrivateIPClientMetadata is on: client metadata documents may be fetched from private addresses');
  if (settings.allowPrivateRedirectURIs) out.push('allowPrivateIPRedirectURIs is on: redirect URIs may point at private addresses');
  if (raw.tokenExchangeBroker?.allowPrivateIP) out.push('tokenExchangeBroker.allowPrivateIP is on: downstream token endpoints may be at private addresses');
  for (const t of raw.trustedIssuers)
    if (t.allowPrivateIPJWKS) out.push(`trusted issuer ${t.issuer}: allowPrivateIPJWKS is on: its key set may be fetched from a private address`);
  return out;
}
