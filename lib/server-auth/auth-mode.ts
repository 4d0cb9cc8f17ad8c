/**
 * The `auth` block of an MCP server definition: the rules a definition must keep (create,
 * update, validate and files alike) and the one mode that is in force. Shared by core-tools
 * (which checks arguments) and upstreams (which checks files and acts on the mode), so both
 * say the same thing in the same words.
 */
import type { McpServerAuth, McpServerDefinition } from '../../kernel/index.js';

/** The phrase clients match on (reference-behaviour.md §6.3). */
export const REMOTE_ONLY = 'auth configuration is only supported for remote server types (streamable-http or sse)';
export const DEFAULT_EXCHANGE_SCOPES = 'openid profile email groups';

export interface ExchangeTarget {
  endpoint: string;
  expectedIssuer: string;
  connectorId: string;
  scopes: string;
  credentials:
    | { from: 'secret'; name: string; namespace?: string; clientIdKey: string; clientSecretKey: string }
    | { from: 'file'; clientId: string; clientSecretFile: string };
}

/**
 * What a call to the server carries. `sign-in`: the person's own grant from core_auth_login
 * (discovery, or the pinned authorization server); `forward`: the person's ID token;
 * `exchange`: that token exchanged at the server's identity provider.
 */
export type AuthMode =
  { kind: 'none' } | { kind: 'sign-in'; pinned?: { issuer: string; scopes?: string } } | { kind: 'forward' } | { kind: 'exchange'; target: ExchangeTarget };

export interface AuthProblem {
  field: string;
  message: string;
}

function endpointOf(auth: McpServerAuth): string | undefined {
  return auth.tokenExchange?.idpTokenEndpoint ?? auth.tokenExchange?.dexTokenEndpoint;
}

/** Problems of the block beyond its schema, each with the field it is about. */
export function authProblems(def: Pick<McpServerDefinition, 'type' | 'auth'>): AuthProblem[] {
  const auth = def.auth;
  if (!auth) return [];
  const out: AuthProblem[] = [];
  const active = auth.type === 'oauth' || auth.forwardToken === true || auth.tokenExchange?.enabled === true || auth.authorizationServer !== undefined;
  if (def.type === 'stdio') {
    if (active) out.push({ field: 'auth', message: REMOTE_ONLY });
    return out;
  }
  if (auth.authorizationServer) {
    if (auth.type !== 'oauth') out.push({ field: 'auth.authorizationServer', message: 'auth.authorizationServer requires auth.type: oauth' });
    if (auth.forwardToken === true)
      out.push({ field: 'auth.authorizationServer', message: 'auth.authorizationServer cannot be combined with auth.forwardToken: true' });
    if (auth.tokenExchange?.enabled === true)
      out.push({ field: 'auth.authorizationServer', message: 'auth.authorizationServer cannot be combined with auth.tokenExchange.enabled: true' });
  }
  const te = auth.tokenExchange;
  if (te?.enabled === true) {
    const where = 'auth.tokenExchange';
    if (te.dexTokenEndpoint && te.idpTokenEndpoint && te.dexTokenEndpoint !== te.idpTokenEndpoint)
      out.push({ field: where, message: 'dexTokenEndpoint and idpTokenEndpoint name the same endpoint: give one, or both equal' });
    if (!endpointOf(auth)) out.push({ field: where, message: 'tokenExchange needs dexTokenEndpoint (or idpTokenEndpoint)' });
    if (!te.connectorId) out.push({ field: where, message: 'tokenExchange needs connectorId' });
    const fileForm = te.clientId !== undefined || te.clientSecretFile !== undefined;
    if (te.clientCredentialsSecretRef && fileForm)
      out.push({ field: where, message: 'tokenExchange takes clientCredentialsSecretRef or clientId with clientSecretFile, not both' });
    else if (!te.clientCredentialsSecretRef && !(te.clientId && te.clientSecretFile))
      out.push({ field: where, message: 'tokenExchange needs clientCredentialsSecretRef, or clientId and clientSecretFile' });
  }
  return out;
}

/** The mode in force for a definition that passed `authProblems`. */
export function authMode(def: Pick<McpServerDefinition, 'type' | 'auth'>): AuthMode {
  const auth = def.auth;
  if (!auth || def.type === 'stdio') return { kind: 'none' };
  const te = auth.tokenExchange;
  const endpoint = endpointOf(auth);
  if (te?.enabled === true && endpoint && te.connectorId) {
    const ref = te.clientCredentialsSecretRef;
    return {
      kind: 'exchange',
      target: {
        endpoint,
        expectedIssuer: te.expectedIssuer || new URL(endpoint).origin,
        connectorId: te.connectorId,
        scopes: te.scopes ?? DEFAULT_EXCHANGE_SCOPES,
        credentials: ref
          ? {
              from: 'secret',
              name: ref.name,
              ...(ref.namespace ? { namespace: ref.namespace } : {}),
              clientIdKey: ref.clientIdKey ?? 'client-id',
              clientSecretKey: ref.clientSecretKey ?? 'client-secret',
            }
          : { from: 'file', clientId: te.clientId ?? '', clientSecretFile: te.clientSecretFile ?? '' },
      },
    };
  }
  if (auth.forwardToken === true) return { kind: 'forward' };
  if (auth.authorizationServer)
    return {
      kind: 'sign-in',
      pinned: { issuer: auth.authorizationServer.issuer, ...(auth.authorizationServer.scopes ? { scopes: auth.authorizationServer.scopes } : {}) },
    };
  return auth.type === 'oauth' ? { kind: 'sign-in' } : { kind: 'none' };
}
