/**
 * How long what Switchboard issues lives. Pure functions of the clock, so the rules are
 * tested without waiting: access tokens 30 minutes, never beyond the identity provider's
 * own access token; refresh tokens sessionDuration from each rotation (rolling), never
 * beyond the identity provider's session, which is measured from the original sign-in.
 */
export const ACCESS_TOKEN_SECONDS = 30 * 60;

/** Seconds an access token issued at `now` lives. */
export function accessTokenLifetime(now: number, idpAccessExpiresAt: number | undefined): number {
  if (idpAccessExpiresAt === undefined) return ACCESS_TOKEN_SECONDS;
  return Math.max(1, Math.min(ACCESS_TOKEN_SECONDS, Math.floor(idpAccessExpiresAt - now)));
}

/** Seconds a refresh token issued (or rotated) at `now` lives. */
export function refreshTokenLifetime(now: number, sessionSeconds: number, idpSessionEndsAt: number | undefined): number {
  const rolling = Math.floor(sessionSeconds);
  if (idpSessionEndsAt === undefined) return rolling;
  return Math.max(1, Math.min(rolling, Math.floor(idpSessionEndsAt - now)));
}
