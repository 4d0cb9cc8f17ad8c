/**
 * When a failed upstream is tried again: failures in a row counted, the next attempt timed on
 * the backoff (backoff.ts), and that time shown while waiting (a call then gets
 * SERVER_UNAVAILABLE naming it). The timer does not keep the process alive.
 */
import { backoffDelayMs } from './backoff.js';

export class RetrySchedule {
  /** Failed attempts in a row. */
  failures = 0;
  nextRetryAt: Date | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** Runs `retry` after the backoff for the failures so far; returns the delay in ms. */
  schedule(backoff: { initialSeconds: number; maxSeconds: number }, retry: () => void): number {
    const delay = backoffDelayMs(this.failures - 1, backoff.initialSeconds, backoff.maxSeconds);
    this.nextRetryAt = new Date(Date.now() + delay);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.nextRetryAt = undefined;
      retry();
    }, delay);
    this.timer.unref();
    return delay;
  }

  /** No retry pending any more (a start, a stop, a connect under way). */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.nextRetryAt = undefined;
  }
}
