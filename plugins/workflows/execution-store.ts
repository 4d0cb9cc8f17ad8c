/**
 * Execution records as one JSON file per execution under `<config-path>/executions/`,
 * written atomically, indexed in memory newest first. Retention by count and age. Records
 * left `running` by a crash are marked `failed` when the store opens.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecutionHistory, ExecutionListQuery } from '../../kernel/contracts/executions.js';
import type { Logger } from '../../kernel/log.js';
import { PRIVATE_DIR, PRIVATE_FILE, writeFileAtomic } from '../../kernel/files/atomic-write.js';
import type { ExecutionRecord } from './execution-record.js';

export interface Retention {
  maxCount: number;
  maxAgeDays: number;
}

export type ListQuery = ExecutionListQuery;

const INTERRUPTED = 'interrupted: Switchboard stopped while this execution was running';

export class ExecutionStore implements ExecutionHistory {
  /** Newest first. */
  private records: ExecutionRecord[] = [];
  private readonly byId = new Map<string, ExecutionRecord>();
  /** One write chain per record so its writes land in order. */
  private readonly writes = new Map<string, Promise<void>>();

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
        loaded.push(JSON.parse(await readFile(join(this.dir, f), 'utf8')) as ExecutionRecord);
      } catch (err) {
        this.log.warn(`skipping unreadable execution record ${f}: ${(err as Error).message}`);
      }
    }
    loaded.sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0));
    this.records = loaded;
    for (const r of loaded) this.byId.set(r.execution_id, r);
    for (const r of loaded) {
      if (r.status !== 'running') continue;
      r.status = 'failed';
      r.error = INTERRUPTED;
      r.completed_at ??= new Date().toISOString();
      for (const s of r.steps) {
        if (s.status === 'running') Object.assign(s, { status: 'failed', error: INTERRUPTED });
        else if (s.status === 'pending') s.status = 'cancelled';
      }
      this.save(r);
    }
    await this.prune();
  }

  /** Adds a new record (newest) and persists it. */
  add(record: ExecutionRecord): void {
    this.records.unshift(record);
    this.byId.set(record.execution_id, record);
    this.save(record);
    if (this.records.length > this.retention.maxCount) void this.prune();
  }

  /** Persists the record's current state (after the engine changed it). */
  save(record: ExecutionRecord): void {
    const snapshot = JSON.stringify(record);
    const file = join(this.dir, `${record.execution_id}.json`);
    const previous = this.writes.get(record.execution_id) ?? Promise.resolve();
    const next = previous
      .then(() => writeFileAtomic(file, snapshot, { durable: false, mode: PRIVATE_FILE }))
      .catch((err: unknown) => this.log.error(`cannot persist execution ${record.execution_id}: ${(err as Error).message}`));
    this.writes.set(record.execution_id, next);
    void next.then(() => {
      if (this.writes.get(record.execution_id) === next) this.writes.delete(record.execution_id);
    });
  }

  get(id: string): ExecutionRecord | undefined {
    return this.byId.get(id);
  }

  list(q: ListQuery): { executions: ExecutionRecord[]; total: number } {
    const matching = this.records.filter((r) => (!q.status || r.status === q.status) && (!q.workflow_name || r.workflow_name === q.workflow_name) && (!q.visible || q.visible(r)));
    return { executions: matching.slice(q.offset, q.offset + q.limit), total: matching.length };
  }

  /** Waits for every pending write (shutdown, tests). */
  async flush(): Promise<void> {
    await Promise.all([...this.writes.values()]);
  }

  private async prune(): Promise<void> {
    const cutoff = new Date(Date.now() - this.retention.maxAgeDays * 86_400_000).toISOString();
    const keep: ExecutionRecord[] = [];
    const drop: ExecutionRecord[] = [];
    for (const r of this.records) {
      if (r.status !== 'running' && (keep.length >= this.retention.maxCount || r.started_at < cutoff)) drop.push(r);
      else keep.push(r);
    }
    if (!drop.length) return;
    this.records = keep;
    for (const r of drop) {
      this.byId.delete(r.execution_id);
      await rm(join(this.dir, `${r.execution_id}.json`), { force: true });
    }
  }
}
