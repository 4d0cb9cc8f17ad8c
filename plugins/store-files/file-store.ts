/**
 * Resources as YAML files: `<plural>/*.yaml` under the config directory for each kind the
 * pipeline has registered (`mcpservers/`, `workflows/`), one resource per file. chokidar
 * reports edits; each path is debounced so an editor's save-in-several-writes is read once,
 * complete. YAML files in a directory no registered kind claims are reported, not read. A
 * link is followed while its target stays in the configuration directory (links.ts).
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { basename, extname, join, relative, sep } from 'node:path';
import { stringify } from 'yaml';
import {
  parseYaml,
  SETTINGS_FILE,
  type ConfigProblem,
  type RawResource,
  type ResourceKind,
  type ResourceStore,
  type StoreChange,
  type StoreLoadResult,
  UnsupportedError,
  type ResourceKindDefinition,
} from '../../kernel/index.js';
import { PRIVATE_FILE, removeLeftoverTempFiles, writeFileAtomic } from '../../lib/files/atomic-write.js';
import { SaveGrace, type HalfSaved } from '../../lib/files/save-grace.js';
import { readSettingsText, writeSettingsText } from '../../lib/files/settings-file.js';
import { watchTree, type TreeWatch } from '../../lib/files/tree-watcher.js';
import { linkVerdict, realDirectories } from './links.js';

function isYaml(path: string): boolean {
  const ext = extname(path);
  return (ext === '.yaml' || ext === '.yml') && !basename(path).startsWith('.');
}

export interface FileStoreEvents {
  /** A temp file an interrupted write left, removed. */
  onLeftover?: (path: string) => void;
  /** A YAML file in a directory no registered kind claims (its plugin is off?): not read. */
  onUnclaimed?: (path: string, directory: string) => void;
  /** The watcher failed (a permission, too many watches): edits may go unseen until a reload. */
  onWatchError?: (err: Error) => void;
  /** A link whose target leaves the configuration directory, skipped (said once per link and target). */
  onOutsideLink?: (link: string, dir: string) => void;
  /** A file a change left empty or removed, held back for a while: a save may be halfway (lib/files/save-grace.ts). */
  onHalfSaved?: (path: string, how: HalfSaved, graceMs: number) => void;
}

