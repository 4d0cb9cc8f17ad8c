/**
 * MCP servers and workflows as custom resources in one namespace (the ResourceStore
 * contract, as store-files keeps them as files). An MCPServer's spec is the definition
 * without its name (the resource's name); a Workflow is stored as the document a workflow
 * file holds. Watches feed the same change path as file edits; a change of status only
 * (Switchboard's own writes) is not a change of the definition and is not reported.
 */
import { stringify } from 'yaml';
import type { RawResource, ResourceKind, ResourceStore, StoreChange, StoreLoadResult, WriteAs } from '../../kernel/contracts/store.js';
import { CRD_GROUP, CRD_VERSION } from './crds.js';
import { parseYaml } from '../../kernel/config/yaml-document.js';
import { ForbiddenError, SwitchboardError, type ConfigProblem } from '../../kernel/errors.js';
import { readSettingsText, writeSettingsText } from '../../lib/files/settings-file.js';
import { KINDS, KubeApiError, type KubeApi, type KubeObject, type Plural } from './kube-api.js';

const PLURAL: Record<ResourceKind, Plural> = { mcpserver: 'mcpservers', workflow: 'workflows' };
const KIND_OF: Record<Plural, ResourceKind> = { mcpservers: 'mcpserver', workflows: 'workflow' };
/** Conflicting writes (someone else changed the resource in between) are retried this often. */
const CONFLICT_RETRIES = 3;
const REWATCH_MS = 1000;

/**
 * A write the orchestrator refused: for lack of permission (its message names user, verb,
 * resource and namespace), or because it did not accept the identity the write carried.
 */
function refused(err: unknown): unknown {
  if (!(err instanceof KubeApiError)) return err;
  if (err.status === 403) return new ForbiddenError(`The orchestrator refused the write: ${err.message}`, { reason: err.reason });
  if (err.status === 401)
    return new SwitchboardError(
      'AUTH_REQUIRED',
      'The orchestrator did not accept the identity this write carried (401); if it is your sign-in, sign in again (switchboard login); check that the cluster trusts the identity provider',
      { reason: err.reason },
    );
  return err;
}

export class KubeStore implements ResourceStore {
  readonly mode = 'kubernetes';
  readonly lifecycle = 'declarative';
  /** The definition last reported per key: a MODIFIED event with the same one is a status write. */
  private readonly seen = new Map<string, string>();
  private readonly aborts = new Set<AbortController>();
  private closed = false;

  constructor(
    readonly api: KubeApi,
    private readonly configPath: string,
    private readonly onWatchError: (message: string) => void = () => undefined,
  ) {}

  key(kind: ResourceKind, name: string): string {
    return `${PLURAL[kind]}/${name}`;
  }

  /** The document Switchboard validates, from a custom resource; `text` is what `seen` compares. */
  private toRaw(plural: Plural, obj: KubeObject): RawResource & { text: string } {
    const kind = KIND_OF[plural];
    const name = obj.metadata.name;
    const doc =
      kind === 'mcpserver'
        ? { name, ...(obj.spec ?? {}) }
        : {
            apiVersion: obj.apiVersion,
            kind: 'Workflow',
            metadata: { name, ...(obj.metadata.labels ? { labels: obj.metadata.labels } : {}) },
            spec: obj.spec ?? {},
          };
    const where = `${KINDS[plural]} ${this.api.namespace}/${name}`;
    const text = stringify(doc, { lineWidth: 0 });
    return { kind, key: this.key(kind, name), parsed: parseYaml(text, where), text };
  }

  /** The custom resource for a definition as the core tools write it. */
  private toObject(kind: ResourceKind, name: string, body: Record<string, unknown>): KubeObject {
    if (kind === 'workflow') {
      const metadata = (body.metadata ?? {}) as { labels?: Record<string, string> };
      return {
        apiVersion: `${CRD_GROUP}/${CRD_VERSION}`,
        kind: 'Workflow',
        metadata: { name, ...(metadata.labels ? { labels: metadata.labels } : {}) },
        spec: (body.spec ?? {}) as Record<string, unknown>,
      };
    }
    const { name: _name, ...spec } = body;
    return { apiVersion: `${CRD_GROUP}/${CRD_VERSION}`, kind: 'MCPServer', metadata: { name }, spec };
  }

