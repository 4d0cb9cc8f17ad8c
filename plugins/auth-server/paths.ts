/**
 * Names the OAuth surface shares: its paths, its scopes, how resources compare. Kept apart
 * from provider.ts so the gate and the routes load without oidc-provider (which is
 * imported only when protection is switched on).
 */
/** The one scope of the MCP resource: using the endpoint. */
export const RESOURCE_SCOPE = 'mcp';
export const OIDC_SCOPES = ['openid', 'offline_access', 'profile', 'email', 'groups'];

export const ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  introspection: '/oauth/introspect',
  userinfo: '/oauth/userinfo',
  jwks: '/.well-known/jwks.json',
  end_session: '/oauth/logout',
} as const;

export const INTERACTION_PATH = '/oauth/interaction';

/** RFC 8707 resources compare as URLs: `https://x` and `https://x/` are the same resource. */
export function sameResource(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

/** Carries a client's prompt=none through oidc-provider to the identity provider. */
export const SILENT_PARAM = 'switchboard_silent';
