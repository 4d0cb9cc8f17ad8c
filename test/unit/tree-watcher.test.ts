/**
 * The tree watcher under the file store: a configuration directory and its folders made after
 * it started (a first run), and filled at once; the directory removed, replaced and made again.
 */
import { expect } from 'chai';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { watchTree, type TreeWatch } from '../../lib/files/tree-watcher.js';
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

describe('tree watcher: the directory itself going and coming back', () => {
  let parent: string;
  let watch: TreeWatch | undefined;
  const events: string[] = [];

  beforeEach(async () => {
    parent = await mkdtemp(join(tmpdir(), 'switchboard-tree-'));
    events.length = 0;
  });
  afterEach(async () => {
    await watch?.close();
    watch = undefined;
    await rm(parent, { recursive: true, force: true });
  });

  const start = async (root: string) => {
    watch = await watchTree(root, {
      depth: 2,
      relevant: (path) => !basename(path).startsWith('.'),
      onEvent: (event, path) => events.push(`${event} ${path.slice(parent.length + 1)}`),
      onError: (err) => {
        throw err;
      },
    });
  };
  const heard = (wanted: string[]) =>
    eventually(
      () => Promise.resolve([...events]),
      (seen) => wanted.every((w) => seen.includes(w)),
      10_000,
      10,
    );

  it('reports each file of a removed directory gone once, and the files of the one made again as added', async () => {
    const root = join(parent, 'config');
    await mkdir(join(root, 'mcpservers'), { recursive: true });
    await writeFile(join(root, 'mcpservers', 'a.yaml'), 'name: a\n');
    await start(root);
    await rm(root, { recursive: true });
    await heard(['unlink config/mcpservers/a.yaml']);
    await mkdir(join(root, 'mcpservers'), { recursive: true });
    await writeFile(join(root, 'mcpservers', 'b.yaml'), 'name: b\n');
    await heard(['add config/mcpservers/b.yaml']);
    await writeFile(join(root, 'mcpservers', 'b.yaml'), 'name: b2\n');
    await heard(['change config/mcpservers/b.yaml']);
    expect(events.filter((e) => e === 'unlink config/mcpservers/a.yaml')).to.have.length(1);
  });

  it('follows a directory replaced by a rename: the old files gone, the new ones added, later edits heard', async () => {
    const root = join(parent, 'config');
    await mkdir(join(root, 'mcpservers'), { recursive: true });
    await writeFile(join(root, 'mcpservers', 'old.yaml'), 'name: old\n');
    await start(root);
    const next = join(parent, 'next');
    await mkdir(join(next, 'mcpservers'), { recursive: true });
    await writeFile(join(next, 'mcpservers', 'new.yaml'), 'name: new\n');
    await rm(root, { recursive: true });
    await rename(next, root);
    await heard(['unlink config/mcpservers/old.yaml', 'add config/mcpservers/new.yaml']);
    await writeFile(join(root, 'mcpservers', 'later.yaml'), 'name: later\n');
    await heard(['add config/mcpservers/later.yaml']);
  });

  it('waits for a directory two levels that do not exist yet, and hears nothing of its siblings', async () => {
    const root = join(parent, 'a', 'b', 'config');
    await start(root);
    await mkdir(join(parent, 'a', 'b', 'sibling'), { recursive: true });
    await writeFile(join(parent, 'a', 'b', 'sibling', 'x.yaml'), 'name: x\n');
    await mkdir(join(root, 'mcpservers'), { recursive: true });
    await writeFile(join(root, 'mcpservers', 'c.yaml'), 'name: c\n');
    await heard(['add a/b/config/mcpservers/c.yaml']);
    expect(events.filter((e) => !e.startsWith('add a/b/config/'))).to.deep.equal([]);
  });
});
