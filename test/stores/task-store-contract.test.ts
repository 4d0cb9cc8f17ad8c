/**
 * The TaskStore contract (kernel/contracts/task-store.ts), as one suite against the tasks
 * plugin's files (tasks/*.json) and cluster-redis's hashes on a real redis-server. "Another"
 * store over the same place is a restart for files and another replica for Redis.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { TaskRecord, TaskStore } from '../../kernel/contracts/task-store.js';
import { SwitchboardError } from '../../kernel/errors.js';
import { FileTaskStore } from '../../plugins/tasks/file-task-store.js';
import { RedisTaskStore } from '../../plugins/cluster-redis/task-store.js';
import { ReplicaLiveness } from '../../plugins/cluster-redis/replica-liveness.js';
import { openRedis, type RedisConnection } from '../../lib/redis/connection.js';
import { createLogger } from '../../kernel/log.js';
import { useRedisServer } from '../support/redis-server.js';

interface Subject {
  /** A store over the subject's place; `now` is the store's clock. */
  open(now?: () => number): Promise<{ store: TaskStore; unfinished: TaskRecord[] }>;
  /** Another store sees what the first had running as unfinished (files: a restart); replicas do not. */
  restartSeesUnfinished: boolean;
  cleanup(): Promise<void>;
}

const log = createLogger({ level: 'error' });
let clock = 0;

function task(owner: string, n: number, more: Partial<TaskRecord> = {}): TaskRecord {
  const created = Date.now() + n;
  const at = new Date(created).toISOString();
  return {
    taskId: randomUUID(),
    owner,
    status: 'working',
    createdAt: at,
    lastUpdatedAt: at,
    ttl: 3_600_000,
    expiresAt: created + 3_600_000,
    pollInterval: 500,
    metaTool: 'call_tool',
    tool: 'x_tools_ping',
    kind: 'call',
    ...more,
  };
}

const RESULT = { content: [{ type: 'text', text: 'pong' }] };

