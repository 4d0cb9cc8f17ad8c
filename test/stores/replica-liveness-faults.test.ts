/**
 * A replica's liveness through Redis' own faults (cluster-redis, on a real redis-server).
 * Full (`maxmemory` under `noeviction`): the renewal's PSETEX is refused, the key it holds is
 * extended instead, so once memory comes back the others find it alive and take none of its
 * runs; a key that is gone cannot be kept that way, and the renewal fails and says so. An
 * outage in which every key lapsed: no replica takes another for ended until its own renewals
 * land again and the others had a renewal period to come back; a replica that really ended
 * is taken for ended after that.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { ExecutionRecord, ExecutionRetention } from '../../kernel/contracts/executions.js';
import { RedisExecutionRecords } from '../../plugins/cluster-redis/execution-records.js';
import { ReplicaLiveness } from '../../plugins/cluster-redis/replica-liveness.js';
import { openRedis, type RedisConnection } from '../../lib/redis/connection.js';
import { createLogger } from '../../kernel/log.js';
import { eventually } from '../support/harness.js';
import { useRedisServer } from '../support/redis-server.js';

const log = createLogger({ level: 'error' });
const RETENTION: ExecutionRetention = { maxCount: 100, maxAgeDays: 1, maxTotalBytes: () => 10_000_000 };
/** A renewal period of 500 ms, not 5 s: the waits below are for renewals. */
const RENEW_MS = 500;
/** Room for a few renewals on a busy machine. */
const RENEWAL_WAIT_MS = 10_000;

describe("a replica's liveness through Redis' faults (cluster-redis)", function () {
  this.timeout(30_000);
  const redis = useRedisServer();
  let probe: Redis;
  const opened: { connection: RedisConnection; liveness: ReplicaLiveness; records?: RedisExecutionRecords }[] = [];

  const replica = async (prefix: string) => {
    const connection = await openRedis({ url: redis().url, keyPrefix: prefix, connectTimeoutSeconds: 10 }, log);
    const liveness = new ReplicaLiveness(connection, log, RENEW_MS);
    await liveness.start();
    const r = { connection, liveness, records: new RedisExecutionRecords(connection, RETENTION, log, liveness) };
    opened.push(r);
    return r;
  };

  /** Any write that needs memory is refused (OOM), as at `maxmemory` under `noeviction`. */
  const full = async () => {
    await probe.config('SET', 'maxmemory-policy', 'noeviction');
    await probe.config('SET', 'maxmemory', '1');
    await expectRejection(probe.set('probe', 'x'), /^OOM/);
  };
  const freed = () => probe.config('SET', 'maxmemory', '0');

  before(() => {
    probe = new Redis(redis().url);
  });
  afterEach(async () => {
    await freed();
    for (const r of opened.splice(0)) {
      await r.records?.close();
      await r.liveness.stop();
      await r.connection.close();
    }
  });
  after(() => probe.disconnect());

  it('renewed while full: its key outlives the liveness period, its run is not taken over once memory comes back', async () => {
    const prefix = `full-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const run = await startRun(a);
    const key = a.connection.key('replica', a.liveness.id);

    await full();
    const lapsesAt = Date.now() + (await probe.pttl(key));
    // A renewal lands while Redis refuses writes: the key now lapses later than it would have.
    await eventually(
      () => probe.pttl(key),
      (ttl) => Date.now() + ttl > lapsesAt + 1000,
      RENEWAL_WAIT_MS,
      100,
    );
    expect(await probe.get(key)).to.equal(String(a.liveness.epoch));
    expect(a.liveness.problem).to.equal(undefined);

    await freed();
    await b.records.sweepOrphans();
    expect((await b.records.get(run.execution_id))?.status).to.equal('running');
  });

  it('a key gone while full cannot be extended: the renewal fails, naming the refusal', async () => {
    const a = await replica(`full-${randomUUID()}:`);
    await full();
    // DEL needs no memory: the key is gone as if it had lapsed.
    await probe.del(a.connection.key('replica', a.liveness.id));
    const problem = await eventually(
      () => Promise.resolve(a.liveness.problem),
      (p) => p !== undefined,
      RENEWAL_WAIT_MS,
      100,
    );
    expect(problem).to.match(new RegExp(`^replica ${a.liveness.id} cannot renew its liveness key \\(OOM command not allowed`));
  });

  it('an outage in which every key lapsed: nobody is taken for ended until a renewal period after its own renewals land again; then only a replica that ended is', async function () {
    this.timeout(60_000);
    const prefix = `outage-${randomUUID()}:`;
    const [a, b, c] = [await replica(prefix), await replica(prefix), await replica(prefix)];
    const [onA, onC] = [await startRun(a), await startRun(c)];
    const status = async (run: ExecutionRecord) => (await b.records.get(run.execution_id))?.status;

    // Redis refuses every write and every liveness key is gone, as after an outage longer than
    // their 15 s; C ended during it (it never renews again).
    await full();
    await c.liveness.stop();
    await probe.del(a.connection.key('replica', a.liveness.id), b.connection.key('replica', b.liveness.id));
    await eventually(
      () => Promise.resolve(b.liveness.problem),
      (p) => p !== undefined,
      RENEWAL_WAIT_MS,
      100,
    );
    await freed();

    // B, not yet renewed itself, takes nobody for ended (A's key is as gone as C's).
    await b.records.sweepOrphans();
    expect(await status(onA)).to.equal('running');
    expect(await status(onC)).to.equal('running');
    // Its own renewal lands: it still waits for the others to come back.
    await eventually(
      () => Promise.resolve(b.liveness.problem),
      (p) => p === undefined,
      RENEWAL_WAIT_MS,
      100,
    );
    const back = Date.now();
    await b.records.sweepOrphans();
    expect(await status(onC)).to.equal('running');
    // A renews; after the wait, C (ended) is taken for ended and A (alive) is not.
    await eventually(
      async () => {
        await b.records.sweepOrphans();
        return status(onC);
      },
      (s) => s === 'failed',
      RENEWAL_WAIT_MS,
      100,
    );
    // The wait is a renewal period and the longest reconnect backoff (2.5 s here) from the
    // landing, which `back` saw up to a poll (or a busy machine's delay) later.
    expect(Date.now() - back).to.be.at.least(1_500);
    expect(await status(onA)).to.equal('running');
  });
});

/** A run in progress on `r`, stored. */
async function startRun(r: { records: RedisExecutionRecords }): Promise<ExecutionRecord> {
  const run: ExecutionRecord = {
    execution_id: randomUUID(),
    workflow_name: 'slow',
    status: 'running',
    started_at: new Date().toISOString(),
    input: {},
    steps: [],
  };
  r.records.add(run);
  await r.records.flush();
  return run;
}

async function expectRejection(p: Promise<unknown>, message: RegExp): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(err?.message).to.match(message);
}
