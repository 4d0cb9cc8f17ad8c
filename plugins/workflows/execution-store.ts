/**
 * Execution records as one JSON file per execution under `<config-path>/executions/`,
 * written atomically, indexed in memory newest first. Retention by count, age and total
 * bytes on disk (the oldest finished records go first; running ones stay). Records left
 * `running` by a crash are marked `failed` when the store opens.
 *
 * Sizes are those of the snapshots as they are written, summed as they change, so the
 * bound costs nothing per write beyond the JSON the write makes anyway.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecutionListQuery, ExecutionPage, ExecutionRecords, ExecutionRetention, Logger } from '../../kernel/index.js';
import { PRIVATE_DIR, PRIVATE_FILE, writeFileAtomic } from '../../lib/files/atomic-write.js';
import type { ExecutionRecord } from './execution-record.js';
import { RecordWrites } from '../../lib/files/record-writes.js';
import { pageOf } from '../../lib/executions/execution-page.js';
import { markInterrupted } from '../../lib/executions/interrupted.js';

export type Retention = ExecutionRetention;

export type ListQuery = ExecutionListQuery;

const INTERRUPTED = 'interrupted: Switchboard stopped while this execution was running';

export class ExecutionStore implements ExecutionRecords {
  /** Reads answer the live records the engine changes, so no save between steps is needed. */
  readonly shared = false;
  /** Newest first. */
  private records: ExecutionRecord[] = [];
  private readonly byId = new Map<string, ExecutionRecord>();
  /** One write chain per execution so its writes (and its removal) land in order. */
  private readonly writes = new RecordWrites((id, what, err) => this.log.error(`cannot ${what} execution ${id}: ${err.message}`));
  /** Bytes of each record's latest snapshot, and their sum. */
  private readonly sizes = new Map<string, number>();
  private totalBytes = 0;

  constructor(
    private readonly dir: string,
    private readonly retention: Retention,
    private readonly log: Logger,
  ) {}

  async open(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR });
    const files = (await readdir(this.dir)).filter((f) => f.endsWith('.json') && !f.startsWith('.'));
    const loaded: ExecutionRecord[] = [];
    for (const f of files) {
      try {
        const text = await readFile(join(this.dir, f), 'utf8');
        const record = JSON.parse(text) as ExecutionRecord;
        loaded.push(record);
        this.setSize(record.execution_id, Buffer.byteLength(text));
      } catch (err) {
        this.log.warn(`skipping unreadable execution record ${f}: ${(err as Error).message}`);
      }
    }
    loaded.sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0));
    this.records = loaded;
    for (const r of loaded) this.byId.set(r.execution_id, r);
    for (const r of loaded) {
      if (r.status !== 'running') continue;
      markInterrupted(r, INTERRUPTED);
      void this.save(r);
    }
    await this.prune();
  }

  /** Adds a new record (newest) and persists it. */
  add(record: ExecutionRecord): void {
    this.records.unshift(record);
    this.byId.set(record.execution_id, record);
    void this.save(record);
    if (this.records.length > this.retention.maxCount) void this.prune();
  }

  /** Persists the record's current state (after the engine changed it). */
  save(record: ExecutionRecord): Promise<void> {
    const id = record.execution_id;
    // Dropped by retention: writing it again would bring back a file nothing accounts for.
    if (this.byId.get(id) !== record) return Promise.resolve();
    const snapshot = JSON.stringify(record);
    this.setSize(id, Buffer.byteLength(snapshot));
    const written = this.writes.run(id, () => writeFileAtomic(this.fileOf(id), snapshot, { durable: false, mode: PRIVATE_FILE }), 'persist');
    if (this.totalBytes > this.retention.maxTotalBytes()) void this.prune();
    return written;
  }

  get(id: string): Promise<ExecutionRecord | undefined> {
    return Promise.resolve(this.byId.get(id));
  }

  list(q: ListQuery): Promise<ExecutionPage> {
    return Promise.resolve(pageOf(this.records, q));
  }

  close(): Promise<void> {
    return this.flush();
  }

  /** Waits for every pending write (shutdown, tests). */
  async flush(): Promise<void> {
    await this.writes.idle();
  }

  private fileOf(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  private setSize(id: string, bytes: number): void {
    this.totalBytes += bytes - (this.sizes.get(id) ?? 0);
    this.sizes.set(id, bytes);
  }

  /**
   * Drops finished records past the count, older than the age, and then, oldest first,
   * until the rest fit in maxTotalBytes. The index changes at once; files go in the
   * background (after their pending writes).
   */
  private prune(): Promise<void> {
    const cutoff = new Date(Date.now() - this.retention.maxAgeDays * 86_400_000).toISOString();
    const keep: ExecutionRecord[] = [];
    const drop: ExecutionRecord[] = [];
    let keptBytes = 0;
    for (const r of this.records) {
      if (r.status !== 'running' && (keep.length >= this.retention.maxCount || r.started_at < cutoff)) drop.push(r);
      else {
        keep.push(r);
        keptBytes += this.sizes.get(r.execution_id) ?? 0;
      }
    }
    const maxBytes = this.retention.maxTotalBytes();
    let kept = keep.length;
    for (let i = keep.length - 1; i >= 0 && keptBytes > maxBytes; i--) {
      const r = keep[i]!;
      if (r.status === 'running') continue;
      keptBytes -= this.sizes.get(r.execution_id) ?? 0;
      drop.push(r);
      kept = i;
    }
    if (!drop.length) return Promise.resolve();
    // Past `kept`, only running records remain (they are never dropped).
    this.records = kept === keep.length ? keep : [...keep.slice(0, kept), ...keep.slice(kept).filter((r) => r.status === 'running')];
    const removals = drop.map((r) => {
      const id = r.execution_id;
      this.byId.delete(id);
      this.setSize(id, 0);
      this.sizes.delete(id);
      return this.writes.run(id, () => rm(this.fileOf(id), { force: true }), 'remove');
    });
    return Promise.all(removals).then(() => undefined);
  }
}
