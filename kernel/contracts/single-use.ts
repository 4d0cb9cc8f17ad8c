/**
 * Values used once within a few minutes: the OAuth client's sign-in tickets and its flows in
 * progress. Behind a balancer the browser's next request may reach another replica than the
 * one that issued the ticket or started the flow, so replicas share them (cluster-redis
 * provides `single-use-values`); one process keeps them in memory (`MemorySingleUseValues`).
 */
export interface SingleUseValues {
  /** Keeps `value` under `id` in `scope` for `ttlSeconds`. */
  put(scope: string, id: string, value: string, ttlSeconds: number): Promise<void>;
  /** The value, removed in the same step (atomic across replicas: a second take finds nothing); undefined when absent or lapsed. */
  take(scope: string, id: string): Promise<string | undefined>;
}
