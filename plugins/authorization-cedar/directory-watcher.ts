/**
 * Watches one directory's files, including a directory that does not exist yet or is removed
 * and made again. chokidar, told to watch a missing path, reports its creation but not the
 * files then written into it; so the nearest existing ancestor of the directory's parent is
 * watched instead, with everything but the way down to the directory and the directory's own
 * entries ignored (a configuration directory also holds state/, mcpservers/...: never read).
 * Events are debounced: an editor's save in several writes, or a checkout of many files,
 * becomes one reload.
 */
import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

export class DirectoryWatcher {
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  readonly dir: string;

  constructor(
    dir: string,
    private readonly debounceMs: number,
    private readonly onChange: () => void,
    private readonly onError: (err: Error) => void,
  ) {
    this.dir = resolve(dir);
  }

  /** Resolves once the watch is in place: a change from then on is reported. */
  async start(): Promise<void> {
    let root = dirname(this.dir);
    while (!existsSync(root) && dirname(root) !== root) root = dirname(root);
    // Down to the directory's own entries (one level more than the way to the directory).
    const depth = relative(root, this.dir).split(sep).length + 1;
    const relevant = (path: string): boolean => path === root || path === this.dir || this.dir.startsWith(path + sep) || dirname(path) === this.dir;
    const watcher = watch(root, { ignoreInitial: true, depth, ignored: (path: string) => !relevant(resolve(path)) });
    this.watcher = watcher;
    watcher.on('all', (_event, path) => {
      if (resolve(path) === root) return;
      this.schedule();
    });
    watcher.on('error', (err) => this.onError(err instanceof Error ? err : new Error(String(err))));
    await new Promise<void>((done) => watcher.once('ready', () => done()));
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onChange();
    }, this.debounceMs);
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.watcher?.close();
    this.watcher = undefined;
  }
}
