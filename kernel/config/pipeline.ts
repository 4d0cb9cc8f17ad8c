/**
 * The configuration pipeline: built-in defaults (schema defaults) -> config.yaml -> resource
 * files of the kinds plugins registered, each validated, merged into one ConfigSnapshot and
 * announced through onConfigLoad.
 * Startup is strict (any problem stops it, all problems listed); a running instance is
 * forgiving (an invalid edit keeps the last good definition and logs why).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AsyncSeriesHook } from 'tapable';
import { ConfigInvalidError, formatConfigProblem, type ConfigProblem } from '../errors.js';
import type { Logger } from '../log.js';
import type { RawResource, ResourceKind, ResourceStore, StoreChange } from '../contracts/store.js';
import type { ConfigSnapshot, Located, TypedCollections } from './snapshot.js';
import type { Settings } from './settings.js';
import { nameOf, ResourceKinds, type ResourceKindDefinition } from './resource-kinds.js';
import { validateDocument } from './validate.js';
import { parseYaml, type ParsedYaml } from './yaml-document.js';
import { SerialQueue } from '../serial-queue.js';
import { RestartTracker, type RestartChange } from './restart-keys.js';

export const SETTINGS_FILE = 'config.yaml';

/** Reads and validates config.yaml; a missing file means all defaults. */
export async function readSettings(configPath: string): Promise<{ settings: Settings; parsed: ParsedYaml | undefined; text: string }> {
  const file = join(configPath, SETTINGS_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new ConfigInvalidError([{ file, line: 0, column: 0, field: '', message: `cannot read: ${(err as Error).message}` }]);
    }
    text = '';
  }
  const parsed = parseYaml(text, file);
  if (parsed.problems.length) throw new ConfigInvalidError(parsed.problems);
  const value = parsed.value ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigInvalidError([{ file, line: 1, column: 1, field: '', message: 'must be a mapping of settings' }]);
  }
  const problems = validateDocument('config', value, parsed);
  if (problems.length) throw new ConfigInvalidError(problems);
  return { settings: value as Settings, parsed, text };
}

interface Validated {
  kind: ResourceKind;
  key: string;
  name: string;
  located: Located<object>;
  fingerprint: string;
}

/** Extra checks a plugin adds for a kind (the workflow engine checks templates, for example). */
export type ResourceCheck = (kind: ResourceKind, value: unknown, raw: RawResource) => ConfigProblem[];

/** Extra checks a plugin adds for config.yaml (the toolsets plugin checks presets). */
export type SettingsCheck = (settings: Settings, parsed: Pick<ParsedYaml, 'file' | 'locate'>) => ConfigProblem[];

export class ConfigPipeline {
  private snapshotValue: ConfigSnapshot | undefined;
  private generation = 0;
  /** key -> the validated resource that document holds now. */
  private readonly byKey = new Map<string, Validated>();
  private readonly checks: ResourceCheck[] = [];
  private readonly settingsChecks: SettingsCheck[] = [];
  private readonly kindRegistry = new ResourceKinds();
  /** Reconciles (store changes, applies, reloads): one at a time. */
  private readonly queue = new SerialQueue();
  /** Read-modify-writes of definitions or settings: one at a time. */
  private readonly edits = new SerialQueue();
  /**
   * config.yaml as this process last read or wrote it. The watcher's report of a save this
   * process made finds the same text and reloads nothing: a reload would re-apply the
   * command-line overrides over the settings in force, and a later save would persist them.
   */
  private settingsText: string | undefined;
  /** The settings the process started with, and which restart-only keys differ from them now. */
  private restart: RestartTracker | undefined;

  constructor(
    readonly configPath: string,
    private readonly onConfigLoad: AsyncSeriesHook<[ConfigSnapshot, ConfigSnapshot | undefined]>,
    private readonly log: Logger,
    private settingsValue: Settings,
    /** Applied to every settings document read (command-line overrides). */
    private readonly adjust: (s: Settings) => Settings = (s) => s,
    /** Told of every change refused (the last good configuration stays). */
    private readonly onRejected: (problems: readonly ConfigProblem[]) => void = () => undefined,
  ) {}

