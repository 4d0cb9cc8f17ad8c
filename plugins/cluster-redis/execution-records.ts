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
 * A running record names the replica running it and its epoch (a hash beside the index).
 * Unlike files, a replica starting cannot mark every `running` record failed (those runs may
 * be going on elsewhere): each replica looks every SWEEP_MS for running records whose replica
 * is no longer alive at that epoch (replica-liveness.ts), fences that epoch, and marks them
 * failed, "replica <id> ended during the run". The write is conditional on the record still
 * being that replica's and running, so two replicas sweeping at once write it once.
 *
 * The runner's own writes are refused once its epoch is fenced (checked in the same script),
 * so a replica that was only paused cannot overwrite the survivors' `failed` when it comes
 * back. Its final write, refused, becomes a note on the record (`late_result`): the failure
 * stands (docs/decisions.md). If the survivors have not marked the run yet, the late replica
 * marks it as they would, with the note, in one write (docs/scale-out.md).
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
import { endedDuringRun, lateEnd } from './late-end.js';
import { parseToken, type ReplicaLiveness } from './replica-liveness.js';
import { shared } from './shared-state.js';
import { WriteBacklog } from './write-backlog.js';
import type { WriteLosses } from './write-losses.js';

// KEYS[1] index (zset), KEYS[2] statuses (hash), KEYS[3] sizes (hash), KEYS[4] total bytes, KEYS[5] owners (hash),
// KEYS[6] the fence of the runner's epoch. ARGV: id, JSON, start ms, status, bytes, how ('1' a new record, '2' the
// running replica's save: written back when the record vanished, '0' only while the record is there), maxCount,
// cutoff ms, maxBytes, record key prefix, the runner (replica#epoch), the runner the record must still be owned by
// ('' for the runner's own writes), '1' for the runner's own writes (-2 when fenced, -3 once the record is no longer its).
// 1 when written, 2 when written back (it had vanished), 0 when not written.
const PUT = `
local id = ARGV[1]
local prefix = ARGV[10]
local known = redis.call('ZSCORE', KEYS[1], id)
if ARGV[6] == '0' and not known then return 0 end
if ARGV[13] == '1' then
  if redis.call('EXISTS', KEYS[6]) == 1 then return -2 end
  if known and ARGV[6] ~= '1' and (redis.call('HGET', KEYS[2], id) ~= 'running' or redis.call('HGET', KEYS[5], id) ~= ARGV[11]) then return -3 end
end
local wrote = 1
if ARGV[6] == '2' and not known then wrote = 2 end
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

// A fenced runner's late end as a note. KEYS as PUT's first five. ARGV: id, the JSON read, the new JSON, the new
// status, its bytes, the runner. Written only over what was read, and over a running record only while still the runner's.
const LATE = `
local id = ARGV[1]
if redis.call('GET', ARGV[7] .. id) ~= ARGV[2] then return 0 end
if redis.call('HGET', KEYS[2], id) == 'running' and redis.call('HGET', KEYS[5], id) ~= ARGV[6] then return -1 end
redis.call('SET', ARGV[7] .. id, ARGV[3])
redis.call('HSET', KEYS[2], id, ARGV[4])
redis.call('HDEL', KEYS[5], id)
local old = tonumber(redis.call('HGET', KEYS[3], id) or '0')
redis.call('HSET', KEYS[3], id, ARGV[5])
redis.call('INCRBY', KEYS[4], tonumber(ARGV[5]) - old)
return 1
`;

const WHAT = 'the workflow execution history';
/** How often each replica looks for runs whose replica ended. */
const SWEEP_MS = 5_000;
/** Records fetched per round trip while listing. */
const BATCH = 500;

interface RecordCommands {
  switchboardExecutionPut(index: string, statuses: string, sizes: string, total: string, owners: string, fence: string, ...args: string[]): Promise<number>;
  switchboardExecutionLate(index: string, statuses: string, sizes: string, total: string, owners: string, ...args: string[]): Promise<number>;
}

/** Compare-and-set rounds for a late note (each lost round means another write landed). */
const ROUNDS = 8;

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
  /** Runs started here and not ended: the replica#epoch each was started under (its writes are fenced on that epoch). */
  private readonly runners = new Map<string, string>();

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
    redis.client.defineCommand('switchboardExecutionPut', { lua: PUT, numberOfKeys: 6 });
    redis.client.defineCommand('switchboardExecutionLate', { lua: LATE, numberOfKeys: 5 });
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
   * Running records whose replica is no longer alive at their epoch are marked failed, once
   * that epoch is fenced. One HGETALL when nothing runs; then one MGET for the owners, a
   * fence per dead owner, and per orphan a GET and the conditional write.
   */
  async sweepOrphans(): Promise<void> {
    const owned = await this.redis.client.hgetall(this.owners);
    const others = [...new Set(Object.values(owned))].filter((owner) => owner !== this.liveness.token);
    if (others.length === 0) return;
    const alive = await this.liveness.alive(others);
    const fenced = new Map<string, boolean>();
    for (const [id, owner] of Object.entries(owned)) {
      if (owner === this.liveness.token || alive.has(owner)) continue;
      if (!fenced.has(owner)) fenced.set(owner, await this.liveness.fence(owner));
      // It came back at that epoch before anything of it was taken over: its runs are its own.
      if (!fenced.get(owner)) continue;
      const raw = await this.redis.client.get(this.recordPrefix + id);
      if (raw === null) continue;
      const record = JSON.parse(raw) as ExecutionRecord;
      if (record.status !== 'running') continue;
      const replica = parseToken(owner).id;
      markInterrupted(record, endedDuringRun(replica));
      if ((await this.put(record, '0', owner, owner)) === 1) this.log.warn(`execution ${id} marked failed: ${endedDuringRun(replica)}`);
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
    const json = JSON.stringify(record);
    const id = record.execution_id;
    if (isNew) this.runners.set(id, this.liveness.token);
    const ended = record.status !== 'running';
    // A run this replica runs writes its record back if Redis lost it meanwhile.
    const how = isNew ? '1' : this.runners.has(id) ? '2' : '0';
    const runner = this.runners.get(id) ?? this.liveness.token;
    if (ended) this.runners.delete(id);
    return this.writes.submit(`execution ${id}`, Buffer.byteLength(json), () => this.putOwn(record, how, runner, json), json, id);
  }

  /**
   * The engine's write, as `runner`. Fenced (its epoch was declared dead), or the record no
   * longer its (the survivors took it over): a new run goes on under the next epoch; a run's
   * end becomes the note on the survivors' record; the writes between (a step's end) are
   * dropped, the survivors' record stands.
   */
  private async putOwn(record: ExecutionRecord, how: '0' | '1' | '2', runner: string, json: string): Promise<void> {
    const written = await this.put(record, how, '', runner, json);
    if (written === 2)
      this.log.warn(`execution ${record.execution_id}: its record had vanished from Redis while it ran here; written back from this replica's copy`);
    if (written !== -2 && written !== -3) return;
    const epoch = parseToken(runner).epoch;
    if (written === -2 && epoch !== undefined) this.liveness.fenced(epoch);
    if (how === '1') {
      const next = this.liveness.token;
      this.runners.set(record.execution_id, next);
      await this.put(record, '1', '', next, json);
    } else if (record.status !== 'running') await this.late(record, runner);
  }

  /**
   * The late end of `record`, once, on the stored one: marked failed as the survivors mark
   * it when they have not yet, with `late_result` saying how the run really ended.
   */
  private async late(record: ExecutionRecord, runner: string): Promise<void> {
    const replica = parseToken(runner).id;
    const end = lateEnd(record.status === 'running' ? 'failed' : record.status, replica, record.completed_at);
    for (let round = 0; round < ROUNDS; round++) {
      const raw = await this.redis.client.get(this.recordPrefix + record.execution_id);
      if (raw === null) return;
      const stored = JSON.parse(raw) as ExecutionRecord;
      if (stored.late_result) return;
      if (stored.status === 'running') markInterrupted(stored, endedDuringRun(replica));
      stored.late_result = end;
      const json = JSON.stringify(stored);
      const written = await this.commands.switchboardExecutionLate(
        this.index,
        this.statuses,
        this.sizes,
        this.total,
        this.owners,
        record.execution_id,
        raw,
        json,
        stored.status,
        String(Buffer.byteLength(json)),
        runner,
        this.recordPrefix,
      );
      if (written === 1) {
        this.log.warn(
          `execution ${record.execution_id} ended ${end.status} here after the other replicas had marked it ${stored.status}: kept as a note, the ${stored.status} stands`,
        );
        return;
      }
      if (written === -1) return;
    }
  }

  /**
   * One script: the record stored with retention; 1 when written, 2 when written back.
   * `expectedOwner` (a sweep): only while still that runner's and running. '' (the runner's
   * own write): -2 when fenced, -3 once the record is no longer its.
   */
  private put(record: ExecutionRecord, how: '0' | '1' | '2', expectedOwner: string, runner: string, json = JSON.stringify(record)): Promise<number> {
    return this.commands.switchboardExecutionPut(
      this.index,
      this.statuses,
      this.sizes,
      this.total,
      this.owners,
      this.liveness.fenceKey(runner),
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
      runner,
      expectedOwner,
      expectedOwner === '' ? '1' : '0',
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
