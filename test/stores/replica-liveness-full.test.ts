/**
 * A replica stays alive while Redis is full (cluster-redis, on a real redis-server at
 * `maxmemory` under `noeviction`): the renewal's PSETEX is refused, the key it holds is
 * extended instead, so once memory comes back the others find it alive and take none of
 * its runs. A key that is gone cannot be kept that way: the renewal fails and says so.
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
/** One renewal period (5 s) and room for a busy machine. */
const RENEWAL_WAIT_MS = 12_000;

describe('a replica stays alive while Redis is full (cluster-redis)', function () {
  this.timeout(30_000);
  const redis = useRedisServer();
  let probe: Redis;
  const opened: { connection: RedisConnection; liveness: ReplicaLiveness; records?: RedisExecutionRecords }[] = [];

  const replica = async (prefix: string) => {
    const connection = await openRedis({ url: redis().url, keyPrefix: prefix, connectTimeoutSeconds: 10 }, log);
    const liveness = new ReplicaLiveness(connection, log);
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
    const run: ExecutionRecord = {
      execution_id: randomUUID(),
      workflow_name: 'slow',
      status: 'running',
      started_at: new Date().toISOString(),
      input: {},
      steps: [],
    };
    a.records.add(run);
    await a.records.flush();
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
});

async function expectRejection(p: Promise<unknown>, message: RegExp): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(err?.message).to.match(message);
}
