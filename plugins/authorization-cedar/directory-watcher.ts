/**
 * Watches one directory's files (see lib/files/tree-watcher.ts for a directory that does not
 * exist yet or is removed and made again). Events are debounced: an editor's save in several
 * writes, or a checkout of many files, becomes one reload. A file a change left empty or removed
 * holds the reload back a while (lib/files/save-grace.ts): a save may be halfway, and a policy
 * file read empty or missing then is a set without that file's forbids.
 */
import { resolve } from 'node:path';
import { SaveGrace, type HalfSaved } from '../../lib/files/save-grace.js';
import { watchTree, type TreeWatch } from '../../lib/files/tree-watcher.js';

export class DirectoryWatcher {
  private watcher: TreeWatch | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Files added, changed or removed since the last reload: the ones that may be a save caught halfway. */
  private readonly changed = new Set<string>();
  private readonly grace: SaveGrace;
  private closed = false;
  readonly dir: string;

  constructor(
    dir: string,
    private readonly debounceMs: number,
    private readonly onChange: () => void,
    private readonly onError: (err: Error) => void,
    halfSaved: { graceMs: number; onHeld: (path: string, how: HalfSaved, graceMs: number) => void },
  ) {
    this.dir = resolve(dir);
    this.grace = new SaveGrace(halfSaved.graceMs, halfSaved.onHeld);
  }

  /** Resolves once the watch is in place: a change from then on is reported. */
  async start(): Promise<void> {
    // A configuration directory also holds state/, mcpservers/...: only the directory's own entries.
    this.watcher = await watchTree(this.dir, {
      depth: 1,
      relevant: () => true,
      onEvent: (_event, path) => {
        this.changed.add(path);
        this.schedule(this.debounceMs);
      },
      onError: this.onError,
    });
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.fire();
    }, ms);
  }

  private async fire(): Promise<void> {
    const wait = await this.grace.wait(this.changed);
    if (wait > 0) {
      // An event that came while we looked has set its own timer already.
      if (!this.timer) this.schedule(wait);
      return;
    }
    this.changed.clear();
    this.onChange();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.watcher?.close();
    this.watcher = undefined;
  }
}
