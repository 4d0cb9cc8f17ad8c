/**
 * Runs `count` tasks with at most `limit` at once, in index order of starting. Stops
 * starting new ones once `stop()` says so (a failed iteration); the running ones finish.
 */
export async function runPool(count: number, limit: number, task: (index: number) => Promise<void>, stop: () => boolean): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count && !stop()) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker));
}
