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
