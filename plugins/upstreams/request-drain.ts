/**
 * The requests a connection has sent and not yet had answered, so that a renewal that must
 * start the server again (a secret its process was started with changed where it is kept)
 * lets them end first. Requests that arrive meanwhile wait for the new connection instead of
 * going to the process about to stop: a renewal nobody asked for fails nobody's call, unless a
 * request in flight outlasts the wait (then it fails as a restart fails it).
 */
export class RequestDrain {
  private inFlight = 0;
  /** Set while a renewal waits for the requests in flight to end. */
  private onDrained: (() => void) | undefined;
  /** Set while a renewal runs: new requests wait on it, then go to whatever connection it left. */
  held: Promise<void> | undefined;

  /** Requests sent and not yet answered. */
  get count(): number {
    return this.inFlight;
  }

  /**
   * Counts `sending` while it is in flight. Hot path: one increment, one settle handler, and
   * `then` rather than `finally`, whose specified extra promise and reaction cost three
   * promises a call where this costs one.
   */
  track<T>(sending: Promise<T>): Promise<T> {
    this.inFlight++;
    return sending.then(
      (value) => {
        this.ended();
        return value;
      },
      (err: unknown) => {
        this.ended();
        throw err;
      },
    );
  }

  private readonly ended = (): void => {
    if (--this.inFlight === 0) this.onDrained?.();
  };

  /**
   * Holds new requests, waits up to `ms` for those in flight to end, runs `then` (the restart),
   * and lets the held requests go. A renewal already under way makes this a no-op.
   */
  async holdFor(ms: number, then: () => Promise<void>): Promise<void> {
    if (this.held) return;
    let release!: () => void;
    this.held = new Promise<void>((resolve) => (release = resolve));
    try {
      await this.drained(ms);
      await then();
    } finally {
      this.held = undefined;
      release();
    }
  }

  /** Ends a renewal's wait now (the connection was stopped or redefined meanwhile): the held requests need not wait out the rest. */
  stopWaiting(): void {
    this.onDrained?.();
  }

  private drained(ms: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.onDrained = undefined;
        resolve();
      };
      // Unref'd: a shutdown does not wait on a renewal.
      const timer = setTimeout(done, ms).unref();
      this.onDrained = done;
    });
  }
}
