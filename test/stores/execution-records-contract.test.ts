/**
 * The ExecutionRecords contract (kernel/contracts/executions.ts), as one suite against the
 * workflows plugin's files (executions/*.json) and cluster-redis's records on a real
 * redis-server. "Another" is a second store over the same place: a restart for files,
 * another replica for Redis.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { ExecutionRecord, ExecutionRecords, ExecutionRetention } from '../../kernel/contracts/executions.js';
import { ExecutionStore } from '../../plugins/workflows/execution-store.js';
import { RedisExecutionRecords } from '../../plugins/cluster-redis/execution-records.js';
import { ReplicaLiveness } from '../../plugins/cluster-redis/replica-liveness.js';
import { openRedis, type RedisConnection } from '../../lib/redis/connection.js';
import { createLogger } from '../../kernel/log.js';
import { useRedisServer } from '../support/redis-server.js';

interface Subject {
  open(retention: ExecutionRetention): Promise<ExecutionRecords>;
  /** Another store reads the running record as last saved while the first still holds it (replicas). */
  concurrent: boolean;
  cleanup(): Promise<void>;
}

const log = createLogger({ level: 'error' });
const RETENTION: ExecutionRetention = { maxCount: 100, maxAgeDays: 1, maxTotalBytes: () => 10_000_000 };

/** An hour ago: within maxAgeDays, and each record n a second after the one before. */
const BASE = Date.now() - 3_600_000;
function record(n: number, more: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    execution_id: `run-${n}`,
    workflow_name: n % 2 ? 'odd' : 'even',
    status: 'completed',
    started_at: new Date(BASE + n * 1000).toISOString(),
    input: { n },
    caller: n % 3 === 0 ? 'person:ann' : 'local',
    steps: [{ id: 'one', step_id: 'one', tool: 'x_tools_ping', status: 'completed', result: { n } }],
    ...more,
  };
}

function contract(label: string, make: () => Promise<Subject>): void {
  describe(`ExecutionRecords contract: ${label}`, function () {
    this.timeout(60_000);
    let s: Subject;
    const opened: ExecutionRecords[] = [];
    const open = async (retention = RETENTION) => {
      const store = await s.open(retention);
      opened.push(store);
      return store;
    };
    beforeEach(async () => {
      s = await make();
    });
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      await s.cleanup();
    });

    it('gives back what was stored, lists newest first with filters and paging, `visible` before paging', async () => {
      const store = await open();
      for (let n = 1; n <= 9; n++) store.add(record(n));
      await store.flush();
      expect(await store.get('run-4')).to.deep.equal(record(4));
      expect(await store.get('nope')).to.equal(undefined);
      const all = await store.list({ limit: 100, offset: 0 });
      expect(all.executions.map((r) => r.execution_id)).to.deep.equal(['run-9', 'run-8', 'run-7', 'run-6', 'run-5', 'run-4', 'run-3', 'run-2', 'run-1']);
      const odd = await store.list({ limit: 2, offset: 1, workflow_name: 'odd' });
      expect(odd).to.deep.include({ total: 5 });
      expect(odd.executions.map((r) => r.execution_id)).to.deep.equal(['run-7', 'run-5']);
      const ann = await store.list({ limit: 1, offset: 1, visible: (r) => r.caller === 'person:ann' });
      expect(ann.total).to.equal(3);
      expect(ann.executions.map((r) => r.execution_id)).to.deep.equal(['run-6']);
    });

    it('keeps maxCount finished records (running ones stay); a record retention dropped is not saved back', async () => {
      const store = await open({ maxCount: 3, maxAgeDays: 1, maxTotalBytes: () => 10_000_000 });
      const running = record(1, { status: 'running' });
      store.add(running);
      for (let n = 2; n <= 6; n++) store.add(record(n));
      const dropped = record(7);
      await store.flush();
      const kept = await store.list({ limit: 100, offset: 0 });
      expect(kept.executions.map((r) => r.execution_id)).to.deep.equal(['run-6', 'run-5', 'run-4', 'run-1']);
      await store.save({ ...dropped, execution_id: 'run-2' });
      expect(await store.get('run-2')).to.equal(undefined);
    });

    it('drops finished records older than maxAgeDays, then the oldest until the rest fit in maxTotalBytes', async () => {
      const size = Buffer.byteLength(JSON.stringify(record(31)));
      const store = await open({ maxCount: 100, maxAgeDays: 1, maxTotalBytes: () => Math.floor(size * 2.5) });
      store.add(record(30, { started_at: new Date(Date.now() - 2 * 86_400_000).toISOString(), workflow_name: 'old' }));
      for (let n = 31; n <= 35; n++) store.add(record(n));
      await store.flush();
      const kept = await store.list({ limit: 100, offset: 0 });
      expect(kept.executions.map((r) => r.execution_id)).to.deep.equal(['run-35', 'run-34']);
    });

    it('another store over the same place reads the records, a running one as last saved', async () => {
      const store = await open();
      const r = record(20, { status: 'running', steps: [{ id: 'one', step_id: 'one', tool: 'x_tools_ping', status: 'pending' }] });
      store.add(r);
      r.steps[0]!.status = 'completed';
      await store.save(r);
      if (!s.concurrent) await store.close();
      const other = await open();
      const seen = await other.get('run-20');
      expect(seen!.steps[0]!.status).to.equal('completed');
      expect(seen!.status).to.equal(s.concurrent ? 'running' : 'failed');
      r.status = 'completed';
      if (s.concurrent) {
        await store.save(r);
        expect((await other.get('run-20'))!.status).to.equal('completed');
      }
    });
  });
}

contract('files (executions/*.json)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'execution-records-'));
  return {
    concurrent: false,
    open: async (retention) => {
      const store = new ExecutionStore(join(dir, 'executions'), retention, log);
      await store.open();
      return store;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('ExecutionRecords contract: Redis (cluster-redis)', function () {
  const redis = useRedisServer();
  let round = 0;
  contract('Redis (cluster-redis)', () => {
    const settings = { url: redis().url, keyPrefix: `executions-${++round}:`, connectTimeoutSeconds: 10 };
    const connections: RedisConnection[] = [];
    const opened: { store: RedisExecutionRecords; liveness: ReplicaLiveness }[] = [];
    return Promise.resolve({
      concurrent: true,
      open: async (retention) => {
        const connection = await openRedis(settings, log);
        connections.push(connection);
        // Each store a replica of its own, alive while the test runs.
        const liveness = new ReplicaLiveness(connection, log);
        await liveness.start();
        const store = new RedisExecutionRecords(connection, retention, log, liveness);
        opened.push({ store, liveness });
        await store.open();
        return store;
      },
      cleanup: async () => {
        for (const { store, liveness } of opened) {
          await store.close().catch(() => undefined);
          await liveness.stop();
        }
        await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
      },
    });
  });
});
