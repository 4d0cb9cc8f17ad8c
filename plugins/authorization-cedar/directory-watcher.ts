/**
 * Watches one directory's files (see lib/files/tree-watcher.ts for a directory that does not
 * exist yet or is removed and made again). Events are debounced: an editor's save in several
 * writes, or a checkout of many files, becomes one reload.
 */
import { resolve } from 'node:path';
import { watchTree, type TreeWatch } from '../../lib/files/tree-watcher.js';

export class DirectoryWatcher {
  private watcher: TreeWatch | undefined;
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
    // A configuration directory also holds state/, mcpservers/...: only the directory's own entries.
    this.watcher = await watchTree(this.dir, { depth: 1, relevant: () => true, onEvent: () => this.schedule(), onError: this.onError });
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