export class FileStore implements ResourceStore {
  readonly mode = 'filesystem';
  readonly lifecycle = 'imperative';
  private watcher: TreeWatch | undefined;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private swept = false;
  /** Writes this store made per path: a watcher read that overlapped one of them is stale. */
  private readonly ownWrites = new Map<string, number>();
  /** Unclaimed files already reported: said once, not on every reload. */
  private readonly reported = new Set<string>();
  /** Links skipped for leaving the directory, with the target they had when said. */
  private readonly skippedLinks = new Map<string, string>();
  private readonly grace: SaveGrace;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly debounceMs: number,
    /** The kinds registered now (the pipeline's), read at every load. */
    private readonly kinds: () => readonly ResourceKindDefinition[],
    private readonly events: FileStoreEvents = {},
    /** Read links whose target is outside the configuration directory too (the option followLinksOutside). */
    private readonly followLinksOutside = false,
    graceMs?: number,
  ) {
    this.grace = new SaveGrace(graceMs, (path, how, ms) => this.events.onHalfSaved?.(path, how, ms));
  }

  /** Once, before the first load: temp files of writes a crash interrupted. */
  private async sweep(): Promise<void> {
    if (this.swept) return;
    this.swept = true;
    for (const dir of [this.root, ...this.kinds().map((k) => join(this.root, k.plural))]) {
      for (const path of await removeLeftoverTempFiles(dir)) this.events.onLeftover?.(path);
    }
  }

  private directoryOf(kind: ResourceKind): string {
    const known = this.kinds().find((k) => k.name === kind);
    if (!known) throw new UnsupportedError(`no plugin that is on keeps resources of the kind '${kind}'`);
    return join(this.root, known.plural);
  }

  private kindOf(path: string): ResourceKind | undefined {
    const rel = relative(this.root, path).split(sep);
    if (rel.length !== 2) return undefined;
    return this.kinds().find((k) => k.plural === rel[0])?.name;
  }

  /** YAML files in directories of the config directory that no registered kind claims. */
  private async reportUnclaimed(): Promise<void> {
    const report = this.events.onUnclaimed;
    if (!report) return;
    const claimed = new Set(this.kinds().map((k) => k.plural));
    let entries: Dirent[];
    try {
      entries = await readdir(this.root, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.') || claimed.has(entry.name)) continue;
      const dir = join(this.root, entry.name);
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names.filter(isYaml).sort()) {
        const file = join(dir, name);
        if (this.reported.has(file)) continue;
        this.reported.add(file);
        report(file, entry.name);
      }
    }
  }

  /**
   * The resource in `file`, or undefined for a link that leaves the configuration directory
   * (reported, not read). The file keeps its own name as key and in every problem.
   */
  private async read(kind: ResourceKind, file: string): Promise<RawResource | undefined> {
    const dir = this.directoryOf(kind);
    const verdict = await linkVerdict(file, await realDirectories([this.root, dir]), this.followLinksOutside);
    if (verdict.kind === 'outside') {
      if (this.skippedLinks.get(file) !== verdict.target) this.events.onOutsideLink?.(file, this.root);
      this.skippedLinks.set(file, verdict.target);
      return undefined;
    }
    this.skippedLinks.delete(file);
    const text = await readFile(verdict.path, 'utf8');
    return { kind, key: file, parsed: parseYaml(text, file) };
  }

  async loadAll(): Promise<StoreLoadResult> {
    await this.sweep();
    const resources: RawResource[] = [];
    const problems: ConfigProblem[] = [];
    for (const { name: kind, plural } of this.kinds()) {
      const dir = join(this.root, plural);
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
          const resource = await this.read(kind, file);
          if (resource) resources.push(resource);
        } catch (err) {
          problems.push({ file, line: 0, column: 0, field: '', message: `cannot read: ${(err as Error).message}` });
        }
      }
    }
    await this.reportUnclaimed();
    return { resources, problems };
  }

  fileFor(kind: ResourceKind, name: string): string {
    return join(this.directoryOf(kind), `${name}.yaml`);
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
    // The config directory itself and the kinds' folders may appear after start-up (a first
    // run, `switchboard import`): the tree is watched, not only the folders that exist now.
    this.watcher = await watchTree(this.root, {
      depth: 2,
      relevant: (path) => {
        if (basename(path).startsWith('.')) return false;
        const rel = relative(this.root, path).split(sep);
        const plurals = this.kinds().map((k) => k.plural);
        if (rel.length === 1) return rel[0] === SETTINGS_FILE || plurals.includes(rel[0]!);
        return rel.length === 2 && plurals.includes(rel[0]!);
      },
      onEvent: (event, path) => this.schedule(path, event === 'unlink', this.debounceMs, onChange),
      onError: (err) => this.events.onWatchError?.(err),
    });
  }

  /** Reads `path` once it has been quiet for `ms`: a later event for it starts the wait again. */
  private schedule(path: string, removed: boolean, ms: number, onChange: (c: StoreChange) => void): void {
    if (this.closed) return;
    clearTimeout(this.timers.get(path));
    this.timers.set(
      path,
      setTimeout(() => {
        this.timers.delete(path);
        void this.emit(path, removed, onChange);
      }, ms),
    );
  }

  private async emit(path: string, removed: boolean, onChange: (c: StoreChange) => void): Promise<void> {
    // An empty or missing file may be a save caught halfway: its next event, or the grace's end,
    // reads it (an event that came while we looked has set its own timer already).
    const wait = await this.grace.wait([path]);
    if (wait > 0) {
      if (!this.timers.has(path)) this.schedule(path, removed, wait, onChange);
      return;
    }
    if (path === join(this.root, SETTINGS_FILE)) {
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
      // A link now pointing out of the directory: what it defined before is gone with it.
      onChange(resource ? { type: 'upsert', resource } : { type: 'remove', kind, key: path });
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
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await this.watcher?.close();
    this.watcher = undefined;
  }
}