  get snapshot(): ConfigSnapshot {
    if (!this.snapshotValue) throw new Error('configuration not loaded yet');
    return this.snapshotValue;
  }

  /** Settings in force now; available before the first snapshot (during plugin setup). */
  currentSettings(): Settings {
    return this.settingsValue;
  }

  /** Restart-only keys (schemas/: `x-applies: restart`) configured otherwise than the process started with. */
  restartRequired(): RestartChange[] {
    return this.restart?.list() ?? [];
  }

  /**
   * Runs one read-modify-write of definitions or settings (a core tool's create, update,
   * delete, save) after every earlier one has finished, so concurrent writers never
   * interleave: each reads what the previous one wrote, and the file always matches memory.
   */
  exclusive<T>(edit: () => Promise<T>): Promise<T> {
    return this.edits.run(edit);
  }

  /** A plugin's kind of resource (in setup): from the next load on, stores read it and the snapshot holds it. */
  addKind(kind: ResourceKindDefinition): void {
    this.kindRegistry.add(kind);
  }

  /** The registered kinds, in registration order: what stores read and watch. */
  kinds(): readonly ResourceKindDefinition[] {
    return this.kindRegistry.list();
  }

  addCheck(check: ResourceCheck): void {
    this.checks.push(check);
  }

  addSettingsCheck(check: SettingsCheck): void {
    this.settingsChecks.push(check);
  }

  /** config.yaml read, validated and checked by every plugin's settings check. */
  private async readCheckedSettings(): Promise<{ settings: Settings; text: string }> {
    const { settings, parsed, text } = await readSettings(this.configPath);
    this.checkSettings(settings, parsed);
    return { settings, text };
  }

  /** core_config_save: config.yaml written through the store, remembered as the text in force. */
  async writeSettings(store: ResourceStore, text: string): Promise<{ location: string }> {
    // Known before the file changes: the watcher cannot see the new text before this does.
    const before = this.settingsText;
    this.settingsText = text;
    try {
      return await store.writeSettings(text);
    } catch (err) {
      this.settingsText = before;
      throw err;
    }
  }

  /** Every plugin's settings checks; throws ConfigInvalidError listing all problems. */
  checkSettings(settings: Settings, parsed: Pick<ParsedYaml, 'file' | 'locate'> | undefined): void {
    const where = parsed ?? { file: join(this.configPath, SETTINGS_FILE), locate: () => ({ line: 0, column: 0 }) };
    const problems = this.settingsChecks.flatMap((check) => check(settings, where));
    if (problems.length) throw new ConfigInvalidError(problems);
  }

  /** Startup: load every resource; any problem anywhere fails the whole load. */
  /**
   * The first load. Settings must be valid. A definition that is not (a bad server file) is,
   * when `strict`, a reason not to start at all (`switchboard check`); otherwise it is
   * reported and left out, and the rest starts, as a reload of that file would leave it: one
   * bad file among twenty should not keep nineteen servers from a team. Saving it fixed loads it.
   */
  async loadAll(
    store: ResourceStore,
    parsedSettings?: Pick<ParsedYaml, 'file' | 'locate'>,
    options: { publish: boolean; strict: boolean } = { publish: true, strict: true },
  ): Promise<void> {
    this.checkSettings(this.settingsValue, parsedSettings);
    const { resources, problems } = await store.loadAll();
    const all = [...problems];
    const names = new Map<string, string>();
    for (const raw of resources) {
      const v = this.validate(raw);
      if (!Array.isArray(v)) {
        const id = `${v.kind}:${v.name}`;
        const other = names.get(id);
        if (other) {
          all.push({ file: raw.parsed.file, ...raw.parsed.locate([]), field: 'name', message: `duplicate ${v.kind} name '${v.name}' (also in ${other})` });
          continue;
        }
        names.set(id, raw.parsed.file);
        this.byKey.set(v.key, v);
      } else {
        all.push(...v);
      }
    }
    if (all.length && options.strict) throw new ConfigInvalidError(all);
    if (all.length) {
      for (const p of all) this.log.error(`${formatConfigProblem(p)} (not loaded; it loads once the file is fixed)`);
      this.onRejected(all);
    }
    if (options.publish) await this.publish();
    else this.snapshotValue = this.compose();
  }

