/**
 * Execution history on Redis, shared by every replica: a run on one replica is read with
 * core_workflow_execution_get / _list on any other, while it runs and after.
 *
 * The records are the same JSON the file store writes (one string per record), indexed by a
 * sorted set scored by start time (newest first). Each record's status and size sit in two
 * hashes and the sizes' sum in a counter, so retention costs nothing per write until a limit
 * is passed. One Lua script stores a record and applies retention (count, age, total bytes:
 * the oldest finished records go first, running ones stay, as in files) atomically, so no
 * reader sees a record without its index entry or the other way round, and a save of a
 * record retention already dropped does not bring it back.
 *
 * A running record names the replica running it (a hash beside the index). Unlike files, a
 * replica starting cannot mark every `running` record failed (those runs may be going on
 * elsewhere): each replica looks every SWEEP_MS for running records whose replica is no
 * longer alive (replica-liveness.ts) and marks them failed, "replica <id> ended during the
 * run". The write is conditional on the record still being that replica's and running, so
 * two replicas sweeping at once write it once (docs/scale-out.md).
 *
 * Redis lost or refusing writes: a run this replica runs is written back at its next save
 * when its record vanished (Redis restarted without its data), and a save Redis cannot take
 * now (out of memory, unreachable) waits in a bounded backlog (write-backlog.ts) and is
 * written when it can, its latest state only; meanwhile this replica reads its own waiting
 * states instead of Redis' older ones.
 */
import type { ExecutionListQuery, ExecutionPage, ExecutionRecord, ExecutionRecords, ExecutionRetention, ExecutionStorage, Logger } from '../../kernel/index.js';
import { pageOf } from '../../lib/executions/execution-page.js';
import { markInterrupted } from '../../lib/executions/interrupted.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import type { ReplicaLiveness } from './replica-liveness.js';
import { shared } from './shared-state.js';
import { WriteBacklog } from './write-backlog.js';
import type { WriteLosses } from './write-losses.js';

// KEYS[1] index (zset), KEYS[2] statuses (hash), KEYS[3] sizes (hash), KEYS[4] total bytes, KEYS[5] owners (hash).
// ARGV: id, JSON, start ms, status, bytes, how ('1' a new record, '2' the running replica's save: written back when
// the record vanished, '0' only while the record is there), maxCount, cutoff ms, maxBytes, record key prefix, the
// writing replica, and the replica the record must still be owned by ('' for any: the engine's own writes).
// 1 when written, 2 when written back (it had vanished), 0 when not written.
const PUT = `
local id = ARGV[1]
local prefix = ARGV[10]
local present = redis.call('ZSCORE', KEYS[1], id)
if ARGV[6] == '0' and not present then return 0 end
local wrote = 1
if ARGV[6] == '2' and not present then wrote = 2 end
if ARGV[12] ~= '' and (redis.call('HGET', KEYS[5], id) ~= ARGV[12] or redis.call('HGET', KEYS[2], id) ~= 'running') then return 0 end
if ARGV[4] == 'running' then redis.call('HSET', KEYS[5], id, ARGV[11]) else redis.call('HDEL', KEYS[5], id) end
redis.call('ZADD', KEYS[1], ARGV[3], id)
redis.call('SET', prefix .. id, ARGV[2])
redis.call('HSET', KEYS[2], id, ARGV[4])
local old = tonumber(redis.call('HGET', KEYS[3], id) or '0')
redis.call('HSET', KEYS[3], id, ARGV[5])
local total = redis.call('INCRBY', KEYS[4], tonumber(ARGV[5]) - old)
local maxCount = tonumber(ARGV[7])
local cutoff = tonumber(ARGV[8])
local maxBytes = tonumber(ARGV[9])
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if redis.call('ZCARD', KEYS[1]) <= maxCount and total <= maxBytes and (oldest[2] == nil or tonumber(oldest[2]) >= cutoff) then return wrote end
local all = redis.call('ZREVRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local keep = {}
local drop = {}
local keptBytes = 0
for i = 1, #all, 2 do
  local rid = all[i]
  local running = redis.call('HGET', KEYS[2], rid) == 'running'
  if not running and (#keep >= maxCount or tonumber(all[i + 1]) < cutoff) then
    drop[#drop + 1] = rid
  else
    keep[#keep + 1] = rid
    keptBytes = keptBytes + tonumber(redis.call('HGET', KEYS[3], rid) or '0')
  end
end
for i = #keep, 1, -1 do
  if keptBytes <= maxBytes then break end
  local rid = keep[i]
  if redis.call('HGET', KEYS[2], rid) ~= 'running' then
    keptBytes = keptBytes - tonumber(redis.call('HGET', KEYS[3], rid) or '0')
    drop[#drop + 1] = rid
  end
end
for _, rid in ipairs(drop) do
  redis.call('ZREM', KEYS[1], rid)
  redis.call('DEL', prefix .. rid)
  redis.call('HDEL', KEYS[2], rid)
  redis.call('DECRBY', KEYS[4], tonumber(redis.call('HGET', KEYS[3], rid) or '0'))
  redis.call('HDEL', KEYS[3], rid)
  redis.call('HDEL', KEYS[5], rid)
end
return wrote
`;

