/**
 * The reference GrantStore: records in a Map, gone with the process. The auth-server uses
 * it unless persistent storage is configured; the persistent stores keep one as their view
 * (write-through-grant-store.ts).
 */
import type { GrantStore, StoredRecord } from '../../kernel/index.js';

export class MemoryGrantStore implements GrantStore {
  readonly persistent: boolean = false;
  private readonly records = new Map<string, StoredRecord>();

  constructor(private readonly now: () => number = () => Date.now() / 1000) {}

  private static key(kind: string, id: string): string {
    return `${kind}\u0000${id}`;
  }

  private live(record: StoredRecord | undefined): StoredRecord | undefined {
    return record && (record.expiresAt === undefined || record.expiresAt > this.now()) ? record : undefined;
  }

  async get(kind: string, id: string): Promise<StoredRecord | undefined> {
    const key = MemoryGrantStore.key(kind, id);
    const record = this.records.get(key);
    if (record && !this.live(record)) this.records.delete(key);
    return this.live(record);
  }

  async put(kind: string, id: string, record: StoredRecord): Promise<void> {
    this.records.set(MemoryGrantStore.key(kind, id), record);
  }

  async create(kind: string, id: string, record: StoredRecord): Promise<StoredRecord> {
    // No await between the look and the set: no other create runs in between.
    const key = MemoryGrantStore.key(kind, id);
    const kept = this.live(this.records.get(key));
    if (kept) return kept;
    this.records.set(key, record);
    return record;
  }

  async delete(kind: string, id: string): Promise<void> {
    this.records.delete(MemoryGrantStore.key(kind, id));
  }

  async findBy(kind: string, key: string, value: string): Promise<string[]> {
    const prefix = `${kind}\u0000`;
    const ids: string[] = [];
    for (const [k, record] of this.records) {
      if (k.startsWith(prefix) && record.index?.[key] === value && this.live(record)) ids.push(k.slice(prefix.length));
    }
    return ids;
  }

  /** Drops expired records; returns their keys so a persistent store can delete them too. */
  sweep(): [kind: string, id: string][] {
    const gone: [string, string][] = [];
    for (const [k, record] of this.records) {
      if (this.live(record)) continue;
      this.records.delete(k);
      const at = k.indexOf('\u0000');
      gone.push([k.slice(0, at), k.slice(at + 1)]);
    }
    return gone;
  }
}
