/**
 * Fencing of a replica declared dead that comes back (cluster-redis, on a real redis-server):
 * once the survivors fenced its epoch, its writes to the runs and tasks of that epoch are
 * refused in the write scripts; its late end is kept once as a note on both, which agree; it
 * goes on under the next epoch. A replica that came back before anything was fenced keeps
 * its work.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { ExecutionRecord, ExecutionRetention } from '../../kernel/contracts/executions.js';
import type { TaskRecord } from '../../kernel/contracts/task-store.js';
import { RedisExecutionRecords } from '../../plugins/cluster-redis/execution-records.js';
import { RedisTaskStore } from '../../plugins/cluster-redis/task-store.js';
import { ReplicaLiveness } from '../../plugins/cluster-redis/replica-liveness.js';
import { openRedis, type RedisConnection } from '../../lib/redis/connection.js';
import { createLogger } from '../../kernel/log.js';
import { useRedisServer } from '../support/redis-server.js';

const log = createLogger({ level: 'error' });
const RETENTION: ExecutionRetention = { maxCount: 100, maxAgeDays: 1, maxTotalBytes: () => 10_000_000 };
const OWNER = 'person:alice';

interface Replica {
  connection: RedisConnection;
  liveness: ReplicaLiveness;
  records: RedisExecutionRecords;
  tasks: RedisTaskStore;
}

/** A workflow run as a task: one id for both. */
function workflowTask(): { task: TaskRecord; run: ExecutionRecord } {
  const id = randomUUID();
  const at = new Date().toISOString();
  const task: TaskRecord = {
    taskId: id,
    owner: OWNER,
    status: 'working',
    createdAt: at,
    lastUpdatedAt: at,
    ttl: 3_600_000,
    expiresAt: Date.now() + 3_600_000,
    pollInterval: 500,
    metaTool: 'call_tool',
    tool: 'workflow_slow',
    kind: 'workflow',
  };
  const run: ExecutionRecord = {
    execution_id: id,
    workflow_name: 'slow',
    status: 'running',
    started_at: at,
    input: {},
    steps: [{ id: 'one', step_id: 'one', tool: 'x_tools_slow', status: 'running' }],
  };
  return { task, run };
}

const completed = (run: ExecutionRecord): ExecutionRecord => ({
  ...run,
  status: 'completed',
  completed_at: new Date().toISOString(),
  result: { done: true },
  steps: [{ ...run.steps[0]!, status: 'completed' }],
});