  /** A change reported by the store while running. Serialised: one reconcile at a time. */
  handleChange(change: StoreChange): Promise<void> {
    const run = async (): Promise<void> => {
      switch (change.type) {
        case 'settings':
          await this.reloadSettings();
          return;
        case 'invalid':
          this.reportKept(change.problems, this.byKey.has(change.key));
          return;
        case 'remove': {
          const gone = this.byKey.get(change.key);
          if (!gone) return;
          this.byKey.delete(change.key);
          await this.publish();
          // A deletion is a change like any other: said, so a person watching the log sees it land.
          this.log.info(`removed ${gone.kind} '${gone.name}' (${gone.located.origin.file} is gone)`);
          return;
        }
        case 'upsert':
          await this.upsert(change.resource);
          return;
      }
    };
    return this.queue.run(run).catch((err: unknown) => this.log.error(`configuration change failed: ${String(err)}`));
  }

  /**
   * Applies a resource a core tool just wrote, returning the validated value, so the caller
   * sees its change at once instead of waiting for the file watcher (which then finds
   * nothing new: the fingerprint matches).
   */
  async apply(raw: RawResource): Promise<void> {
    let result: ConfigProblem[] | undefined;
    const run = async (): Promise<void> => {
      result = await this.upsert(raw);
    };
    await this.queue.run(run);
    if (result?.length) throw new ConfigInvalidError(result);
  }

  async removeKey(key: string): Promise<void> {
    await this.handleChange({ type: 'remove', kind: this.byKey.get(key)?.kind ?? '', key });
  }

  /** core_config_update_aggregator: in memory until saved. */
  async replaceSettings(settings: Settings): Promise<void> {
    const run = async (): Promise<void> => {
      this.settingsValue = settings;
      await this.publish();
    };
    await this.queue.run(run);
  }

  /** core_config_reload and config.yaml edits: everything from the store again; problems leave the old config. */
  async reloadAll(store: ResourceStore): Promise<ConfigProblem[]> {
    let problems: ConfigProblem[] = [];
    const run = async (): Promise<void> => {
      try {
        const { settings, text } = await this.readCheckedSettings();
        const { resources, problems: storeProblems } = await store.loadAll();
        const next = new Map<string, Validated>();
        problems = [...storeProblems];
        for (const raw of resources) {
          const v = this.validate(raw);
          if (Array.isArray(v)) problems.push(...v);
          else next.set(v.key, v);
        }
        if (problems.length) return;
        this.settingsValue = this.adjust(settings);
        this.settingsText = text;
        this.byKey.clear();
        for (const [k, v] of next) this.byKey.set(k, v);
        await this.publish();
      } catch (err) {
        if (err instanceof ConfigInvalidError) problems = [...err.problems];
        else throw err;
      }
    };
    await this.queue.run(run);
    if (problems.length) this.reportKept(problems);
    return problems;
  }

  private async reloadSettings(): Promise<void> {
    try {
      const { settings, parsed, text } = await readSettings(this.configPath);
      if (text === this.settingsText) return;
      this.checkSettings(settings, parsed);
      this.settingsValue = this.adjust(settings);
      this.settingsText = text;
      await this.publish();
    } catch (err) {
      if (err instanceof ConfigInvalidError) this.reportKept(err.problems);
      else throw err;
    }
  }

