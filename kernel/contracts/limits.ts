/**
 * Limits counted across replicas (cluster mode). One process counts in memory, as the limits
 * plugin always has (a token bucket per session, sessions counted in its own registry); replicas
 * behind a balancer must count together, or each would allow the whole limit again. The
 * service `rate-limiter` (cluster-redis) counts together; the limits plugin uses it when present.
 */

export interface RateLimit {
  callsPerSecond: number;
  /** Calls that may be made at once before the sustained rate applies. */
  burst: number;
}

export interface RateLimiter {
  /**
   * Takes `cost` calls from `caller`'s bucket under `limit`, atomically across replicas.
   * Resolves 0 when taken, else how many ms until they would be there (nothing is taken).
   */
  take(caller: string, cost: number, limit: RateLimit): Promise<number>;
}

/** One caller's open session, as the session counter knows it. */
export interface CountedSession {
  caller: string;
  sessionId: string;
}

/**
 * Open sessions per caller counted across replicas (aggregator.limits.maxSessionsPerPrincipal).
 * A replica that dies cannot say its sessions ended, so each counted session is a lease the
 * replicas holding it renew (`keepAlive`); one nobody renews stops counting after the lease.
 */
export interface SessionCounter {
  /**
   * Counts the session as one of its caller's unless the caller already holds `limit` (true
   * when counted, or counted already). Atomic across replicas: of two replicas admitting a
   * caller's last free session at once, one is refused.
   */
  admit(session: CountedSession, limit: number): Promise<boolean>;
  /** The session ended (a failure is the lease's to clean up). */
  release(session: CountedSession): Promise<void>;
  /** Renews the leases of the sessions this replica holds (one round trip for all). */
  keepAlive(sessions: readonly CountedSession[]): Promise<void>;
  /** How often keepAlive must run for a session to keep counting. */
  readonly renewEveryMs: number;
}
