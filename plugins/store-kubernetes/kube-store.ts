/**
 * Resources of the registered kinds (MCP servers, workflows) as custom resources in one
 * namespace (the ResourceStore contract, as store-files keeps them as files). A `named`
 * kind's spec is the definition without its name (the resource's name: an MCPServer); a
 * `resource` kind is stored as the document its file would hold (a Workflow). Watches feed the same change path as file edits; a change of status only
 * (Switchboard's own writes) is not a change of the definition and is not reported.
 */
import { stringify } from 'yaml';
import {
  ForbiddenError,
  parseYaml,
  SharedStateUnavailableError,
  SwitchboardError,
  type ConfigProblem,
  type RawResource,
  type ResourceKind,
  type ResourceStore,
  type StoreChange,
  type StoreLoadResult,
  type WriteAs,
  UnsupportedError,
} from '../../kernel/index.js';
import { CRD_GROUP, CRD_VERSION } from './crds.js';
import { readSettingsText, writeSettingsText } from '../../lib/files/settings-file.js';
import { KubeApiError, KubeUnreachableError, type KubeApi, type KubeObject } from './kube-api.js';
import { watchKind, type WatchHandle } from './kube-watch.js';
import type { ResourceKindDefinition } from '../../kernel/index.js';
/** Conflicting writes (someone else changed the resource in between) are retried this often. */
const CONFLICT_RETRIES = 3;
const REWATCH_MS = 1000;

/**
 * A write the orchestrator refused: for lack of permission (its message names user, verb,
 * resource and namespace), or because it did not accept the identity the write carried. One
 * it could not take now (no answer, a 5xx, 429 from priority and fairness) is the shared
 * state of the replicas being out of reach, as Redis being down is in cluster mode: nothing
 * was written, and the caller is told to try again rather than handed an internal error.
 */
function refused(err: unknown, what: string): unknown {
  if (err instanceof KubeUnreachableError) return new SharedStateUnavailableError(what, `the Kubernetes API server cannot be reached: ${err.message}`);
  if (!(err instanceof KubeApiError)) return err;
  if (err.status === 403) return new ForbiddenError(`The orchestrator refused the write: ${err.message}`, { reason: err.reason });
  if (err.status === 401)
    return new SwitchboardError(
      'AUTH_REQUIRED',
      'The orchestrator did not accept the identity this write carried (401); if it is your sign-in, sign in again (switchboard login); check that the cluster trusts the identity provider',
      { reason: err.reason },
    );
  if (err.status >= 500 || err.status === 429) return new SharedStateUnavailableError(what, `the Kubernetes API server answered ${err.status}: ${err.message}`);
  return err;
}

export class KubeStore implements ResourceStore {
  readonly mode = 'kubernetes';
  readonly lifecycle = 'declarative';
  /** The definition last reported per key: a MODIFIED event with the same one is a status write. */
  private readonly seen = new Map<string, string>();
  /** metadata.generation of each resource as last read (`plural/name`): what a status's observedGeneration says was seen. */
  private readonly generations = new Map<string, number>();
  /** The watches running now, stopped at close. */
  private readonly watches = new Set<WatchHandle>();
  private closed = false;
  private readonly unclaimedSaid = new Set<string>();

  constructor(
    readonly api: KubeApi,
    private readonly configPath: string,
    /** The kinds registered now (the pipeline's), read at every load. */
    private readonly kinds: () => readonly ResourceKindDefinition[],
    private readonly onWatchError: (message: string) => void = () => undefined,
    /** Told once about each custom resource no registered kind reads: where it is, and its kind. */
    private readonly onUnclaimed?: (where: string, kind: string) => void,
    /** How long the server is asked to run each watch before it ends it (the plugin's `watchTimeoutSeconds`; kube-watch.ts). */
    private readonly watchTimeoutSeconds = 300,
  ) {}

  private kindNamed(name: ResourceKind): ResourceKindDefinition {
    const kind = this.kinds().find((k) => k.name === name);
    if (!kind) throw new UnsupportedError(`no plugin that is on keeps resources of the kind '${name}'`);
    return kind;
  }

  key(kind: ResourceKind, name: string): string {
    return `${this.kindNamed(kind).plural}/${name}`;
  }