function contract(label: string, make: () => Promise<Subject>): void {
  describe(`TaskStore contract: ${label}`, function () {
    this.timeout(30_000);
    let s: Subject;
    const opened: TaskStore[] = [];
    let unfinished: TaskRecord[] = [];
    const open = async (now?: () => number) => {
      const o = await s.open(now);
      opened.push(o.store);
      unfinished = o.unfinished;
      return o.store;
    };
    beforeEach(async () => {
      s = await make();
    });
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      await s.cleanup();
    });

    it("gives a task back only to its owner; another owner's ask, an unknown id and a path are all not found", async () => {
      const store = await open();
      const mine = task('person:ann', 1);
      await store.create(mine, 10);
      expect(await store.get(mine.taskId, 'person:ann')).to.deep.equal(mine);
      expect(await store.get(mine.taskId, 'person:bob')).to.equal(undefined);
      expect(await store.get(randomUUID(), 'person:ann')).to.equal(undefined);
      expect(await store.get('../../etc/passwd', 'person:ann')).to.equal(undefined);
      expect((await store.list('person:bob', 10)).tasks).to.deep.equal([]);
    });

    it('records status changes and upstream refs; the first final status wins and later writes change nothing', async () => {
      const store = await open();
      const t = task('person:ann', 1);
      await store.create(t, 10);
      const asked = await store.update(t.taskId, { status: 'input_required', statusMessage: 'waiting for elicitation/create' });
      expect(asked).to.include({ status: 'input_required', statusMessage: 'waiting for elicitation/create' });
      await store.update(t.taskId, { upstream: { server: 'tools', taskId: 'up-1' } });
      await store.update(t.taskId, { upstream: { server: 'tools', taskId: 'up-2' } });
      const cancelled = await store.finish(t.taskId, 'cancelled', { content: [], isError: true }, 'Cancelled by the client');
      expect(cancelled).to.include({ status: 'cancelled', statusMessage: 'Cancelled by the client' });
      expect(await store.finish(t.taskId, 'completed', RESULT)).to.equal(undefined);
      expect(await store.update(t.taskId, { status: 'working' })).to.equal(undefined);
      const now = await store.get(t.taskId, 'person:ann');
      expect(now?.status).to.equal('cancelled');
      expect(now?.upstream).to.deep.equal([
        { server: 'tools', taskId: 'up-1' },
        { server: 'tools', taskId: 'up-2' },
      ]);
      expect(now?.result).to.deep.equal({ content: [], isError: true });
    });

    it("lists an owner's tasks newest first in pages; a forged cursor is refused by name", async () => {
      const store = await open();
      const made: TaskRecord[] = [];
      for (let n = 0; n < 5; n++) {
        const t = task('session:s1', n * 1000);
        made.push(t);
        await store.create(t, 10);
      }
      await store.create(task('session:s2', 0), 10);
      const first = await store.list('session:s1', 2);
      expect(first.tasks.map((t) => t.taskId)).to.deep.equal([made[4]!.taskId, made[3]!.taskId]);
      const second = await store.list('session:s1', 2, first.nextCursor);
      const third = await store.list('session:s1', 2, second.nextCursor);
      expect([...second.tasks, ...third.tasks].map((t) => t.taskId)).to.deep.equal([made[2]!.taskId, made[1]!.taskId, made[0]!.taskId]);
      expect(third.nextCursor).to.equal(undefined);
      const forged = await store.list('session:s1', 2, 'not-a-cursor').catch((e: unknown) => e);
      expect(forged).to.be.instanceOf(SwitchboardError);
      expect((forged as Error).message).to.include('invalid tasks/list cursor');
    });

    it('refuses a task past the per-owner limit with TASK_LIMIT; other owners are not affected', async () => {
      const store = await open();
      await store.create(task('person:ann', 1), 2);
      await store.create(task('person:ann', 2), 2);
      const refused = await store.create(task('person:ann', 3), 2).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(SwitchboardError);
      expect((refused as SwitchboardError).code).to.equal('TASK_LIMIT');
      expect((refused as Error).message).to.include('aggregator.limits.tasks.maxPerOwner');
      await store.create(task('person:bob', 1), 2);
      expect((await store.list('person:ann', 10)).tasks).to.have.length(2);
    });

    it('an expired task is gone (get, list, the limit) while one within its ttl stays', async () => {
      clock = Date.now();
      const store = await open(() => clock);
      const short = task('person:ann', 0, { ttl: 1000, expiresAt: clock + 1000 });
      const long = task('person:ann', 1);
      await store.create(short, 2);
      await store.create(long, 2);
      clock += 1500;
      expect(await store.get(short.taskId, 'person:ann')).to.equal(undefined);
      expect((await store.list('person:ann', 10)).tasks.map((t) => t.taskId)).to.deep.equal([long.taskId]);
      expect(await store.finish(short.taskId, 'completed', RESULT)).to.equal(undefined);
    });

    it('another store over the same place answers for the task and its result', async () => {
      const first = await open();
      const done = task('person:ann', 1);
      const running = task('person:ann', 2);
      await first.create(done, 10);
      await first.create(running, 10);
      await first.finish(done.taskId, 'completed', RESULT);
      await first.close();
      const again = await open();
      const got = await again.get(done.taskId, 'person:ann');
      expect(got?.status).to.equal('completed');
      expect(got?.result).to.deep.equal(RESULT);
      expect(unfinished.map((t) => t.taskId)).to.deep.equal(s.restartSeesUnfinished ? [running.taskId] : []);
    });
  });
}

