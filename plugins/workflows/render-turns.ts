/**
 * Renderings take turns with I/O. A budget bounds one rendering (50 ms by default), but
 * renderings are synchronous: four callers whose step results arrive in the same poll of
 * the event loop would render back to back, 200 ms in which nobody else (not even
 * /health) is answered. So the engine renders through RenderTurns: while less than
 * SLICE_MS has been spent rendering since the loop last turned, a rendering runs at once;
 * past it, renderings wait for the next turn, and a turn that follows a busy iteration
 * releases nobody, so an I/O poll always comes between two long renderings.
 */

/** Rendering time one event-loop iteration may spend before others wait for the next. */
const SLICE_MS = 10;

export class RenderTurns {
  /** Milliseconds rendered since the last turn. */
  private spent = 0;
  private waiters = 0;
  private queue: (() => void)[] = [];
  private scheduled = false;

  /** Whether a rendering must wait (take()) rather than run now. */
  busy(): boolean {
    return this.waiters > 0 || this.spent >= SLICE_MS;
  }

  /** Resolves when a rendering may run; call when busy(). */
  async take(): Promise<void> {
    this.waiters++;
    try {
      do await new Promise<void>((resolve) => this.enqueue(resolve));
      while (this.spent >= SLICE_MS);
    } finally {
      this.waiters--;
    }
  }

  /**
   * Counts a finished rendering's time against this turn (its budget's elapsed(): short
   * renderings never read the clock and count 0, so the common case costs nothing).
   */
  spend(ms: number): void {
    if (ms <= 0) return;
    this.spent += ms;
    this.schedule();
  }

  private enqueue(resolve: () => void): void {
    this.queue.push(resolve);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.turn);
  }

  /** Runs after the iteration's I/O poll (setImmediate's check phase). */
  private readonly turn = (): void => {
    this.scheduled = false;
    const quiet = this.spent < SLICE_MS;
    this.spent = 0;
    // After a busy iteration nobody is released: the next poll comes first.
    if (quiet && this.queue.length) {
      const released = this.queue;
      this.queue = [];
      for (const resolve of released) resolve();
    }
    if (this.queue.length) this.schedule();
  };
}
