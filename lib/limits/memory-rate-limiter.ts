/**
 * The RateLimiter of one process: a token bucket per caller, in memory. The limits plugin's
 * own per-session buckets need no lookup by caller (they live in the session); the OAuth
 * server counts registrations per client address with it when no shared limiter runs. It is
 * also the contract's reference, run by the same suite as the shared one.
 *
 * Callers may be many (addresses): a bucket full again is as good as none, so those are
 * forgotten every SWEEP_EVERY takes, and memory stays with the callers active lately, as
 * the Redis limiter's expiring keys do.
 */
import type { RateLimit, RateLimiter } from '../../kernel/index.js';
import { TokenBucket } from './token-bucket.js';

const SWEEP_EVERY = 1024;

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, { bucket: TokenBucket; limit: RateLimit }>();

  private takes = 0;

  constructor(private readonly nowMs: () => number = Date.now) {}

  /** Buckets kept (for tests: idle ones are forgotten). */
  get size(): number {
    return this.buckets.size;
  }

  take(caller: string, cost: number, limit: RateLimit): Promise<number> {
    if (++this.takes % SWEEP_EVERY === 0) this.sweep();
    let entry = this.buckets.get(caller);
    // A changed limit (reload) starts a fresh bucket, as a new session does.
    if (!entry || entry.limit.callsPerSecond !== limit.callsPerSecond || entry.limit.burst !== limit.burst) {
      entry = { bucket: new TokenBucket(limit.callsPerSecond, limit.burst, this.nowMs()), limit: { ...limit } };
      this.buckets.set(caller, entry);
    }
    return Promise.resolve(entry.bucket.take(cost, this.nowMs()));
  }

  private sweep(): void {
    const now = this.nowMs();
    for (const [caller, { bucket }] of this.buckets) if (bucket.refilledBy(now)) this.buckets.delete(caller);
  }
}