contract('files (tasks/*.json)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'task-store-'));
  return {
    restartSeesUnfinished: true,
    open: async (now) => {
      const store = new FileTaskStore(join(dir, 'tasks'), log, now);
      return { store, unfinished: await store.open() };
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('TaskStore files: one private file per task', () => {
  it('writes owner-only files named by the task id, and removes them once expired', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'task-files-'));
    try {
      let now = Date.now();
      const store = new FileTaskStore(join(dir, 'tasks'), log, () => now);
      await store.open();
      const t = task('person:ann', 0, { ttl: 1000, expiresAt: now + 1000 });
      await store.create(t, 10);
      expect(await readdir(join(dir, 'tasks'))).to.deep.equal([`${t.taskId}.json`]);
      await store.close();
      now += 2000;
      const again = new FileTaskStore(join(dir, 'tasks'), log, () => now);
      expect(await again.open()).to.deep.equal([]);
      await again.close();
      expect(await readdir(join(dir, 'tasks'))).to.deep.equal([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('TaskStore contract: Redis (cluster-redis)', function () {
  const redis = useRedisServer();
  let round = 0;
  contract('Redis (cluster-redis)', () => {
    const settings = { url: redis().url, keyPrefix: `tasks-${++round}:`, connectTimeoutSeconds: 10 };
    const connections: RedisConnection[] = [];
    return Promise.resolve({
      restartSeesUnfinished: false,
      open: async (now) => {
        const connection = await openRedis(settings, log);
        connections.push(connection);
        const store = new RedisTaskStore(connection, new ReplicaLiveness(connection, log), log, now);
        return { store, unfinished: await store.open() };
      },
      cleanup: async () => {
        await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
      },
    });
  });
});

describe('Redis tasks of a replica that ended (cluster-redis)', function () {
  const redis = useRedisServer();
  let round = 0;
  const connections: RedisConnection[] = [];
  const stores: RedisTaskStore[] = [];
  const replica = async (prefix: string, alive: boolean): Promise<{ store: RedisTaskStore; liveness: ReplicaLiveness }> => {
    const connection = await openRedis({ url: redis().url, keyPrefix: prefix, connectTimeoutSeconds: 10 }, log);
    connections.push(connection);
    const liveness = new ReplicaLiveness(connection, log);
    if (alive) await liveness.start();
    const store = new RedisTaskStore(connection, liveness, log);
    stores.push(store);
    return { store, liveness };
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await Promise.all(connections.splice(0).map((c) => c.close().catch(() => undefined)));
  });

  it("ends a dead replica's unfinished task failed, naming it, once however many replicas sweep at once", async () => {
    const prefix = `dead-${++round}:`;
    const dead = await replica(prefix, false);
    const [one, two] = [await replica(prefix, true), await replica(prefix, true)];
    const t = task('person:alice', 0);
    await dead.store.create(t, 10);
    // A live replica's task is left alone, however long it runs.
    const live = task('person:alice', 1);
    await one.store.create(live, 10);
    await Promise.all([one.store.sweepOrphans(), two.store.sweepOrphans(), one.store.sweepOrphans()]);
    const ended = await two.store.get(t.taskId, 'person:alice');
    expect(ended?.status).to.equal('failed');
    expect(ended?.statusMessage).to.equal(`replica ${dead.liveness.id} ended during the task`);
    expect(JSON.stringify(ended?.result)).to.include(`replica ${dead.liveness.id} ended during the task`);
    expect((await two.store.get(live.taskId, 'person:alice'))?.status).to.equal('working');
    // Ended once: a second end would have moved lastUpdatedAt; a later finish by anyone changes nothing.
    expect(await dead.store.finish(t.taskId, 'completed', { content: [] })).to.equal(undefined);
    expect((await one.store.get(t.taskId, 'person:alice'))?.lastUpdatedAt).to.equal(ended?.lastUpdatedAt);
    // No longer unfinished: the next sweeps do not look at it again.
    expect(await connections[0]!.client.hkeys(`${prefix}tasks:running`)).to.deep.equal([live.taskId]);
  });

  it("a dead replica's workflow task waits while its run is still running, then ends as the run's record says", async () => {
    const prefix = `dead-${++round}:`;
    const dead = await replica(prefix, false);
    const one = await replica(prefix, true);
    const t = task('person:alice', 0, { kind: 'workflow', metaTool: 'call_tool', tool: 'workflow_w' });
    await dead.store.create(t, 10);
    const key = `${prefix}executions:record:${t.taskId}`;
    const run = { execution_id: t.taskId, workflow_name: 'w', status: 'running', started_at: new Date().toISOString(), steps: [] };
    await connections[0]!.client.set(key, JSON.stringify(run));
    await one.store.sweepOrphans();
    expect((await one.store.get(t.taskId, 'person:alice'))?.status).to.equal('working');
    await connections[0]!.client.set(key, JSON.stringify({ ...run, status: 'failed', error: `replica ${dead.liveness.id} ended during the run` }));
    await one.store.sweepOrphans();
    const ended = await one.store.get(t.taskId, 'person:alice');
    expect(ended?.status).to.equal('failed');
    expect(ended?.statusMessage).to.equal(`replica ${dead.liveness.id} ended during the run`);
  });
});
