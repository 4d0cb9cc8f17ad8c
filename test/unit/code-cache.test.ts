import { expect } from 'chai';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeCacheDir, codeCacheFile, pruneCache } from '../../app/cli/code-cache.js';

describe('the code cache: where it lives and what it keeps (app/cli/code-cache.ts)', () => {
  it('lives in SWITCHBOARD_CODE_CACHE, else under XDG_CACHE_HOME, else ~/.cache; "off" switches it off', () => {
    expect(codeCacheDir({ SWITCHBOARD_CODE_CACHE: '/srv/cache' }, '/home/ada')).to.equal('/srv/cache');
    expect(codeCacheDir({ SWITCHBOARD_CODE_CACHE: 'off', XDG_CACHE_HOME: '/x' }, '/home/ada')).to.equal(undefined);
    expect(codeCacheDir({ XDG_CACHE_HOME: '/x' }, '/home/ada')).to.equal('/x/switchboard/code-cache');
    expect(codeCacheDir({}, '/home/ada')).to.equal('/home/ada/.cache/switchboard/code-cache');
  });

  it('names a file by the bundle and the Node that compiled it', () => {
    expect(codeCacheFile('/c', '/app/dist/bundle/program-0123456789abcdef.cjs', 'v20.20.2', 'x64')).to.equal('/c/program-0123456789abcdef-node20.20.2-x64.bin');
  });

  it('keeps the newest files when pruned, and nothing but cache files is touched', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-prune-'));
    try {
      for (let i = 0; i < 5; i++) {
        await writeFile(join(dir, `b${i}.bin`), '');
        await utimes(join(dir, `b${i}.bin`), 1_000 + i, 1_000 + i);
      }
      await writeFile(join(dir, 'notes.txt'), '');
      pruneCache(dir, 2);
      expect((await readdir(dir)).sort()).to.deep.equal(['b3.bin', 'b4.bin', 'notes.txt']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
