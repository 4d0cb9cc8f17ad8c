/**
 * A token bucket: `burst` calls at once, refilled at `perSecond`. Time is passed in, so
 * the arithmetic is testable without clocks.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** Whether the bucket would be full again by `now` (nothing taken lately): it can be forgotten. */
  refilledBy(now: number): boolean {
    return this.tokens + ((now - this.last) / 1000) * this.perSecond >= this.burst;
  }

  /** Takes `cost` tokens; returns 0 when taken, else how many ms until they would be there. */
  take(cost: number, now: number): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens >= cost) {
      this.tokens -= cost;
      return 0;
    }
    return Math.ceil(((cost - this.tokens) / this.perSecond) * 1000);
  }
}
