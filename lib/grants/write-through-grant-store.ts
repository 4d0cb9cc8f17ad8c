/**
 * A persistent GrantStore as store plugins build one: every record read once at open() into
 * memory and served from there, each change written through to the backing place, expired
 * records swept every ten minutes. A backing (files, Secrets) only says how to load, write and
 * erase records; this is the part they share.
 */
import type { GrantStore, StoredRecord } from '../../kernel/index.js';
import { MemoryGrantStore } from './memory-grant-store.js';

const SWEEP_MS = 10 * 60_000;

export interface GrantBacking {
  /** Every record kept; one that cannot be read is reported by the backing and left out. */
  loadAll(): Promise<{ kind: string; id: string; record: StoredRecord }[]>;
  write(kind: string, id: string, record: StoredRecord): Promise<void>;
  /** Gone already is fine. */
  erase(kind: string, id: string): Promise<void>;
}

export class WriteThroughGrantStore implements GrantStore {
  readonly persistent = true;
  private readonly memory = new MemoryGrantStore();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly backing: GrantBacking) {}

  async open(): Promise<void> {
    for (const { kind, id, record } of await this.backing.loadAll()) await this.memory.put(kind, id, record);
    await this.removeExpired();
    this.sweeper = setInterval(() => void this.removeExpired(), SWEEP_MS);
    this.sweeper.unref();
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private async removeExpired(): Promise<void> {
    await Promise.all(this.memory.sweep().map(([kind, id]) => this.backing.erase(kind, id).catch(() => undefined)));
  }

  get(kind: string, id: string): Promise<StoredRecord | undefined> {
    return this.memory.get(kind, id);
  }

  async put(kind: string, id: string, record: StoredRecord): Promise<void> {
    await this.backing.write(kind, id, record);
    await this.memory.put(kind, id, record);
  }

  /**
   * One process writes a backing (several replicas need cluster mode, and then Redis keeps
   * the records): creates are queued one after another here, so two in this process cannot
   * both find nothing and both write.
   */
  create(kind: string, id: string, record: StoredRecord): Promise<StoredRecord> {
    const next = this.creating.then(async () => {
      const kept = await this.memory.get(kind, id);
      if (kept) return kept;
      await this.put(kind, id, record);
      return record;
    });
    this.creating = next.catch(() => undefined);
    return next;
  }

  private creating: Promise<unknown> = Promise.resolve();

  async delete(kind: string, id: string): Promise<void> {
    await this.memory.delete(kind, id);
    await this.backing.erase(kind, id);
  }

  findBy(kind: string, key: string, value: string): Promise<string[]> {
    return this.memory.findBy(kind, key, value);
  }
}
