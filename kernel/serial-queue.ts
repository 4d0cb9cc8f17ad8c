/**
 * Operations that must not interleave (a reconcile of the configuration, an append to a
 * log file, a status write) run one at a time, in the order they were asked for. Each
 * caller gets its own operation's outcome; a failure is that caller's and never stops the
 * operations queued after it.
 */
export class SerialQueue {
  /** Settles when the last queued operation has; never rejects, so the next one always runs. */
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** Operations queued and not yet settled (a keyed set of queues drops the idle ones). */
  get pending(): number {
    return this.waiting;
  }

  /** Runs `op` after every operation queued before it has settled. */
  run<T>(op: () => T | PromiseLike<T>): Promise<T> {
    this.waiting++;
    const result = this.tail.then(op);
    const done = (): void => {
      this.waiting--;
    };
    this.tail = result.then(done, done);
    return result;
  }

  /** Resolves once everything queued so far has settled (shutdown, tests). */
  idle(): Promise<void> {
    return this.tail.then(settled);
  }
}

function settled(): void {
  // Only the order matters to the queue; the outcome is the caller's.
}
