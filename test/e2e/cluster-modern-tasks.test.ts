/**
 * The tasks extension in cluster mode (issue 40 item 7): a 2026-07-28 client has no session,
 * so its task must be found by whichever replica its next request reaches. Two replicas on one
 * redis-server: the task is created through replica A, polled with tasks/get through replica B
 * (the record is in Redis before the CreateTaskResult is sent), and a tasks/cancel sent to B
 * stops the call running on A (the broadcast).
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { callTool, connectHttp, eventually, makeConfigDir, meta, ROOT, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';
import { ModernTaskClient, type Task } from '../support/modern-tasks-client.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';

const TASKS = join(ROOT, 'dist/test/fixtures/task-server.js');

describe('cluster mode: a 2026-07-28 task created on one replica is polled and cancelled on the other', function () {
  this.timeout(120_000);
  let redis: RedisServer;
  let a: Running;
  let b: Running;
  let onA: ModernTaskClient;
  let onB: ModernTaskClient;

  before(async function () {
    redis = await startRedisOrSkip(this);
    const dir = await makeConfigDir({
      'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n      connectTimeoutSeconds: 10\n`,
      'mcpservers/tasks.yaml': stdioServer('tasks', TASKS),
    });
    const started = await Promise.all([0, 1].map(() => startSwitchboard({}, { configDir: dir, startTimeoutMs: 60_000 })));
    a = started[0]!;
    b = started[1]!;
    onA = await ModernTaskClient.open(a.url);
    onB = await ModernTaskClient.open(b.url);
    // The tasks run on A: its upstream is connected before the first.
    const legacy = await connectHttp(a.url);
    await eventually(
      () => meta<{ servers: { state: string }[] }>(legacy, 'list_servers'),
      (l) => l.servers.some((s) => s.state === 'running' || s.state === 'connected'),
      20_000,
    );
    await legacy.close();
  });

  after(async () => {
    await onA?.close().catch(() => undefined);
    await onB?.close().catch(() => undefined);
    await Promise.all([a, b].map((r) => r?.stop()));
    await redis?.stop();
  });

  /** call_tool of `tool` through replica A, as a task. */
  async function createdOnA(tool: string, args: Record<string, unknown>): Promise<Task> {
    const r = await onA.callTool(tool, args);
    expect((r.result as Task | undefined)?.resultType, JSON.stringify(r)).to.equal('task');
    return r.result as Task;
  }

  it('created through A, polled through B to its result; B reads it at once', async () => {
    const t = await createdOnA('x_tasks_slow', { ms: 400 });
    // Durably created before the answer: the other replica's first tasks/get finds it.
    const first = await onB.get(t.taskId);
    expect(first.taskId).to.equal(t.taskId);
    expect(['working', 'completed']).to.include(first.status);
    const done = await onB.settled(t.taskId);
    expect(done.status).to.equal('completed');
    expect(done.result!.content[0]!.text).to.equal('slow done after 400 ms');
  });

  type Legacy = Awaited<ReturnType<typeof connectHttp>>;

  /** The upstream's events (work started, stopped by a cancel, done), read through A. */
  async function upstreamEvents(legacyA: Legacy): Promise<string[]> {
    return (JSON.parse(text(await callTool(legacyA, 'x_tasks_events'))) as { events: string[] }).events;
  }

  /** Until the upstream's events satisfy `ok`. */
  function untilEvents(legacyA: Legacy, ok: (events: string[]) => boolean, ms: number): Promise<string[]> {
    return eventually(() => upstreamEvents(legacyA), ok, ms);
  }

  /** tasks/cancel of `t` through B: acknowledged, read as cancelled through A, and the upstream's `label` work says it was cancelled. */
  async function cancelThroughB(t: Task, legacyA: Legacy, label: string, withinMs: number): Promise<void> {
    const ack = await onB.request('tasks/cancel', { taskId: t.taskId });
    expect(ack.result!.resultType).to.equal('complete');
    expect((await onA.get(t.taskId)).status).to.equal('cancelled');
    await untilEvents(legacyA, (e) => e.some((x) => x.startsWith(`cancelled ${label} `)), withinMs);
  }

  it('cancelled through B while it runs on A: B acknowledges, A reads cancelled, and the upstream work on A stops', async () => {
    const legacyA = await connectHttp(a.url);
    try {
      // The first test's task started too: this one's start is the next.
      const before = (await upstreamEvents(legacyA)).filter((x) => x.startsWith('started slow ')).length;
      const t = await createdOnA('x_tasks_slow', { ms: 30_000 });
      await untilEvents(legacyA, (e) => e.filter((x) => x.startsWith('started slow ')).length > before, 10_000);
      await cancelThroughB(t, legacyA, 'slow', 10_000);
    } finally {
      await legacyA.close();
    }
  });

  it('cancelled through B while the upstream on A is still creating its task: the task it names afterwards is cancelled there', async () => {
    const legacyA = await connectHttp(a.url);
    try {
      // The upstream starts its work, then takes 3 s to answer that it made the task.
      const t = await createdOnA('x_tasks_slow_to_create', { ms: 30_000, answerAfterMs: 3_000 });
      await untilEvents(legacyA, (e) => e.some((x) => x.startsWith('started slow_to_create ')), 10_000);
      // Aborting the creating request left this work running its 30 s.
      await cancelThroughB(t, legacyA, 'slow_to_create', 15_000);
    } finally {
      await legacyA.close();
    }
  });
});
