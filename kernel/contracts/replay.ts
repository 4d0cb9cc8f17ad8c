/**
 * Single-use values (a DPoP proof's `jti`, RFC 9449 section 11.1): the first use within a
 * window is accepted, every later one refused. With one process a map in memory is enough;
 * replicas behind a balancer must share it, or a proof captured on its way to one replica
 * could be replayed to another. The service `replay-guard` (cluster-redis) shares it; without
 * it the auth plugin keeps its own (`MemoryReplayGuard`, lib/replay/).
 */
export interface ReplayGuard {
  /**
   * true when `value` was not seen in `scope` within the last `ttlSeconds` (it is remembered
   * from now on), false when it was. Atomic: two concurrent first uses, on any replicas,
   * get one true and one false.
   */
  firstUse(scope: string, value: string, ttlSeconds: number): Promise<boolean>;
}
