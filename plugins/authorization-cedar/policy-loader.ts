/**
 * The operator's policy set over time: loaded at startup (where a problem stops startup, naming
 * file and line), then reloaded whenever a file in the policies directory changes, or the
 * directory itself appears, disappears or moves (authorization.policiesPath). A reload that
 * fails keeps the last good set: it is logged with file and line and announced through
 * onConfigRejected, as an invalid edit of any other configuration file is. Reloads run one at a
 * time, in order, so the set in force is always the one read last.
 */
import { resolve } from 'node:path';
import { ConfigInvalidError, formatConfigProblem, type ConfigProblem, type Logger } from '../../kernel/index.js';
import type { CedarAuthorizer } from './authorizer.js';
import { compilePolicies, type CompileResult, type CompiledPolicySet } from './compile.js';
import { halfSavedMessage } from '../../lib/files/save-grace.js';
import { DirectoryWatcher } from './directory-watcher.js';
import type { ShippedPolicies } from './assets.js';
import { readPolicyFiles } from './policy-files.js';
import { SerialQueue } from '../../kernel/index.js';

export interface PolicyLoaderOptions {
  configPath: string;
  /** Whether the shipped baseline is part of the set (plugin option `baseline`). */
  baseline: boolean;
  shipped: ShippedPolicies;
  authorizer: CedarAuthorizer;
  log: Logger;
  debounceMs: number;
  /** How long a policy file a change left empty or removed waits before that is read (lib/files/save-grace.ts). */
  saveGraceMs: number;
  /** Told of a reload refused (the last good set stays). */
  onRejected(problems: readonly ConfigProblem[]): void;
}

export class PolicyLoader {
  private dirValue = '';
  private watcher: DirectoryWatcher | undefined;
  private readonly reloads = new SerialQueue();
  private watching = false;

  constructor(private readonly o: PolicyLoaderOptions) {}

  get dir(): string {
    return this.dirValue;
  }

  private async compile(): Promise<CompileResult> {
    const files = await readPolicyFiles(this.dirValue, this.o.configPath);
    if (files.problems.length > 0) return { ok: false, problems: files.problems };
    const sources = this.o.baseline ? [this.o.shipped.baseline, ...files.sources] : files.sources;
    return compilePolicies(sources, this.o.shipped.schema);
  }

  private summary(set: CompiledPolicySet): string {
    return `${set.operatorPolicies} policies from ${set.operatorFiles} files`;
  }

  private install(set: CompiledPolicySet): void {
    this.o.authorizer.install(set);
    for (const w of set.warnings) this.o.log.warn(`policy warning: ${formatConfigProblem(w)}`);
  }

  /** Startup: the set must be valid, or ConfigInvalidError names every problem. */
  async load(policiesPath: string): Promise<void> {
    this.dirValue = resolve(this.o.configPath, policiesPath);
    const result = await this.compile();
    if (!result.ok) throw new ConfigInvalidError(result.problems);
    this.install(result.set);
    const baseline = this.o.baseline ? ' and the baseline' : ' (no baseline)';
    this.o.log.info(`policies loaded: ${this.summary(result.set)} in ${this.dirValue}${baseline}`);
  }

  /** Reloads after every earlier reload has finished; never throws. */
  reload(): Promise<void> {
    return this.reloads.run(() => this.reloadNow()).catch((err: unknown) => this.o.log.error(`policies: reload failed: ${(err as Error).message}`));
  }

  private reject(problems: readonly ConfigProblem[]): void {
    for (const p of problems) this.o.log.error(`policies rejected, the last good set stays: ${formatConfigProblem(p)}`);
    this.o.onRejected(problems);
  }

  private async reloadNow(): Promise<void> {
    const result = await this.compile();
    if (!result.ok) {
      this.reject(result.problems);
      return;
    }
    // A save that changed nothing (or a change outside the set): decisions stay cached.
    if (result.set.fingerprint === this.o.authorizer.current?.fingerprint) return;
    try {
      this.install(result.set);
    } catch (err) {
      this.reject([{ file: this.dirValue, line: 0, column: 0, field: '', message: (err as Error).message }]);
      return;
    }
    this.o.log.info(`policies reloaded: ${this.summary(result.set)}`);
  }

  /** authorization.policiesPath changed: watch the new directory and load what it holds. */
  async moveTo(policiesPath: string): Promise<void> {
    const dir = resolve(this.o.configPath, policiesPath);
    if (dir === this.dirValue) return;
    this.dirValue = dir;
    this.o.log.info(`policies: now reading ${dir}`);
    if (this.watching) await this.watch();
    await this.reload();
  }

  /** Starts watching; an edit made between the startup load and now is picked up here. */
  async start(): Promise<void> {
    this.watching = true;
    await this.watch();
    await this.reload();
  }

  private async watch(): Promise<void> {
    await this.watcher?.close();
    const watcher = new DirectoryWatcher(
      this.dirValue,
      this.o.debounceMs,
      () => void this.reload(),
      (err) => this.o.log.warn(`policies: watching ${this.dirValue}: ${err.message}`),
      { graceMs: this.o.saveGraceMs, onHeld: (path, how, ms) => this.o.log.info(`policies: ${halfSavedMessage(path, how, ms)}`) },
    );
    this.watcher = watcher;
    await watcher.start();
  }

  async stop(): Promise<void> {
    this.watching = false;
    await this.watcher?.close();
    this.watcher = undefined;
    await this.reloads.idle();
  }
}
