/**
 * Tasks on Redis, shared by every replica: tasks/get, tasks/result and tasks/list answer on
 * any replica for a task another one runs. One hash per task (its JSON, its status, a version)
 * that Redis expires at the task's end, and per owner a sorted set of task ids by creation.
 *
 * Creation counts the owner's live tasks and adds the new one in one script, so two replicas
 * creating at once cannot pass the per-owner limit together. A change is a compare-and-set on
 * the version that also refuses a terminal task, so a cancel and a result racing on two
 * replicas end the task once: the first final status wins.
 */
import {
  isTerminalStatus,
  TaskLimitError,
  type TaskChange,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
  type TerminalTaskStatus,
} from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import { isTaskId, newestFirst, pageOfTasks } from '../../lib/tasks/task-page.js';
import { shared } from './shared-state.js';

const WHAT = 'A task';

// KEYS[1] the owner's set, KEYS[2] the task's hash. ARGV: id, JSON, created ms, ttl ms, maxPerOwner, task key prefix.
// Ids of expired tasks leave the owner's set here; the set itself lives as long as its longest task.
const CREATE = `
local live = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if redis.call('EXISTS', ARGV[6] .. id) == 1 then live = live + 1 else redis.call('ZREM', KEYS[1], id) end
end
if live >= tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[2], 'json', ARGV[2], 'status', 'working', 'ver', '1')
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 1
`;

// KEYS[1] the task's hash. ARGV: the version read, the new JSON, the new status.
const CHANGE = `
if redis.call('HGET', KEYS[1], 'ver') ~= ARGV[1] then return 0 end
local s = redis.call('HGET', KEYS[1], 'status')
if s == 'completed' or s == 'failed' or s == 'cancelled' then return -1 end
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'status', ARGV[3], 'ver', tostring(tonumber(ARGV[1]) + 1))
return 1
`;

interface TaskCommands {
  switchboardTaskCreate(owner: string, task: string, id: string, json: string, created: string, ttl: string, max: string, prefix: string): Promise<number>;
  switchboardTaskChange(task: string, version: string, json: string, status: string): Promise<number>;
}

/** Compare-and-set rounds before a change gives up (each lost round means another write landed). */
const ROUNDS = 8;

export class RedisTaskStore implements TaskStore {
  private readonly commands: TaskCommands;
  private readonly taskPrefix: string;

  constructor(
    private readonly redis: RedisConnection,
    private readonly now: () => number = Date.now,
  ) {
    this.taskPrefix = redis.key('tasks', 'task', '');
    redis.client.defineCommand('switchboardTaskCreate', { lua: CREATE, numberOfKeys: 2 });
    redis.client.defineCommand('switchboardTaskChange', { lua: CHANGE, numberOfKeys: 1 });
    this.commands = redis.client as unknown as TaskCommands;
  }

  /** Another replica may be running any task left unfinished: none are this process's to end. */
  open(): Promise<TaskRecord[]> {
    return Promise.resolve([]);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private ownerKey(owner: string): string {
    return this.redis.key('tasks', 'owner', encodeURIComponent(owner));
  }

  async create(record: TaskRecord, maxPerOwner: number): Promise<void> {
    const ttl = Math.max(1, record.expiresAt - this.now());
    const created = await shared(this.redis, WHAT, () =>
      this.commands.switchboardTaskCreate(
        this.ownerKey(record.owner),
        this.taskPrefix + record.taskId,
        record.taskId,
        JSON.stringify(record),
        String(Date.parse(record.createdAt)),
        String(ttl),
        String(maxPerOwner),
        this.taskPrefix,
      ),
    );
    if (created !== 1) throw new TaskLimitError(maxPerOwner);
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
    return this.change(taskId, (r) => {
      const next: TaskRecord = { ...r, status, result };
      if (statusMessage !== undefined) next.statusMessage = statusMessage;
      else delete next.statusMessage;
      return next;
    });
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

  private async change(taskId: string, apply: (r: TaskRecord) => TaskRecord): Promise<TaskRecord | undefined> {
    for (let round = 0; round < ROUNDS; round++) {
      const read = await this.read(taskId);
      if (!read || isTerminalStatus(read.record.status)) return undefined;
      const next = { ...apply(read.record), lastUpdatedAt: new Date(this.now()).toISOString() };
      const written = await shared(this.redis, WHAT, () =>
        this.commands.switchboardTaskChange(this.taskPrefix + taskId, read.version, JSON.stringify(next), next.status),
      );
      if (written === 1) return next;
      if (written === -1) return undefined;
    }
    throw new Error(`task ${taskId} changed ${ROUNDS} times while this change was being made; try again`);
  }
}
