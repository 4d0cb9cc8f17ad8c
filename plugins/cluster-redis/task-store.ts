/**
 * Tasks on Redis, shared by every replica: tasks/get, tasks/result and tasks/list answer on
 * any replica for a task another one runs. One hash per task (its JSON, its status, a version)
 * that Redis expires at the task's end, and per owner a sorted set of task ids by creation.
 *
 * Creation counts the owner's live tasks and adds the new one in one script, so two replicas
 * creating at once cannot pass the per-owner limit together. A change is a compare-and-set on
 * the version that also refuses a terminal task, so a cancel and a result racing on two
 * replicas end the task once: the first final status wins.
 *
 * An unfinished task names the replica running it and its epoch (a hash beside the tasks, as
 * running workflow records do). Only that replica can finish it, so each replica looks every
 * SWEEP_MS for unfinished tasks whose replica is no longer alive at that epoch
 * (replica-liveness.ts, the same keys the execution records use), fences the epoch and ends
 * them: `failed`, "replica <id> ended during the task", or a workflow's task as its run's
 * record says once the orphaned-run sweep has marked the run. The write is the same
 * compare-and-set, also conditional on the task still being that replica's, so two replicas
 * sweeping at once end it once.
 *
 * The runner's own writes are refused once its epoch is fenced (checked in the same script):
 * a replica that was only paused cannot finish a task the survivors ended, nor one they are
 * about to end. Its final write, refused, becomes a note (`late`, and words in the status
 * message); a task not yet ended is ended first as the survivors would end it, so a workflow's
 * task and its run agree (docs/decisions.md, docs/scale-out.md).
 *
 * A task this replica runs whose hash vanished before its time (Redis restarted without its
 * data) is written back from this replica's copy at its next change, instead of the change
 * being lost: tasks/get answers for it again on every replica.
 */
import {
  isTerminalStatus,
  type ExecutionRecord,
  type Logger,
  TaskLimitError,
  type TaskChange,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
  type TerminalTaskStatus,
} from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import { interruptedTaskEnd } from '../../lib/tasks/interrupted-task.js';
import { isTaskId, newestFirst, pageOfTasks } from '../../lib/tasks/task-page.js';
import { executionRecordPrefix } from './execution-records.js';
import { endedDuringTask, lateEnd, lateNote } from './late-end.js';
import { parseToken, type ReplicaLiveness } from './replica-liveness.js';
import { shared } from './shared-state.js';
import { defineTaskCommands, type TaskCommands } from './task-scripts.js';

const WHAT = 'A task';

/** How often each replica looks for tasks whose replica ended (as often as for such runs). */
const SWEEP_MS = 5_000;

/** A task this replica runs: the replica#epoch it runs under (its writes are fenced on that epoch), and its record as last written (what is written back if Redis lost it). */
interface RunningHere {
  runner: string;
  record: TaskRecord;
}

/** Compare-and-set rounds before a change gives up (each lost round means another write landed). */
const ROUNDS = 8;

