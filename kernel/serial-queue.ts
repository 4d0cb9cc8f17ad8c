/**
 * One task at a time, in the order they were queued: the configuration's changes, its edits,
 * a policy reload, a status flush. A task starts once every earlier one has settled, whether it
 * succeeded or failed, so one failure never blocks the queue; each caller gets its own task's
 * outcome.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves when everything queued so far has settled. */
  async settled(): Promise<void> {
    await this.tail;
  }
}
