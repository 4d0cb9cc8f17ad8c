/**
 * Watches a directory's tree, down to a given depth, including a directory that does not
 * exist yet or is removed and made again. chokidar, told to watch a missing path, reports its
 * creation but not the files then written into it; so the nearest existing ancestor of the
 * directory's parent is watched instead, with everything but the way down to the directory and
 * what the caller calls relevant inside it ignored. A first run that creates its configuration
 * directory, or a `mcpservers/` folder, after start-up is then seen like any other edit.
 */
import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

export type TreeEvent = 'add' | 'change' | 'unlink';

export interface TreeWatchOptions {
  /** Levels below the directory to report: 1 = its own entries, 2 = theirs too. */
  depth: number;
  /** Whether a path inside the directory (at any level up to `depth`) is watched. */
  relevant(path: string): boolean;
  onEvent(event: TreeEvent, path: string): void;
  onError(err: Error): void;
}

/** Resolves once the watch is in place: a change from then on is reported. */
export async function watchTree(dir: string, options: TreeWatchOptions): Promise<FSWatcher> {
  const target = resolve(dir);
  let root = dirname(target);
  while (!existsSync(root) && dirname(root) !== root) root = dirname(root);
  const depth = relative(root, target).split(sep).length - 1 + options.depth;
  const onTheWay = (path: string): boolean => path === root || target === path || target.startsWith(path + sep);
  const watched = (path: string): boolean => onTheWay(path) || (path.startsWith(target + sep) && options.relevant(path));
  const watcher = watch(root, { ignoreInitial: true, depth, ignored: (path: string) => !watched(resolve(path)) });
  const report = (event: TreeEvent) => (path: string) => {
    const full = resolve(path);
    if (full.startsWith(target + sep)) options.onEvent(event, full);
  };
  watcher.on('add', report('add'));
  watcher.on('change', report('change'));
  watcher.on('unlink', report('unlink'));
  watcher.on('error', (err) => options.onError(err instanceof Error ? err : new Error(String(err))));
  await new Promise<void>((done) => watcher.once('ready', () => done()));
  return watcher;
}
