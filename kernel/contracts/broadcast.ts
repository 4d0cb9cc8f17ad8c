/**
 * Broadcast: a message to every replica at once (cluster mode; cluster-redis provides it on
 * Redis pub/sub). Replicas keep small caches of shared state (verified access tokens, a
 * person's grants for remote servers); when that state changes on one replica, the others
 * must drop or re-read their copy at once, not at the copy's expiry. Without a provider there
 * is one process, and a plugin invalidates its own caches where the change happens.
 *
 * Delivery is at most once: a message published while a replica's connection is down never
 * reaches it. `reliable` says whether messages may have been missed; a cache must drop what
 * it holds when it turns false and keep nothing while it stays false.
 */
export interface Broadcast {
  /**
   * Sends `message` on `topic` to every replica listening, this one included; resolves once it
   * left, with how many replicas it went to (those listening on `topic`, this one included).
   */
  publish(topic: string, message: string): Promise<number>;
  /** Hears `topic` until the returned function is called. */
  subscribe(topic: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  /** False while messages may be lost (the shared connection is down). */
  readonly reliable: boolean;
  /** `listener(reliable)` on every change; returns how to stop listening. */
  onReliabilityChange(listener: (reliable: boolean) => void): () => void;
}
