/**
 * The RateLimiter of one process: a token bucket per caller, in memory. The limits plugin's
 * own per-session buckets need no lookup by caller (they live in the session); this is the
 * contract's reference, run by the same suite as the shared one.
 */
import type { RateLimit, RateLimiter } from '../../kernel/index.js';
import { TokenBucket } from './token-bucket.js';

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, { bucket: TokenBucket; limit: RateLimit }>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  take(caller: string, cost: number, limit: RateLimit): Promise<number> {
    let entry = this.buckets.get(caller);
    // A changed limit (reload) starts a fresh bucket, as a new session does.
    if (!entry || entry.limit.callsPerSecond !== limit.callsPerSecond || entry.limit.burst !== limit.burst) {
      entry = { bucket: new TokenBucket(limit.callsPerSecond, limit.burst, this.nowMs()), limit: { ...limit } };
      this.buckets.set(caller, entry);
    }
    return Promise.resolve(entry.bucket.take(cost, this.nowMs()));
  }
}