  /** The document Switchboard validates, from a custom resource; `text` is what `seen` compares. */
  private toRaw(kind: ResourceKindDefinition, obj: KubeObject): RawResource & { text: string } {
    const name = obj.metadata.name;
    const doc =
      kind.shape === 'named'
        ? { name, ...(obj.spec ?? {}) }
        : {
            apiVersion: obj.apiVersion,
            kind: kind.kind,
            metadata: { name, ...(obj.metadata.labels ? { labels: obj.metadata.labels } : {}) },
            spec: obj.spec ?? {},
          };
    const where = `${kind.kind} ${this.api.namespace}/${name}`;
    const text = stringify(doc, { lineWidth: 0 });
    return { kind: kind.name, key: `${kind.plural}/${name}`, parsed: parseYaml(text, where), text };
  }

  /** The custom resource for a definition as the core tools write it. */
  private toObject(kind: ResourceKindDefinition, name: string, body: Record<string, unknown>): KubeObject {
    if (kind.shape === 'resource') {
      const metadata = (body.metadata ?? {}) as { labels?: Record<string, string> };
      return {
        apiVersion: `${CRD_GROUP}/${CRD_VERSION}`,
        kind: kind.kind,
        metadata: { name, ...(metadata.labels ? { labels: metadata.labels } : {}) },
        spec: (body.spec ?? {}) as Record<string, unknown>,
      };
    }
    const { name: _name, ...spec } = body;
    return { apiVersion: `${CRD_GROUP}/${CRD_VERSION}`, kind: kind.kind, metadata: { name }, spec };
  }

  async loadAll(): Promise<StoreLoadResult> {
    const resources: RawResource[] = [];
    const problems: ConfigProblem[] = [];
    const kinds = this.kinds();
    for (const kind of kinds) {
      const list = await this.api.list(kind.plural);
      for (const obj of list.items) {
        const { text, ...raw } = this.toRaw(kind, obj);
        this.seen.set(raw.key, text);
        this.noteGeneration(raw.key, obj);
        resources.push(raw);
      }
    }
    await this.reportUnclaimed(kinds);
    return { resources, problems };
  }

  /**
   * Custom resources of a kind no plugin that is on registered (Workflows with the workflows
   * plugin off) are not read; each is named once, as store-files names such a file, so the
   * user is not left wondering why it does nothing.
   */
  private async reportUnclaimed(registered: readonly ResourceKindDefinition[]): Promise<void> {
    if (!this.onUnclaimed) return;
    const known = new Set(registered.map((k) => k.plural));
    for (const { plural, kind } of await this.api.groupKinds()) {
      if (known.has(plural)) continue;
      for (const obj of (await this.api.list(plural)).items) {
        const key = `${plural}/${obj.metadata.name}`;
        if (this.unclaimedSaid.has(key)) continue;
        this.unclaimedSaid.add(key);
        this.onUnclaimed(`${kind} ${this.api.namespace}/${obj.metadata.name}`, kind);
      }
    }
  }

  async write(kindName: ResourceKind, name: string, body: Record<string, unknown>, _key?: string, as?: WriteAs): Promise<RawResource> {
    const kind = this.kindNamed(kindName);
    const plural = kind.plural;
    const wanted = this.toObject(kind, name, body);
    for (let attempt = 0; ; attempt++) {
      try {
        // Read with the store's identity (reads are never the caller's), written as `as`.
        const existing = await this.api.get(plural, name).catch((err: unknown) => {
          if (err instanceof KubeApiError && err.status === 404) return undefined;
          throw err;
        });
        const written = existing
          ? await this.api.request<KubeObject>(
              'PUT',
              this.api.path(plural, name),
              { ...wanted, metadata: { ...existing.metadata, ...wanted.metadata, resourceVersion: existing.metadata.resourceVersion } },
              as,
            )
          : await this.api.request<KubeObject>('POST', this.api.path(plural), wanted, as);
        const { text, ...raw } = this.toRaw(kind, written);
        this.seen.set(raw.key, text);
        this.noteGeneration(raw.key, written);
        return raw;
      } catch (err) {
        if (err instanceof KubeApiError && err.status === 409 && err.reason === 'Conflict' && attempt < CONFLICT_RETRIES) continue;
        throw refused(err, `writing ${kind.kind} '${name}'`);
      }
    }
  }

