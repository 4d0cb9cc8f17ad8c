/**
 * lib/files/empty-file-grace.ts on real files: an empty file waits out its grace before it is
 * believed, a write ends the wait, and a new truncation starts a new one.
 */
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { EmptyFileGrace } from '../../lib/files/empty-file-grace.js';

describe('EmptyFileGrace', () => {
  let dir: string;
  const held: string[] = [];
  const grace = () => new EmptyFileGrace(60_000, (path) => held.push(path));

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-grace-'));
    held.length = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads a file with text, or one that is gone, at once', async () => {
    const file = join(dir, 'config.yaml');
    await writeFile(file, 'a: 1\n');
    const g = grace();
    expect(await g.wait([file, join(dir, 'gone.yaml')])).to.equal(0);
    expect(held).to.deep.equal([]);
  });

  it('holds an empty file for the grace, said once, and counts down from when it began', async () => {
    const file = join(dir, 'config.yaml');
    await writeFile(file, '');
    const g = grace();
    expect(await g.wait([file])).to.equal(60_000);
    const left = await g.wait([file]);
    expect(left).to.be.above(0).and.at.most(60_000);
    expect(held).to.deep.equal([file]);
  });

  it('ends the wait when the rest of the save lands; a new truncation starts a new wait', async () => {
    const file = join(dir, 'deny.cedar');
    await writeFile(file, '');
    const g = grace();
    expect(await g.wait([file])).to.equal(60_000);
    await writeFile(file, 'forbid (principal, action, resource);\n');
    expect(await g.wait([file])).to.equal(0);
    await truncate(file, 0);
    expect(await g.wait([file])).to.equal(60_000);
    expect(held).to.deep.equal([file, file]);
  });

  it('believes an empty file at once with a grace of 0, and says nothing', async () => {
    const file = join(dir, 'config.yaml');
    await writeFile(file, '');
    expect(await new EmptyFileGrace(0, (path) => held.push(path)).wait([file])).to.equal(0);
    expect(held).to.deep.equal([]);
  });
});
