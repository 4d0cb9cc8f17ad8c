/**
 * The GrantStore contract in orchestrator mode: one Secret per record in the namespace,
 * labelled as Switchboard's, read whole at start-up and written through (as store-files
 * keeps them as files). Records arrive sealed (hashed ids, encrypted values), so a Secret
 * holds nothing usable without the key. Served from memory: one replica's view, as with files.
 */
import { createHash } from 'node:crypto';
import type { StoredRecord } from '../../kernel/index.js';
import { WriteThroughGrantStore, type GrantBacking } from '../../lib/grants/write-through-grant-store.js';
import { KubeApiError, type KubeApi } from './kube-api.js';

const MANAGED = 'switchboard.dev/grant';

interface SecretObject {
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string | undefined) => (s === undefined ? undefined : Buffer.from(s, 'base64').toString('utf8'));

/** A record's lookup keys as written (a JSON object of strings), or undefined for anything else. */
function indexOf(text: string): Record<string, string> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  return Object.values(parsed).every((v) => typeof v === 'string') ? (parsed as Record<string, string>) : undefined;
}

/** Records as Secrets, one per record, labelled as Switchboard's. */
class GrantSecrets implements GrantBacking {
  constructor(
    private readonly api: KubeApi,
    private readonly warn: (message: string) => void,
  ) {}

  private collection(): string {
    return `/api/v1/namespaces/${encodeURIComponent(this.api.namespace)}/secrets`;
  }

  /** A Secret name for any kind and id (DNS-1123: lowercase, digits, '-'). */
  private name(kind: string, id: string): string {
    return `sb-grant-${createHash('sha256').update(kind).update('\u0000').update(id).digest('hex').slice(0, 40)}`;
  }

  async loadAll(): Promise<{ kind: string; id: string; record: StoredRecord }[]> {
    const list = await this.api.request<{ items: SecretObject[] }>('GET', `${this.collection()}?labelSelector=${encodeURIComponent(`${MANAGED}=true`)}`);
    const out: { kind: string; id: string; record: StoredRecord }[] = [];
    for (const s of list.items) {
      const d = s.data ?? {};
      const kind = unb64(d.kind);
      const id = unb64(d.id);
      const value = unb64(d.value);
      if (!kind || !id || value === undefined) {
        this.warn(`grant store: skipped Secret ${s.metadata.name}: not a stored record`);
        continue;
      }
      const record: StoredRecord = { value };
      const expiresAt = Number(unb64(d.expiresAt));
      if (d.expiresAt !== undefined && Number.isFinite(expiresAt)) record.expiresAt = expiresAt;
      if (d.index !== undefined) {
        const index = indexOf(unb64(d.index)!);
        // One Secret nobody can read is left out, as a file would be: it never stops a start.
        if (!index) {
          this.warn(`grant store: skipped Secret ${s.metadata.name}: its index is not a JSON object of strings`);
          continue;
        }
        record.index = index;
      }
      out.push({ kind, id, record });
    }
    return out;
  }

  async write(kind: string, id: string, record: StoredRecord): Promise<void> {
    const name = this.name(kind, id);
    const data: Record<string, string> = { kind: b64(kind), id: b64(id), value: b64(record.value) };
    if (record.expiresAt !== undefined) data.expiresAt = b64(String(record.expiresAt));
    if (record.index) data.index = b64(JSON.stringify(record.index));
    const body = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: MANAGED,
      metadata: { name, labels: { [MANAGED]: 'true', 'app.kubernetes.io/managed-by': 'switchboard' } },
      data,
    };
    // Replace, or create when there is none: last write wins, as with a file.
    await this.api.request('PUT', `${this.collection()}/${name}`, body).catch(async (err: unknown) => {
      if (!(err instanceof KubeApiError && err.status === 404)) throw err;
      await this.api.request('POST', this.collection(), body);
    });
  }

  async erase(kind: string, id: string): Promise<void> {
    await this.api.request('DELETE', `${this.collection()}/${this.name(kind, id)}`).catch((err: unknown) => {
      if (!(err instanceof KubeApiError && err.status === 404)) throw err;
    });
  }
}

export class SecretGrantStore extends WriteThroughGrantStore {
  constructor(api: KubeApi, warn: (message: string) => void) {
    super(new GrantSecrets(api, warn));
  }
}
