/**
 * The tree watcher under the file store: a configuration directory and its folders made after
 * it started (a first run), and filled at once.
 */
import { expect } from 'chai';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { watchTree } from '../../lib/files/tree-watcher.js';
import { eventually } from '../support/harness.js';

describe('tree watcher', () => {
  let parent: string;

  beforeEach(async () => {
    parent = await mkdtemp(join(tmpdir(), 'switchboard-tree-'));
  });
  afterEach(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('reports a file renamed into a folder the moment the folder and its parent are made, every time', async () => {
    // chokidar reads a new folder before it watches it: a file arriving in that gap was never
    // reported (about one first run in fifteen here), so the file store never loaded it.
    for (let round = 0; round < 20; round++) {
      const root = join(parent, `config${round}`);
      const added = new Set<string>();
      const watcher = await watchTree(root, {
        depth: 2,
        relevant: (path) => !basename(path).startsWith('.'),
        onEvent: (event, path) => {
          if (event === 'add') added.add(path);
        },
        onError: (err) => {
          throw err;
        },
      });
      try {
        const file = join(root, 'mcpservers', 'late.yaml');
        await mkdir(join(root, 'mcpservers'), { recursive: true });
        await writeFile(join(root, 'mcpservers', '.late.yaml.tmp'), 'name: late\n');
        await rename(join(root, 'mcpservers', '.late.yaml.tmp'), file);
        await eventually(
          () => Promise.resolve([...added]),
          (paths) => paths.includes(file),
          10_000,
          10,
        );
        expect(
          [...added].filter((p) => basename(p).startsWith('.')),
          `round ${round}`,
        ).to.deep.equal([]);
      } finally {
        await watcher.close();
      }
    }
  });
});
