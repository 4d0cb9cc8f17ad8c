/**
 * Watches a directory's tree, down to a given depth, including a directory that does not
 * exist yet or is removed and made again. chokidar, told to watch a missing path, reports its
 * creation but not the files then written into it; so the nearest existing ancestor of the
 * directory's parent is watched instead, with everything but the way down to the directory and
 * what the caller calls relevant inside it ignored. A first run that creates its configuration
 * directory, or a `mcpservers/` folder, after start-up is then seen like any other edit.
 *
 * chokidar reads a new directory before it starts watching it, so a file written in between
 * (a folder made and filled at once, as `mkdir -p && cp` does) is never reported until
 * something else changes there. Each new directory is therefore read again a little later,
 * once its watch is surely in place, and what chokidar has not seen is reported as added.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
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
  // A new directory read again after chokidar's own read (the gap is its readdir to its watch).
  const RESCAN_MS = [50, 500, 2_000];
  const rescan = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const seen = new Set(watcher.getWatched()[dir] ?? []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (seen.has(entry.name) || !path.startsWith(target + sep) || !watched(path)) continue;
      if (relative(target, path).split(sep).length > options.depth) continue;
      if (entry.isDirectory()) await rescan(path);
      else if (entry.isFile()) options.onEvent('add', path);
    }
  };
  watcher.on('addDir', (path) => {
    const dir = resolve(path);
    if (dir !== target && !dir.startsWith(target + sep)) return;
    for (const ms of RESCAN_MS) setTimeout(() => void rescan(dir), ms).unref();
  });
  watcher.on('add', report('add'));
  watcher.on('change', report('change'));
  watcher.on('unlink', report('unlink'));
  watcher.on('error', (err) => options.onError(err instanceof Error ? err : new Error(String(err))));
  await new Promise<void>((done) => watcher.once('ready', () => done()));
  return watcher;
}
