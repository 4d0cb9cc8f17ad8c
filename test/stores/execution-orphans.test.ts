/**
 * Runs left `running` by a replica that ended (cluster-redis, on a real redis-server): a
 * replica sweeping marks them failed once the owner's liveness key is gone, leaves the runs
 * of a live replica alone, and never overwrites a run its owner finished meanwhile.
 */
import { expect } from 'chai';
import type { ExecutionRecord, ExecutionRetention } from '../../kernel/contracts/executions.js';
import { RedisExecutionRecords } from '../../plugins/cluster-redis/execution-records.js';
import { ReplicaLiveness } from '../../plugins/cluster-redis/replica-liveness.js';
import { openRedis, type RedisConnection } from '../../lib/redis/connection.js';
import { createLogger } from '../../kernel/log.js';
import { useRedisServer } from '../support/redis-server.js';

const log = createLogger({ level: 'error' });
const RETENTION: ExecutionRetention = { maxCount: 100, maxAgeDays: 1, maxTotalBytes: () => 10_000_000 };

const running = (id: string): ExecutionRecord => ({
  execution_id: id,
  workflow_name: 'slow',
  status: 'running',
  started_at: new Date().toISOString(),
  input: {},
  steps: [
    { id: 'one', step_id: 'one', tool: 'x_tools_ping', status: 'completed', result: {} },
    { id: 'two', step_id: 'two', tool: 'x_tools_slow', status: 'running' },
  ],
});

interface Replica {
  connection: RedisConnection;
  liveness: ReplicaLiveness;
  records: RedisExecutionRecords;
}

describe('execution records of a replica that ended (cluster-redis)', function () {
  const redis = useRedisServer();
  let round = 0;
  let replicas: Replica[] = [];

  const replica = async (prefix: string): Promise<Replica> => {
    const connection = await openRedis({ url: redis().url, keyPrefix: prefix, connectTimeoutSeconds: 10 }, log);
    const liveness = new ReplicaLiveness(connection, log);
    await liveness.start();
    const records = new RedisExecutionRecords(connection, RETENTION, log, liveness);
    const r = { connection, liveness, records };
    replicas.push(r);
    return r;
  };

  afterEach(async () => {
    for (const r of replicas) {
      await r.records.close();
      await r.liveness.stop();
      await r.connection.close();
    }
    replicas = [];
  });

  it("marks a run failed once its replica's liveness is gone, naming the replica; a live replica's run stays running", async () => {
    const prefix = `orphans-${++round}:`;
    const [a, b, c] = [await replica(prefix), await replica(prefix), await replica(prefix)];
    a.records.add(running('of-a'));
    c.records.add(running('of-c'));
    await a.records.flush();
    await c.records.flush();
    await b.records.sweepOrphans();
    expect((await b.records.get('of-a'))?.status, 'A is alive').to.equal('running');

    await a.liveness.stop(); // as if A was killed and its key lapsed
    await b.records.sweepOrphans();
    const failed = await b.records.get('of-a');
    expect(failed?.status).to.equal('failed');
    expect(failed?.error).to.equal(`replica ${a.liveness.id} ended during the run`);
    expect(failed?.steps.map((s) => s.status)).to.deep.equal(['completed', 'failed']);
    expect(failed?.completed_at).to.be.a('string');
    expect((await b.records.get('of-c'))?.status, 'C is alive').to.equal('running');
    // Once marked, it is no one's: another sweep writes nothing more.
    await c.records.sweepOrphans();
    expect(await c.records.get('of-a')).to.deep.equal(failed);
  });

  it("never overwrites a run its replica finished before the sweep's write", async () => {
    const prefix = `orphans-${++round}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const run = running('late');
    a.records.add(run);
    await a.records.flush();
    await a.liveness.stop();
    // A finishes the run after all (it was slow, not dead), before B sweeps.
    await a.records.save({ ...run, status: 'completed', completed_at: new Date().toISOString() });
    await b.records.sweepOrphans();
    expect((await b.records.get('late'))?.status).to.equal('completed');
  });
});