const WHAT = 'the workflow execution history';
/** How often each replica looks for runs whose replica ended. */
const SWEEP_MS = 5_000;
/** Records fetched per round trip while listing. */
const BATCH = 500;

interface RecordCommands {
  switchboardExecutionPut(index: string, statuses: string, sizes: string, total: string, owners: string, ...args: string[]): Promise<number>;
}

/** Where one execution record's JSON is kept (also read by the task sweep: a workflow's task ends as its run). */
export function executionRecordPrefix(redis: RedisConnection): string {
  return redis.key('executions', 'record', '');
}

export class RedisExecutionRecords implements ExecutionRecords {
  readonly shared = true;
  private readonly commands: RecordCommands;
  private readonly index: string;
  private readonly statuses: string;
  private readonly sizes: string;
  private readonly total: string;
  private readonly recordPrefix: string;
  private readonly owners: string;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  /** Every write, in the order the engine made them (a read waits for those made before it); those Redis cannot take now wait there. */
  private readonly writes: WriteBacklog<string>;
  /** Runs this replica added and has not saved finished: their saves write the record back if it vanished. */
  private readonly runningHere = new Set<string>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly retention: ExecutionRetention,
    private readonly log: Logger,
    private readonly liveness: ReplicaLiveness,
    losses?: WriteLosses,
  ) {
    this.writes = new WriteBacklog<string>(redis, log, 'execution history', {
      onDropped: (count) => losses?.dropped('execution', count),
      onResumed: () => losses?.resumed(),
    });
    this.owners = redis.key('executions', 'owner');
    this.index = redis.key('executions', 'index');
    this.statuses = redis.key('executions', 'status');
    this.sizes = redis.key('executions', 'size');
    this.total = redis.key('executions', 'bytes');
    this.recordPrefix = executionRecordPrefix(redis);
    redis.client.defineCommand('switchboardExecutionPut', { lua: PUT, numberOfKeys: 5 });
    this.commands = redis.client as unknown as RecordCommands;
  }

  open(): Promise<void> {
    this.sweeper = setInterval(() => {
      this.sweeping ??= this.sweepOrphans()
        .catch((err: unknown) => this.log.warn(`looking for runs of ended replicas failed: ${(err as Error).message}`))
        .finally(() => (this.sweeping = undefined));
    }, SWEEP_MS);
    this.sweeper.unref();
    return Promise.resolve();
  }

  /**
   * Running records whose replica is no longer alive are marked failed. One HGETALL when
   * nothing runs; then one MGET for the owners, and per orphan a GET and the conditional write.
   */
  async sweepOrphans(): Promise<void> {
    const owned = await this.redis.client.hgetall(this.owners);
    const others = [...new Set(Object.values(owned))].filter((owner) => owner !== this.liveness.id);
    if (others.length === 0) return;
    const alive = await this.liveness.alive(others);
    for (const [id, owner] of Object.entries(owned)) {
      if (owner === this.liveness.id || alive.has(owner)) continue;
      const raw = await this.redis.client.get(this.recordPrefix + id);
      if (raw === null) continue;
      const record = JSON.parse(raw) as ExecutionRecord;
      if (record.status !== 'running') continue;
      markInterrupted(record, `replica ${owner} ended during the run`);
      if ((await this.put(record, '0', owner)) === 1) this.log.warn(`execution ${id} marked failed: replica ${owner} ended during the run`);
    }
  }

  add(record: ExecutionRecord): void {
    void this.write(record, true);
  }

  save(record: ExecutionRecord): Promise<void> {
    return this.write(record, false);
  }

  async get(id: string): Promise<ExecutionRecord | undefined> {
    await this.writes.settled();
    // A state waiting for Redis is newer than Redis' copy.
    const waiting = this.writes.waitingValue(id);
    if (waiting !== undefined) return JSON.parse(waiting) as ExecutionRecord;
    const raw = await shared(this.redis, WHAT, () => this.redis.client.get(this.recordPrefix + id));
    return raw === null ? undefined : (JSON.parse(raw) as ExecutionRecord);
  }

  async list(q: ExecutionListQuery): Promise<ExecutionPage> {
    await this.writes.settled();
    const stored = await shared(this.redis, WHAT, async () => {
      const ids = await this.redis.client.zrevrange(this.index, 0, -1);
      const out: ExecutionRecord[] = [];
      for (let i = 0; i < ids.length; i += BATCH) {
        const raws = await this.redis.client.mget(ids.slice(i, i + BATCH).map((id) => this.recordPrefix + id));
        // A record retention dropped between the two reads is left out.
        for (const raw of raws) if (raw !== null) out.push(JSON.parse(raw) as ExecutionRecord);
      }
      return out;
    });
    const waiting = this.writes.waitingValues().map((json) => JSON.parse(json) as ExecutionRecord);
    if (waiting.length === 0) return pageOf(stored, q);
    const newer = new Map(waiting.map((r) => [r.execution_id, r]));
    const records = stored.map((r) => newer.get(r.execution_id) ?? r);
    const known = new Set(stored.map((r) => r.execution_id));
    for (const r of newer.values()) if (!known.has(r.execution_id)) records.push(r);
    records.sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at));
    return pageOf(records, q);
  }

  /** Waiting writes are what Redis cannot take now: a flush waits for the others only. */
  flush(): Promise<void> {
    return this.writes.settled();
  }

  /** Why /health is degraded while saves wait for Redis. */
  get problem(): string | undefined {
    return this.writes.problem;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.sweeping;
    await this.writes.close();
  }

  /** The snapshot is taken now (the engine goes on changing the record); stored after earlier writes. */
  private write(record: ExecutionRecord, isNew: boolean): Promise<void> {
    const id = record.execution_id;
    const json = JSON.stringify(record);
    const runner = this.runningHere.has(id);
    if (record.status === 'running' && isNew) this.runningHere.add(id);
    else if (record.status !== 'running') this.runningHere.delete(id);
    const how = isNew ? '1' : runner ? '2' : '0';
    return this.writes.submit(
      `execution ${id}`,
      Buffer.byteLength(json),
      async () => {
        if ((await this.put(record, how, '', json)) === 2)
          this.log.warn(`execution ${id}: its record had vanished from Redis while it ran here; written back from this replica's copy`);
      },
      json,
      id,
    );
  }

  /** One script: the record stored (when still `expectedOwner`'s, if named) with retention; 1 when written, 2 when written back. */
  private put(record: ExecutionRecord, how: '0' | '1' | '2', expectedOwner: string, json = JSON.stringify(record)): Promise<number> {
    return this.commands.switchboardExecutionPut(
      this.index,
      this.statuses,
      this.sizes,
      this.total,
      this.owners,
      record.execution_id,
      json,
      String(Date.parse(record.started_at)),
      record.status,
      String(Buffer.byteLength(json)),
      how,
      String(this.retention.maxCount),
      String(Date.now() - this.retention.maxAgeDays * 86_400_000),
      String(this.retention.maxTotalBytes()),
      this.recordPrefix,
      this.liveness.id,
      expectedOwner,
    );
  }
}

export class RedisExecutionStorage implements ExecutionStorage {
  /** The records the workflows plugin writes to (the newest created): /health reads their backlog. */
  current: RedisExecutionRecords | undefined;

  constructor(
    private readonly redis: RedisConnection,
    private readonly log: Logger,
    private readonly liveness: ReplicaLiveness,
    private readonly losses?: WriteLosses,
  ) {}

  create(retention: ExecutionRetention): ExecutionRecords {
    this.current = new RedisExecutionRecords(this.redis, retention, this.log, this.liveness, this.losses);
    return this.current;
  }
}