  private async upsert(raw: RawResource): Promise<ConfigProblem[]> {
    const v = this.validate(raw);
    if (Array.isArray(v)) {
      this.reportKept(v, this.byKey.has(raw.key));
      return v;
    }
    for (const other of this.byKey.values()) {
      if (other.key !== v.key && other.kind === v.kind && other.name === v.name) {
        const problem: ConfigProblem = {
          file: raw.parsed.file,
          ...raw.parsed.locate([]),
          field: 'name',
          message: `duplicate ${v.kind} name '${v.name}' (already defined in ${other.located.origin.file})`,
        };
        this.reportKept([problem], this.byKey.has(raw.key));
        return [problem];
      }
    }
    const before = this.byKey.get(v.key);
    if (before && before.fingerprint === v.fingerprint) return [];
    this.byKey.set(v.key, v);
    await this.publish();
    this.log.info(`${before ? 'reloaded' : 'loaded'} ${v.kind} '${v.name}' from ${v.located.origin.file}`);
    return [];
  }

  /** `kept`: an earlier good version is still in use (false for a brand-new file that never loaded). */
  private reportKept(problems: readonly ConfigProblem[], kept = true): void {
    const what = kept ? 'keeping the last good definition' : 'not loaded: fix the file and save it again';
    for (const p of problems) this.log.error(`${formatConfigProblem(p)} (${what})`);
    if (problems.length) this.onRejected(problems);
  }

  private validate(raw: RawResource): Validated | ConfigProblem[] {
    const { parsed } = raw;
    if (parsed.problems.length) return parsed.problems;
    const value = parsed.value;
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      return [{ file: parsed.file, line: 1, column: 1, field: '', message: `must be a mapping (a ${raw.kind} definition)` }];
    }
    const kind = this.kindRegistry.get(raw.kind);
    // Stores read registered kinds only; a change of another kind reaching here is a store's mistake.
    if (!kind) return [{ file: parsed.file, line: 0, column: 0, field: '', message: `no plugin registers the resource kind '${raw.kind}'` }];
    const problems = validateDocument(kind.schema, value, parsed);
    // Plugin checks see only documents that passed the schema.
    if (problems.length === 0) for (const check of this.checks) problems.push(...check(raw.kind, value, raw));
    if (problems.length) return problems;
    const origin = { file: parsed.file, line: parsed.locate([]).line };
    return {
      kind: raw.kind,
      key: raw.key,
      name: nameOf(kind, value),
      // The validated document is the definition consumers get.
      located: { value, origin },
      fingerprint: JSON.stringify(value),
    };
  }

  private async publish(): Promise<void> {
    const previous = this.snapshotValue;
    const next = this.compose();
    this.snapshotValue = next;
    if (!previous) this.restart = new RestartTracker(next.settings, this.log);
    else if (previous.settings !== next.settings) this.restart?.observe(next.settings);
    await this.onConfigLoad.promise(next, previous);
  }

  private compose(): ConfigSnapshot {
    const resources = new Map<string, Map<string, Located<object>>>();
    for (const kind of this.kindRegistry.list()) resources.set(kind.name, new Map());
    const sorted = [...this.byKey.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const v of sorted) resources.get(v.kind)?.set(v.name, v.located);
    // A typed field holds what its kind's schema validated: the cast is the schema's promise.
    const typed = <F extends keyof TypedCollections>(field: F): ReadonlyMap<string, Located<TypedCollections[F]>> => {
      const kind = this.kindRegistry.list().find((k) => k.snapshotField === field);
      const held = kind ? resources.get(kind.name) : undefined;
      return held ? (held as ReadonlyMap<string, Located<TypedCollections[F]>>) : new Map();
    };
    return {
      configPath: this.configPath,
      settings: this.settingsValue,
      resources,
      mcpServers: typed('mcpServers'),
      workflows: typed('workflows'),
      generation: ++this.generation,
    };
  }
}
