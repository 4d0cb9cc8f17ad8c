/** The ReplayGuard of one process: seen values in a map, forgotten once their window has passed. */
import type { ReplayGuard } from '../../kernel/index.js';

/** Below this many entries nothing is swept: a lookup is all a use costs. */
const SWEEP_ABOVE = 1024;

export class MemoryReplayGuard implements ReplayGuard {
  /** scope and value -> when it may be forgotten (ms). */
  private readonly seen = new Map<string, number>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  firstUse(scope: string, value: string, ttlSeconds: number): Promise<boolean> {
    const now = this.nowMs();
    if (this.seen.size >= SWEEP_ABOVE) for (const [key, until] of this.seen) if (until <= now) this.seen.delete(key);
    const key = `${scope}\u0000${value}`;
    const until = this.seen.get(key);
    if (until !== undefined && until > now) return Promise.resolve(false);
    this.seen.set(key, now + ttlSeconds * 1000);
    return Promise.resolve(true);
  }
}
