/**
 * Signing in to remote MCP servers that answer 401 (the OAuth client). Two sides meet here:
 *
 * - `UpstreamCredentials` (service `upstream-credentials`, the auth-client plugin) keeps each
 *   owner's grant per server and hands out a current access token, refreshing it first when
 *   it is about to expire.
 * - The upstreams plugin (its `UpstreamRegistry` implements `SignInTargets`) keeps one
 *   connection per owner to such a server, shows its tools only to that owner's sessions, and
 *   asks the credentials for a token on every request it sends.
 *
 * A grant belongs to an owner: the signed-in person when the endpoint is protected (all of
 * their sessions share it), the session otherwise.
 */
import type { Session } from '../sessions.js';

export type Owner = string;

export function ownerOf(session: Session): Owner {
  return session.identity ? `person:${session.identity.subject}` : `session:${session.id}`;
}

/** A server as one session sees it (list_tools' servers_requiring_auth, auth://status). */
export type SignInStatus = 'connected' | 'auth_required' | 'disconnected';

export interface UpstreamCredentials {
  /** Owners holding a grant for `server`. */
  owners(server: string): readonly Owner[];
  has(server: string, owner: Owner): boolean;
  /**
   * A current access token of `owner` for `server`; `renew` after the server refused the last
   * one. undefined when there is no usable grant (never had one, or it could not be renewed:
   * the grant is then dropped and the owner must sign in again).
   */
  accessToken(server: string, owner: Owner, renew?: boolean): Promise<string | undefined>;
  /** The server refused the owner's credentials for good: forget the grant. */
  forget(server: string, owner: Owner): Promise<void>;
  /**
   * The owner's grant from the authorization server `issuer`, refreshed first when due, for a
   * brokered token exchange (grant form): its access token and when it expires (epoch ms).
   */
  release(owner: Owner, issuer: string): Promise<{ accessToken: string; expiresAt?: number } | undefined>;
}

/** What a sign-in starts from: the server's URL and the WWW-Authenticate of its 401. */
export interface SignInTarget {
  url: string;
  challenge: string;
  /** The owner is signed in, but the server asked for more scope (403 insufficient_scope): sign in again for it. */
  stepUp?: boolean;
  /**
   * The definition's `auth.authorizationServer`: sign in there, without protected-resource
   * discovery, asking `scopes` (when set) instead of the challenge's.
   */
  pinned?: { issuer: string; scopes?: string };
}

export interface SignInTargets {
  /** Defined while `server` waits for sign-in (its shared connection got 401); for `owner`, with its pending step-up. */
  signInTarget(server: string, owner?: Owner): SignInTarget | undefined;
  /**
   * `owner` got a grant for `server` (or lost it): connect with it, or drop the connection,
   * and tell that owner's sessions their tool list changed. Rejects with the reason the
   * server refused the new grant.
   */
  grantChanged(server: string, owner: Owner): Promise<void>;
  statusFor(server: string, owner: Owner): SignInStatus;
}
