import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCacheLock } from '../support/cache-lock.js';

describe('the suite cache lock (test/support/cache-lock.ts)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sb-cache-lock-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('runs makers asking at once one after the other, never together', async () => {
    const lock = join(dir, '.lock');
    const events: string[] = [];
    let inside = 0;
    const maker = (name: string) => async () => {
      inside += 1;
      expect(inside, 'two makers inside the lock at once').to.equal(1);
      events.push(`${name} in`);
      await new Promise((r) => setImmediate(r));
      events.push(`${name} out`);
      inside -= 1;
      return name;
    };
    const results = await Promise.all([withCacheLock(lock, maker('a')), withCacheLock(lock, maker('b'))]);
    expect(results).to.deep.equal(['a', 'b']);
    // Either may take the lock first (both ask at once); the other runs after it, never beside it.
    const serial = (first: string, second: string) => JSON.stringify([`${first} in`, `${first} out`, `${second} in`, `${second} out`]);
    expect([serial('a', 'b'), serial('b', 'a')]).to.include(JSON.stringify(events));
  });

  it('releases the lock when the maker throws', async () => {
    const lock = join(dir, '.lock');
    const failed = await withCacheLock(lock, () => Promise.reject(new Error('make failed'))).catch((err: unknown) => (err as Error).message);
    expect(failed).to.equal('make failed');
    expect(await withCacheLock(lock, () => Promise.resolve('next'))).to.equal('next');
  });

  it('takes over a lock whose owner is gone (a killed run)', async () => {
    const lock = join(dir, '.lock');
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid!;
    await new Promise((r) => child.once('exit', r));
    await writeFile(lock, String(pid));
    expect(await withCacheLock(lock, () => readFile(lock, 'utf8'))).to.equal(String(process.pid));
  });
});
