/**
 * Tasks as one JSON file per task under `<config-path>/tasks/`, written atomically and read
 * from memory, like execution records (plugins/workflows/execution-store.ts). A finished
 * task's result is on disk before anyone hears it finished, so it survives a restart until
 * its ttl runs out; expired tasks are removed by a sweep and never answered before that.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  isTerminalStatus,
  TaskLimitError,
  type Logger,
  type TaskChange,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
  type TerminalTaskStatus,
} from '../../kernel/index.js';
import { PRIVATE_DIR, PRIVATE_FILE, writeFileAtomic } from '../../lib/files/atomic-write.js';
import { RecordWrites } from '../../lib/files/record-writes.js';
import { isTaskId, newestFirst, pageOfTasks } from '../../lib/tasks/task-page.js';

/** How often expired tasks are removed from memory and disk. */
const SWEEP_MS = 60_000;

export class FileTaskStore implements TaskStore {
  private readonly byId = new Map<string, TaskRecord>();
  /** One write chain per task so its writes (and its removal) land in order. */
  private readonly writes = new RecordWrites((id, what, err) => this.log.error(`cannot ${what} task ${id}: ${err.message}`));
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async open(): Promise<TaskRecord[]> {
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR });
    const files = (await readdir(this.dir)).filter((f) => f.endsWith('.json') && !f.startsWith('.'));
    const unfinished: TaskRecord[] = [];
    for (const f of files) {
      try {
        const record = JSON.parse(await readFile(join(this.dir, f), 'utf8')) as TaskRecord;
        if (!isTaskId(record.taskId) || `${record.taskId}.json` !== f) throw new Error('not a task record');
        this.byId.set(record.taskId, record);
        if (!isTerminalStatus(record.status)) unfinished.push(record);
      } catch (err) {
        this.log.warn(`skipping unreadable task record ${f}: ${(err as Error).message}`);
      }
    }
    await this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweeper.unref();
    return unfinished.filter((r) => this.byId.has(r.taskId));
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    await this.writes.idle();
  }

  async create(record: TaskRecord, maxPerOwner: number): Promise<void> {
    const now = this.now();
    let owned = 0;
    for (const r of this.byId.values()) if (r.owner === record.owner && r.expiresAt > now) owned++;
    if (owned >= maxPerOwner) throw new TaskLimitError(maxPerOwner);
    this.byId.set(record.taskId, record);
    await this.persist(record);
  }

  get(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    const r = this.live(taskId);
    return Promise.resolve(r && r.owner === owner ? r : undefined);
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const r = this.live(taskId);
    if (!r || isTerminalStatus(r.status)) return undefined;
    const next: TaskRecord = { ...r, lastUpdatedAt: new Date(this.now()).toISOString() };
    if (change.status) next.status = change.status;
    if (change.statusMessage !== undefined) next.statusMessage = change.statusMessage;
    if (change.upstream) next.upstream = [...(r.upstream ?? []), change.upstream];
    this.byId.set(taskId, next);
    await this.persist(next);
    return next;
  }

  async finish(taskId: string, status: TerminalTaskStatus, result: Record<string, unknown>, statusMessage?: string): Promise<TaskRecord | undefined> {
    const r = this.live(taskId);
    if (!r || isTerminalStatus(r.status)) return undefined;
    const next: TaskRecord = { ...r, status, result, lastUpdatedAt: new Date(this.now()).toISOString() };
    if (statusMessage !== undefined) next.statusMessage = statusMessage;
    else delete next.statusMessage;
    this.byId.set(taskId, next);
    await this.persist(next);
    return next;
  }

  list(owner: string, limit: number, cursor?: string): Promise<TaskPage> {
    const now = this.now();
    const mine = [...this.byId.values()].filter((r) => r.owner === owner && r.expiresAt > now).sort(newestFirst);
    try {
      return Promise.resolve(pageOfTasks(mine, limit, cursor));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** The task unless it expired; the guard keeps any other id (a path) from reaching the map or the disk. */
  private live(taskId: string): TaskRecord | undefined {
    if (!isTaskId(taskId)) return undefined;
    const r = this.byId.get(taskId);
    return r && r.expiresAt > this.now() ? r : undefined;
  }

  private async sweep(): Promise<void> {
    const now = this.now();
    const gone = [...this.byId.values()].filter((r) => r.expiresAt <= now);
    await Promise.all(
      gone.map((r) => {
        this.byId.delete(r.taskId);
        return this.writes.run(r.taskId, () => rm(this.fileOf(r.taskId), { force: true }), 'remove');
      }),
    );
  }

  private persist(record: TaskRecord): Promise<void> {
    const text = JSON.stringify(record);
    return this.writes.run(record.taskId, () => writeFileAtomic(this.fileOf(record.taskId), text, { durable: false, mode: PRIVATE_FILE }), 'persist');
  }

  private fileOf(id: string): string {
    return join(this.dir, `${id}.json`);
  }
}
