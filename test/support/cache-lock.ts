/**
 * One maker at a time for something the suite caches on disk. Parallel test files ask for the
 * same cached thing at once; on a cold cache each would make it (a fastText training is ~30 s
 * of CPU, on the cores the suite runs on). The first takes the lock and makes it; the others
 * wait for the lock and then find it made.
 *
 * The lock is a file created exclusively, holding its owner's pid. A lock whose owner is gone
 * (a run killed mid-way) is taken over, so a killed run never blocks the next.
 */
import { open, readFile, rm, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a waiter looks again. */
const POLL_MS = 250;
/** A lock with no pid yet is being written; older than this, its writer died before writing. */
const UNWRITTEN_GRACE_MS = 10_000;

export async function withCacheLock<T>(lockFile: string, make: () => Promise<T>): Promise<T> {
  while (!(await tryTake(lockFile))) {
    if (await abandoned(lockFile)) await rm(lockFile, { force: true });
    else await sleep(POLL_MS);
  }
  try {
    return await make();
  } finally {
    await rm(lockFile, { force: true });
  }
}

async function tryTake(lockFile: string): Promise<boolean> {
  try {
    const handle = await open(lockFile, 'wx');
    try {
      await handle.writeFile(String(process.pid));
    } finally {
      await handle.close();
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

async function abandoned(lockFile: string): Promise<boolean> {
  try {
    const pid = Number(await readFile(lockFile, 'utf8'));
    if (!pid) return Date.now() - (await stat(lockFile)).mtimeMs > UNWRITTEN_GRACE_MS;
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // ENOENT: released meanwhile (take it on the next round); ESRCH: its owner is gone.
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ESRCH' || code === 'ENOENT';
  }
}
