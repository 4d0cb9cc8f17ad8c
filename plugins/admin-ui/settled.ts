/**
 * Waiting for a server to come to rest after an action (suspend, resume, add): the page the
 * action redirects to then shows where it ended up (`stopped`, `running`, `failed` and why),
 * never a passing `stopping`. Bounded: a server still starting after the bound is shown as
 * starting, and the page says what it is doing.
 */
import type { KernelApi } from '../../kernel/index.js';

const PASSING = new Set(['starting', 'stopping']);

export class Settling {
  private readonly waiters = new Set<{ name: string; done: () => void }>();

  constructor(private readonly kernel: KernelApi) {
    kernel.hooks.onServiceStateChange.tap('admin-ui', (change) => {
      for (const w of this.waiters) if (w.name === change.name && !this.passing(w.name)) w.done();
    });
  }

  private passing(name: string): boolean {
    const state = this.kernel.services.find('upstreams')?.status(name)?.state;
    return state !== undefined && PASSING.has(state);
  }

  /** Resolves once `name` is not starting or stopping, or after `ms`. */
  settled(name: string, ms: number): Promise<void> {
    if (!this.passing(name)) return Promise.resolve();
    return new Promise((resolve) => {
      const w = {
        name,
        done: () => {
          clearTimeout(timer);
          this.waiters.delete(w);
          resolve();
        },
      };
      const timer = setTimeout(w.done, ms);
      this.waiters.add(w);
    });
  }
}