describe('fencing a replica declared dead that comes back (cluster-redis)', function () {
  const redis = useRedisServer();
  let round = 0;
  let replicas: Replica[] = [];

  const replica = async (prefix: string): Promise<Replica> => {
    const connection = await openRedis({ url: redis().url, keyPrefix: prefix, connectTimeoutSeconds: 10 }, log);
    const liveness = new ReplicaLiveness(connection, log);
    await liveness.start();
    const r = {
      connection,
      liveness,
      records: new RedisExecutionRecords(connection, RETENTION, log, liveness),
      tasks: new RedisTaskStore(connection, liveness, log),
    };
    replicas.push(r);
    return r;
  };

  afterEach(async () => {
    for (const r of replicas) {
      await r.records.close();
      await r.tasks.close();
      await r.liveness.stop();
      await r.connection.close();
    }
    replicas = [];
  });

  const start = async (r: Replica): Promise<{ task: TaskRecord; run: ExecutionRecord }> => {
    const w = workflowTask();
    await r.tasks.create(w.task, 10);
    r.records.add(w.run);
    await r.records.flush();
    return w;
  };

  it('the survivors ended the run and its task: the late end is a note on both, once, they agree, and the replica goes on as the next epoch', async () => {
    const prefix = `fence-${++round}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const w = await start(a);
    await a.liveness.stop(); // as if A was paused past its liveness period
    await b.records.sweepOrphans();
    await b.tasks.sweepOrphans();
    const failedRun = await b.records.get(w.run.execution_id);
    const failedTask = await b.tasks.get(w.task.taskId, OWNER);
    expect(failedRun?.status).to.equal('failed');
    expect(failedTask?.status).to.equal('failed');
    expect(failedTask?.statusMessage).to.equal(failedRun?.error);

    // A comes back and finishes: the run's end first (the engine stores it before answering), then the task's.
    await a.records.save(completed(w.run));
    expect(await a.tasks.finish(w.task.taskId, 'completed', { content: [] })).to.equal(undefined);
    const run = await b.records.get(w.run.execution_id);
    const task = await b.tasks.get(w.task.taskId, OWNER);
    expect(run?.status).to.equal('failed');
    expect(run?.error).to.equal(failedRun?.error);
    expect(run?.steps).to.deep.equal(failedRun?.steps);
    expect(run?.late_result).to.include({ status: 'completed', replica: a.liveness.id });
    expect(task?.status).to.equal('failed');
    expect(task?.result).to.deep.equal(failedTask?.result);
    expect(task?.lastUpdatedAt).to.equal(failedTask?.lastUpdatedAt);
    expect(task?.late).to.include({ status: 'completed', replica: a.liveness.id });
    expect(task?.statusMessage).to.match(new RegExp(`^${failedRun!.error!}; the work went on and ended completed at `));

    // Once: another late write changes nothing.
    await a.records.save(completed(w.run));
    expect(await b.records.get(w.run.execution_id)).to.deep.equal(run);
    expect(await b.tasks.get(w.task.taskId, OWNER)).to.deep.equal(task);

    // A goes on as epoch 2: its new work is its own, not swept.
    expect(a.liveness.epoch).to.equal(2);
    const next = await start(a);
    await b.records.sweepOrphans();
    await b.tasks.sweepOrphans();
    expect((await b.records.get(next.run.execution_id))?.status).to.equal('running');
    expect((await b.tasks.get(next.task.taskId, OWNER))?.status).to.equal('working');
  });

  it('fenced before the survivors marked the run: the late replica marks it as they would, with the note, and the task follows its run', async () => {
    const prefix = `fence-${++round}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const w = await start(a);
    await a.liveness.stop();
    // The task sweep fences A's epoch, and waits for the run to be marked.
    await b.tasks.sweepOrphans();
    expect((await b.tasks.get(w.task.taskId, OWNER))?.status).to.equal('working');

    await a.records.save(completed(w.run));
    await a.tasks.finish(w.task.taskId, 'completed', { content: [] });
    const run = await b.records.get(w.run.execution_id);
    const task = await b.tasks.get(w.task.taskId, OWNER);
    expect(run?.status).to.equal('failed');
    expect(run?.error).to.equal(`replica ${a.liveness.id} ended during the run`);
    expect(run?.late_result?.status).to.equal('completed');
    expect(task?.status).to.equal(run?.status);
    expect(task?.statusMessage).to.match(new RegExp(`^${run!.error!}; the work went on and ended completed at `));
    expect(task?.late?.status).to.equal('completed');

    // The survivors' sweeps find nothing left to do.
    await b.records.sweepOrphans();
    await b.tasks.sweepOrphans();
    expect(await b.records.get(w.run.execution_id)).to.deep.equal(run);
    expect(await b.tasks.get(w.task.taskId, OWNER)).to.deep.equal(task);
  });

  it('a replica that came back before anything of it was fenced keeps its work: no fence, its end recorded as usual', async () => {
    const prefix = `fence-${++round}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const w = await start(a);
    await a.liveness.stop();
    await a.liveness.start(); // renewed at the same epoch before any survivor looked
    expect(await b.liveness.fence(a.liveness.token)).to.equal(false);
    await b.records.sweepOrphans();
    await b.tasks.sweepOrphans();
    await a.records.save(completed(w.run));
    const done = await a.tasks.finish(w.task.taskId, 'completed', { content: [] });
    expect(done?.status).to.equal('completed');
    expect((await b.records.get(w.run.execution_id))?.status).to.equal('completed');
    expect((await b.records.get(w.run.execution_id))?.late_result).to.equal(undefined);
    expect(a.liveness.epoch).to.equal(1);
  });
});