  async loadAll(): Promise<StoreLoadResult> {
    const resources: RawResource[] = [];
    const problems: ConfigProblem[] = [];
    for (const plural of Object.keys(KIND_OF) as Plural[]) {
      const list = await this.api.list(plural);
      for (const obj of list.items) {
        const { text, ...raw } = this.toRaw(plural, obj);
        this.seen.set(raw.key, text);
        resources.push(raw);
      }
    }
    return { resources, problems };
  }

  async write(kind: ResourceKind, name: string, body: Record<string, unknown>, _key?: string, as?: WriteAs): Promise<RawResource> {
    const plural = PLURAL[kind];
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
        const { text, ...raw } = this.toRaw(plural, written);
        this.seen.set(raw.key, text);
        return raw;
      } catch (err) {
        if (err instanceof KubeApiError && err.status === 409 && err.reason === 'Conflict' && attempt < CONFLICT_RETRIES) continue;
        throw refused(err);
      }
    }
  }

  async remove(kind: ResourceKind, key: string, as?: WriteAs): Promise<{ location: string }> {
    const name = key.slice(key.indexOf('/') + 1);
    const plural = PLURAL[kind];
    await this.api.request('DELETE', this.api.path(plural, name), undefined, as).catch((err: unknown) => {
      if (!(err instanceof KubeApiError && err.status === 404)) throw refused(err);
    });
    this.seen.delete(key);
    return { location: `${KINDS[plural]} ${this.api.namespace}/${name}` };
  }

  readSettingsText(): Promise<string> {
    return readSettingsText(this.configPath);
  }

  writeSettings(text: string): Promise<{ location: string }> {
    return writeSettingsText(this.configPath, text);
  }

  async watch(onChange: (change: StoreChange) => void): Promise<void> {
    for (const plural of Object.keys(KIND_OF) as Plural[]) await this.follow(plural, onChange);
  }

  /** Lists (reporting what changed while not watching), then watches from there; starts over when the stream ends. */
  private async follow(plural: Plural, onChange: (change: StoreChange) => void): Promise<void> {
    if (this.closed) return;
    const kind = KIND_OF[plural];
    let list;
    try {
      list = await this.api.list(plural);
    } catch (err) {
      this.onWatchError(`listing ${plural} failed: ${(err as Error).message}; retrying`);
      setTimeout(() => void this.follow(plural, onChange), REWATCH_MS).unref();
      return;
    }
    const present = new Set<string>();
    for (const obj of list.items) {
      present.add(this.key(kind, obj.metadata.name));
      this.report(plural, 'MODIFIED', obj, onChange);
    }
    for (const key of [...this.seen.keys()]) {
      if (key.startsWith(`${plural}/`) && !present.has(key)) {
        this.seen.delete(key);
        onChange({ type: 'remove', kind, key });
      }
    }
    const abort = await this.api.watch(
      plural,
      list.metadata.resourceVersion,
      (type, obj) => this.report(plural, type, obj, onChange),
      (err) => {
        this.aborts.delete(abort);
        if (this.closed) return;
        if (err) this.onWatchError(`watching ${plural} ended: ${(err as Error).message ?? String(err)}; watching again`);
        setTimeout(() => void this.follow(plural, onChange), err ? REWATCH_MS : 0).unref();
      },
    );
    this.aborts.add(abort);
  }

  private report(plural: Plural, type: string, obj: KubeObject, onChange: (change: StoreChange) => void): void {
    const kind = KIND_OF[plural];
    if (type === 'DELETED') {
      const key = this.key(kind, obj.metadata.name);
      if (this.seen.delete(key)) onChange({ type: 'remove', kind, key });
      return;
    }
    if (type !== 'ADDED' && type !== 'MODIFIED') return;
    const { text, ...raw } = this.toRaw(plural, obj);
    if (this.seen.get(raw.key) === text) return;
    this.seen.set(raw.key, text);
    onChange({ type: 'upsert', resource: raw });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const a of this.aborts) a.abort();
    this.aborts.clear();
  }
}
