/** SingleUseValues of one process: a map, lapsed entries swept as new ones arrive. */
import type { SingleUseValues } from '../../kernel/index.js';

export class MemorySingleUseValues implements SingleUseValues {
  private readonly values = new Map<string, { value: string; until: number }>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  put(scope: string, id: string, value: string, ttlSeconds: number): Promise<void> {
    const now = this.nowMs();
    for (const [key, entry] of this.values) if (entry.until <= now) this.values.delete(key);
    this.values.set(`${scope}\u0000${id}`, { value, until: now + ttlSeconds * 1000 });
    return Promise.resolve();
  }

  take(scope: string, id: string): Promise<string | undefined> {
    const key = `${scope}\u0000${id}`;
    const entry = this.values.get(key);
    this.values.delete(key);
    return Promise.resolve(entry && entry.until > this.nowMs() ? entry.value : undefined);
  }
}
