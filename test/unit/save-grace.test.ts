/**
 * lib/files/save-grace.ts on real files: an empty or missing file waits out its grace before it
 * is believed, the rest of the save ends the wait, and a new gap starts a new one.
 */
import { mkdtemp, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { SaveGrace, type HalfSaved } from '../../lib/files/save-grace.js';

describe('SaveGrace', () => {
  let dir: string;
  const held: [string, HalfSaved][] = [];
  const grace = () => new SaveGrace(60_000, (path, how) => held.push([path, how]));

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-grace-'));
    held.length = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads a file with text at once', async () => {
    const file = join(dir, 'config.yaml');
    await writeFile(file, 'a: 1\n');
    expect(await grace().wait([file])).to.equal(0);
    expect(held).to.deep.equal([]);
  });

  it('holds an empty file for the grace, said once, and counts down from when it began', async () => {
    const file = join(dir, 'config.yaml');
    await writeFile(file, '');
    const g = grace();
    expect(await g.wait([file])).to.equal(60_000);
    expect(await g.wait([file]))
      .to.be.above(0)
      .and.at.most(60_000);
    expect(held).to.deep.equal([[file, 'empty']]);
  });

  it('holds a file that is gone (a save by rename moved it away) until it is back', async () => {
    const file = join(dir, 'deny.cedar');
    await writeFile(file, 'forbid (principal, action, resource);\n');
    await rename(file, `${file}~`);
    const g = grace();
    expect(await g.wait([file])).to.equal(60_000);
    await writeFile(file, 'forbid (principal, action, resource);\n');
    expect(await g.wait([file])).to.equal(0);
    expect(held).to.deep.equal([[file, 'gone']]);
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
    expect(held).to.deep.equal([
      [file, 'empty'],
      [file, 'empty'],
    ]);
  });

  it('believes an empty or missing file at once with a grace of 0, and says nothing', async () => {
    const file = join(dir, 'config.yaml');
    await writeFile(file, '');
    const g = new SaveGrace(0, (path, how) => held.push([path, how]));
    expect(await g.wait([file, join(dir, 'gone.yaml')])).to.equal(0);
    expect(held).to.deep.equal([]);
  });
});
