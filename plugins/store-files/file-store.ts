/**
 * Resources as YAML files: `mcpservers/*.yaml` and `workflows/*.yaml` under the config
 * directory, one resource per file. chokidar reports edits; each path is debounced so an
 * editor's save-in-several-writes is read once, complete.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { basename, extname, join, relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { stringify } from 'yaml';
import type { RawResource, ResourceKind, ResourceStore, StoreChange, StoreLoadResult } from '../../kernel/contracts/store.js';
import { parseYaml } from '../../kernel/config/yaml-document.js';
import type { ConfigProblem } from '../../kernel/errors.js';
import { SETTINGS_FILE } from '../../kernel/config/pipeline.js';
import { PRIVATE_FILE, removeLeftoverTempFiles, writeFileAtomic } from '../../lib/files/atomic-write.js';
import { readSettingsText, writeSettingsText } from '../../lib/files/settings-file.js';

const DIRS: Record<ResourceKind, string> = { mcpserver: 'mcpservers', workflow: 'workflows' };

function isYaml(path: string): boolean {
  const ext = extname(path);
  return (ext === '.yaml' || ext === '.yml') && !basename(path).startsWith('.');
}

export class FileStore implements ResourceStore {
  readonly mode = 'filesystem';
  readonly lifecycle = 'imperative';
  private watcher: FSWatcher | undefined;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private swept = false;
  /** Writes this store made per path: a watcher read that overlapped one of them is stale. */
  private readonly ownWrites = new Map<string, number>();

  constructor(
    private readonly root: string,
    private readonly debounceMs: number,
    private readonly onLeftover: (path: string) => void = () => undefined,
  ) {}

  /** Once, before the first load: temp files of writes a crash interrupted. */
  private async sweep(): Promise<void> {
    if (this.swept) return;
    this.swept = true;
    for (const dir of [this.root, ...Object.values(DIRS).map((d) => join(this.root, d))]) {
      for (const path of await removeLeftoverTempFiles(dir)) this.onLeftover(path);
    }
  }

  private kindOf(path: string): ResourceKind | undefined {
    const rel = relative(this.root, path).split(sep);
    if (rel.length !== 2) return undefined;
    if (rel[0] === DIRS.mcpserver) return 'mcpserver';
    if (rel[0] === DIRS.workflow) return 'workflow';
    return undefined;
  }

  private async read(kind: ResourceKind, file: string): Promise<RawResource> {
    const text = await readFile(file, 'utf8');
    return { kind, key: file, parsed: parseYaml(text, file) };
  }

  async loadAll(): Promise<StoreLoadResult> {
    await this.sweep();
    const resources: RawResource[] = [];
    const problems: ConfigProblem[] = [];
    for (const kind of Object.keys(DIRS) as ResourceKind[]) {
      const dir = join(this.root, DIRS[kind]);
      let names: string[];
      try {
        names = (await readdir(dir)).filter(isYaml).sort();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        problems.push({ file: dir, line: 0, column: 0, field: '', message: `cannot read directory: ${(err as Error).message}` });
        continue;
      }
      for (const name of names) {
        const file = join(dir, name);
        try {
          resources.push(await this.read(kind, file));
        } catch (err) {
          problems.push({ file, line: 0, column: 0, field: '', message: `cannot read: ${(err as Error).message}` });
        }
      }
    }
    return { resources, problems };
  }

  fileFor(kind: ResourceKind, name: string): string {
    return join(this.root, DIRS[kind], `${name}.yaml`);
  }

  async write(kind: ResourceKind, name: string, body: Record<string, unknown>, key?: string): Promise<RawResource> {
    const file = key ?? this.fileFor(kind, name);
    const text = stringify(body, { lineWidth: 0 });
    await writeFileAtomic(file, text, { mode: PRIVATE_FILE });
    this.ownWrites.set(file, (this.ownWrites.get(file) ?? 0) + 1);
    return { kind, key: file, parsed: parseYaml(text, file) };
  }

  async remove(_kind: ResourceKind, key: string): Promise<{ location: string }> {
    await rm(key, { force: true });
    this.ownWrites.set(key, (this.ownWrites.get(key) ?? 0) + 1);
    return { location: key };
  }

  readSettingsText(): Promise<string> {
    return readSettingsText(this.root);
  }

  writeSettings(text: string): Promise<{ location: string }> {
    return writeSettingsText(this.root, text);
  }

  async watch(onChange: (change: StoreChange) => void): Promise<void> {
    const targets = [join(this.root, DIRS.mcpserver), join(this.root, DIRS.workflow), join(this.root, SETTINGS_FILE)];
    const watcher = watch(targets, {
      ignoreInitial: true,
      depth: 0,
      ignored: (path: string) => basename(path).startsWith('.'),
    });
    this.watcher = watcher;
    const settingsFile = join(this.root, SETTINGS_FILE);
    const schedule = (path: string, removed: boolean): void => {
      clearTimeout(this.timers.get(path));
      this.timers.set(
        path,
        setTimeout(() => {
          this.timers.delete(path);
          void this.emit(path, removed, settingsFile, onChange);
        }, this.debounceMs),
      );
    };
    watcher.on('add', (p) => schedule(p, false));
    watcher.on('change', (p) => schedule(p, false));
    watcher.on('unlink', (p) => schedule(p, true));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  private async emit(path: string, removed: boolean, settingsFile: string, onChange: (c: StoreChange) => void): Promise<void> {
    if (path === settingsFile) {
      onChange({ type: 'settings' });
      return;
    }
    const kind = this.kindOf(path);
    if (!kind || !isYaml(path)) return;
    if (removed) {
      onChange({ type: 'remove', kind, key: path });
      return;
    }
    try {
      const writesBefore = this.ownWrites.get(path) ?? 0;
      const resource = await this.read(kind, path);
      // A core tool wrote this file while we read it: what we read is older than what it
      // applied, and must not overwrite it (its own change event follows with the new text).
      if ((this.ownWrites.get(path) ?? 0) !== writesBefore) return;
      onChange({ type: 'upsert', resource });
    } catch (err) {
      // Deleted between the event and the read: the unlink event follows.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      onChange({
        type: 'invalid',
        kind,
        key: path,
        problems: [{ file: path, line: 0, column: 0, field: '', message: `cannot read: ${(err as Error).message}` }],
      });
    }
  }

  async close(): Promise<void> {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await this.watcher?.close();
    this.watcher = undefined;
  }
}