  async remove(kindName: ResourceKind, key: string, as?: WriteAs): Promise<{ location: string }> {
    const name = key.slice(key.indexOf('/') + 1);
    const { plural, kind } = this.kindNamed(kindName);
    await this.api.request('DELETE', this.api.path(plural, name), undefined, as).catch((err: unknown) => {
      if (!(err instanceof KubeApiError && err.status === 404)) throw refused(err, `deleting ${kind} '${name}'`);
    });
    this.seen.delete(key);
    this.generations.delete(key);
    return { location: `${kind} ${this.api.namespace}/${name}` };
  }

  readSettingsText(): Promise<string> {
    return readSettingsText(this.configPath);
  }

  writeSettings(text: string): Promise<{ location: string }> {
    return writeSettingsText(this.configPath, text);
  }

  async watch(onChange: (change: StoreChange) => void): Promise<void> {
    for (const kind of this.kinds()) await this.follow(kind, onChange);
  }

  /** Lists (reporting what changed while not watching), then watches from there; starts over when the stream ends. */
  private async follow(kind: ResourceKindDefinition, onChange: (change: StoreChange) => void): Promise<void> {
    if (this.closed) return;
    const { plural } = kind;
    let list;
    try {
      list = await this.api.list(plural);
    } catch (err) {
      this.onWatchError(`listing ${plural} failed: ${(err as Error).message}; retrying`);
      setTimeout(() => void this.follow(kind, onChange), REWATCH_MS).unref();
      return;
    }
    const present = new Set<string>();
    for (const obj of list.items) {
      present.add(`${plural}/${obj.metadata.name}`);
      this.report(kind, 'MODIFIED', obj, onChange);
    }
    for (const key of [...this.seen.keys()]) {
      if (key.startsWith(`${plural}/`) && !present.has(key)) {
        this.seen.delete(key);
        this.generations.delete(key);
        onChange({ type: 'remove', kind: kind.name, key });
      }
    }
    const startedAt = Date.now();
    const watch = watchKind(
      this.api,
      plural,
      list.metadata.resourceVersion,
      (type, obj) => this.report(kind, type, obj, onChange),
      // Never called before watchKind returned (kube-watch.ts), so `watch` is there to delete.
      (err) => {
        this.watches.delete(watch);
        if (this.closed) return;
        if (err) this.onWatchError(`watching ${plural} ended: ${err.message}; watching again`);
        // A watch that ends in good order after a while (the timeout it asked for) is started
        // again at once; one that ends at once (a balancer that cuts every stream) waits, or
        // list and watch would loop as fast as the API server answers.
        const lasted = Date.now() - startedAt;
        setTimeout(() => void this.follow(kind, onChange), err || lasted < REWATCH_MS ? REWATCH_MS : 0).unref();
      },
      { timeoutSeconds: this.watchTimeoutSeconds },
    );
    this.watches.add(watch);
  }

  private report(kind: ResourceKindDefinition, type: string, obj: KubeObject, onChange: (change: StoreChange) => void): void {
    if (type === 'DELETED') {
      const key = `${kind.plural}/${obj.metadata.name}`;
      this.generations.delete(key);
      if (this.seen.delete(key)) onChange({ type: 'remove', kind: kind.name, key });
      return;
    }
    if (type !== 'ADDED' && type !== 'MODIFIED') return;
    this.noteGeneration(`${kind.plural}/${obj.metadata.name}`, obj);
    const { text, ...raw } = this.toRaw(kind, obj);
    if (this.seen.get(raw.key) === text) return;
    this.seen.set(raw.key, text);
    onChange({ type: 'upsert', resource: raw });
  }

  private noteGeneration(key: string, obj: KubeObject): void {
    if (obj.metadata.generation !== undefined) this.generations.set(key, obj.metadata.generation);
  }

  /** The generation of `plural/name` as last read, for status.observedGeneration; undefined when not known. */
  generationOf(plural: string, name: string): number | undefined {
    return this.generations.get(`${plural}/${name}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.watches) w.stop();
    this.watches.clear();
  }
}