export class RedisTaskStore implements TaskStore {
  private readonly commands: TaskCommands;
  private readonly taskPrefix: string;
  /** Hash: unfinished task id -> the replica running it. */
  private readonly running: string;
  private readonly executionPrefix: string;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  /** Tasks created here and not ended. */
  private readonly runningHere = new Map<string, RunningHere>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly liveness: ReplicaLiveness,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.taskPrefix = redis.key('tasks', 'task', '');
    this.running = redis.key('tasks', 'running');
    // A workflow's task ends as its run's record says.
    this.executionPrefix = executionRecordPrefix(redis);
    this.commands = defineTaskCommands(redis);
  }

  /** Another replica may be running any task left unfinished: none are this process's to end; the sweep ends those of replicas that died. */
  open(): Promise<TaskRecord[]> {
    this.sweeper = setInterval(() => {
      this.sweeping ??= this.sweepOrphans()
        .catch((err: unknown) => this.log.warn(`looking for tasks of ended replicas failed: ${(err as Error).message}`))
        .finally(() => (this.sweeping = undefined));
    }, SWEEP_MS);
    this.sweeper.unref();
    return Promise.resolve([]);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.sweeping;
  }

  /**
   * Unfinished tasks whose replica is no longer alive at their epoch are ended, once that
   * epoch is fenced. One HGETALL when nothing runs elsewhere; then one MGET for the replicas,
   * a fence per dead one, and per orphan its reads and the conditional write. A workflow's
   * task whose run is still `running` waits for the orphaned-run sweep to mark the run (the
   * next round ends the task as the run ended).
   */
  async sweepOrphans(): Promise<void> {
    // This replica's copies of tasks past their time are nobody's to write back.
    const now = this.now();
    for (const [id, r] of this.runningHere) if (r.record.expiresAt <= now) this.runningHere.delete(id);
    const runners = await this.redis.client.hgetall(this.running);
    const others = [...new Set(Object.values(runners))].filter((r) => r !== this.liveness.token);
    if (others.length === 0) return;
    const alive = await this.liveness.alive(others);
    const fenced = new Map<string, boolean>();
    for (const [taskId, runner] of Object.entries(runners)) {
      if (runner === this.liveness.token || alive.has(runner)) continue;
      if (!fenced.has(runner)) fenced.set(runner, await this.liveness.fence(runner));
      // It came back at that epoch before anything of it was taken over: its tasks are its own.
      if (!fenced.get(runner)) continue;
      const read = await this.read(taskId);
      if (!read) {
        // Expired (or never readable): nothing left to end.
        await this.redis.client.hdel(this.running, taskId);
        continue;
      }
      const r = read.record;
      const run = r.kind === 'workflow' ? await this.runOf(taskId) : undefined;
      if (run?.status === 'running') continue;
      const reason = endedDuringTask(parseToken(runner).id);
      const end = interruptedTaskEnd(r, run, reason);
      const done = await this.compareAndSet(taskId, (t) => ({ ...t, status: end.status, result: end.result, statusMessage: end.message }), runner, false);
      if (done !== undefined) this.log.warn(`task ${taskId} ended ${end.status}: ${end.message}`);
    }
  }

  private async runOf(taskId: string): Promise<ExecutionRecord | undefined> {
    const raw = await this.redis.client.get(this.executionPrefix + taskId);
    return raw === null ? undefined : (JSON.parse(raw) as ExecutionRecord);
  }

  private ownerKey(owner: string): string {
    return this.redis.key('tasks', 'owner', encodeURIComponent(owner));
  }

  async create(record: TaskRecord, maxPerOwner: number): Promise<void> {
    const ttl = Math.max(1, record.expiresAt - this.now());
    const attempt = (runner: string): Promise<number> =>
      shared(this.redis, WHAT, () =>
        this.commands.switchboardTaskCreate(
          this.ownerKey(record.owner),
          this.taskPrefix + record.taskId,
          this.running,
          this.liveness.fenceKey(runner),
          record.taskId,
          JSON.stringify(record),
          String(Date.parse(record.createdAt)),
          String(ttl),
          String(maxPerOwner),
          this.taskPrefix,
          runner,
        ),
      );
    let runner = this.liveness.token;
    let created = await attempt(runner);
    if (created === -2) {
      // This replica was declared dead and has not yet heard: new work goes on under the next epoch.
      this.liveness.fenced(this.liveness.epoch);
      runner = this.liveness.token;
      created = await attempt(runner);
    }
    if (created !== 1) throw new TaskLimitError(maxPerOwner);
    this.runningHere.set(record.taskId, { runner, record });
  }

  async get(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    const r = (await this.read(taskId))?.record;
    return r && r.owner === owner ? r : undefined;
  }

  update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    return this.change(taskId, (r) => {
      const next: TaskRecord = { ...r };
      if (change.status) next.status = change.status;
      if (change.statusMessage !== undefined) next.statusMessage = change.statusMessage;
      if (change.upstream) next.upstream = [...(r.upstream ?? []), change.upstream];
      return next;
    });
  }

  finish(taskId: string, status: TerminalTaskStatus, result: Record<string, unknown>, statusMessage?: string): Promise<TaskRecord | undefined> {
    return this.change(
      taskId,
      (r) => {
        const next: TaskRecord = { ...r, status, result };
        if (statusMessage !== undefined) next.statusMessage = statusMessage;
        else delete next.statusMessage;
        return next;
      },
      status,
    );
  }

  async list(owner: string, limit: number, cursor?: string): Promise<TaskPage> {
    const ids = await shared(this.redis, WHAT, () => this.redis.client.zrevrange(this.ownerKey(owner), 0, -1));
    const jsons = ids.length
      ? await shared(this.redis, WHAT, () => this.redis.client.pipeline(ids.map((id) => ['hget', this.taskPrefix + id, 'json'])).exec())
      : [];
    const now = this.now();
    const tasks: TaskRecord[] = [];
    for (const [err, json] of jsons ?? []) {
      if (err || typeof json !== 'string') continue;
      const r = JSON.parse(json) as TaskRecord;
      if (r.owner === owner && r.expiresAt > now) tasks.push(r);
    }
    return pageOfTasks(tasks.sort(newestFirst), limit, cursor);
  }

  private async read(taskId: string): Promise<{ record: TaskRecord; version: string } | undefined> {
    if (!isTaskId(taskId)) return undefined;
    const [json, version] = await shared(this.redis, WHAT, () => this.redis.client.hmget(this.taskPrefix + taskId, 'json', 'ver'));
    if (typeof json !== 'string' || typeof version !== 'string') return undefined;
    const record = JSON.parse(json) as TaskRecord;
    return record.expiresAt > this.now() ? { record, version } : undefined;
  }

  /**
   * A change by this replica: the runner's own write (fenced on the epoch the task was
   * created under) when the task runs here, else a plain one (a cancel of a task running
   * elsewhere). `final`: the status a finish sets; refused as fenced, it becomes the late note.
   */
  private async change(taskId: string, apply: (r: TaskRecord) => TaskRecord, final?: TerminalTaskStatus): Promise<TaskRecord | undefined> {
    const runner = this.runningHere.get(taskId)?.runner;
    const ended = await this.compareAndSet(taskId, apply, runner ?? '', runner !== undefined);
    if (ended === 'fenced') {
      const epoch = parseToken(runner ?? '').epoch;
      if (epoch !== undefined) this.liveness.fenced(epoch);
      if (final && runner) {
        this.runningHere.delete(taskId);
        await this.late(taskId, runner, final);
      }
      return undefined;
    }
    if (final) this.runningHere.delete(taskId);
    return ended;
  }

  /**
   * A fenced runner's final status, once: the task ended as the survivors end it when they
   * have not yet (a workflow's as its run's record says: the run's own late write came first),
   * with the late end beside it and in its status message. lastUpdatedAt stays the end's.
   */
  private async late(taskId: string, runner: string, status: TerminalTaskStatus): Promise<void> {
    const replica = parseToken(runner).id;
    const end = lateEnd(status, replica);
    for (let round = 0; round < ROUNDS; round++) {
      const read = await this.read(taskId);
      if (!read || read.record.late) return;
      const r = read.record;
      if (!isTerminalStatus(r.status)) {
        const run = r.kind === 'workflow' ? await this.runOf(taskId) : undefined;
        const kept = interruptedTaskEnd(r, run?.status === 'running' ? undefined : run, endedDuringTask(replica));
        const next = { ...r, status: kept.status, result: kept.result, statusMessage: lateNote(kept.message, end), late: end };
        if ((await this.compareAndSet(taskId, () => next, runner, false)) !== undefined) return this.log.warn(`task ${taskId}: ${next.statusMessage}`);
        continue;
      }
      const next = { ...r, statusMessage: lateNote(r.statusMessage, end), late: end };
      const written = await shared(this.redis, WHAT, () => this.commands.switchboardTaskNote(this.taskPrefix + taskId, read.version, JSON.stringify(next)));
      if (written === 1) return this.log.warn(`task ${taskId}: ${next.statusMessage}`);
    }
  }

  /**
   * One compare-and-set write, retried while other writes land between the read and the
   * write. `runner`: only while the task is still that replica#epoch's ('' for any). `own`:
   * the runner's own write, 'fenced' when its epoch was declared dead.
   */
  private async compareAndSet(taskId: string, apply: (r: TaskRecord) => TaskRecord, runner: string, own: boolean): Promise<TaskRecord | 'fenced' | undefined> {
    for (let round = 0; round < ROUNDS; round++) {
      const read = await this.read(taskId);
      if (!read) {
        const mine = own ? this.runningHere.get(taskId) : undefined;
        if (mine && mine.record.expiresAt > this.now()) {
          // Vanished before its time while it runs here (Redis lost it): written back, changed.
          const restored = await this.restore(mine, apply);
          if (restored !== undefined) return restored;
          continue;
        }
        // Gone (its ttl ran out while it ran): it is nobody's to finish any more.
        if (own) this.runningHere.delete(taskId);
        if (isTaskId(taskId)) await shared(this.redis, WHAT, () => this.redis.client.hdel(this.running, taskId));
        return undefined;
      }
      // The runner's own write goes on to the script even so: fenced, it is told (and notes its late end).
      if (isTerminalStatus(read.record.status) && !own) return undefined;
      const next = { ...apply(read.record), lastUpdatedAt: new Date(this.now()).toISOString() };
      const written = await shared(this.redis, WHAT, () =>
        this.commands.switchboardTaskChange(
          this.taskPrefix + taskId,
          this.running,
          this.liveness.fenceKey(runner === '' ? this.liveness.token : runner),
          read.version,
          JSON.stringify(next),
          next.status,
          taskId,
          runner,
          own ? '1' : '0',
        ),
      );
      if (written === 1) return own ? this.wrote(next) : next;
      if (written === -1) {
        if (own) this.runningHere.delete(taskId);
        return undefined;
      }
      if (written === -2) return 'fenced';
    }
    throw new Error(`task ${taskId} changed ${ROUNDS} times while this change was being made; try again`);
  }

  /** Keeps this replica's copy of a task it runs as last written; a finished one is no longer kept. */
  private wrote(record: TaskRecord): TaskRecord {
    const mine = this.runningHere.get(record.taskId);
    if (!mine) return record;
    if (isTerminalStatus(record.status)) this.runningHere.delete(record.taskId);
    else mine.record = record;
    return record;
  }

  /** Writes back a task this replica runs whose hash vanished, with `apply`'s change; undefined when another write got there first. */
  private async restore(mine: RunningHere, apply: (r: TaskRecord) => TaskRecord): Promise<TaskRecord | 'fenced' | undefined> {
    const next = { ...apply(mine.record), lastUpdatedAt: new Date(this.now()).toISOString() };
    const restored = await shared(this.redis, WHAT, () =>
      this.commands.switchboardTaskRestore(
        this.ownerKey(next.owner),
        this.taskPrefix + next.taskId,
        this.running,
        this.liveness.fenceKey(mine.runner),
        next.taskId,
        JSON.stringify(next),
        next.status,
        String(Date.parse(next.createdAt)),
        String(Math.max(1, next.expiresAt - this.now())),
        mine.runner,
      ),
    );
    if (restored === -2) return 'fenced';
    if (restored !== 1) return undefined;
    this.log.warn(`task ${next.taskId}: its record had vanished from Redis while it ran here; written back from this replica's copy`);
    return this.wrote(next);
  }
}
