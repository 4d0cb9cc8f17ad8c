/**
 * The event log and the execution history shared through Redis, with real processes: a real
 * redis-server and three Switchboard replicas over one configuration directory. core_events
 * answers the same ordered history on every replica; a follower on one replica sees what
 * another recorded, whether it follows within its call or for its session; a workflow run on A is read on C while it runs and once it is done; with
 * Redis stopped the reads answer SHARED_STATE_UNAVAILABLE and nothing crashes.
 */
import { expect } from 'chai';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, errorCode, eventually, makeConfigDir, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';
import { pingThenWait } from '../fixtures/workflows.js';
import { type EventSeen as Ev, type EventPage as Page } from '../support/event-page.js';

interface Execution {
  execution_id: string;
  status: string;
  steps: { id: string; status: string }[];
}

const SLOW_RUN = pingThenWait(8_000);

describe('cluster mode: events and executions shared through Redis', function () {
  this.timeout(180_000);
  let redis: RedisServer;
  let dir: string;
  const replicas: Running[] = [];
  const clients: Client[] = [];
  let a: Client;
  let b: Client;
  let c: Client;

  before(async function () {
    this.timeout(15 * 60_000);
    redis = await startRedisOrSkip(this);
    dir = await makeConfigDir({
      'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n      connectTimeoutSeconds: 10\n`,
      'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER),
      'workflows/ping-then-wait.yaml': SLOW_RUN,
    });
    for (let i = 0; i < 3; i++) replicas.push(await startSwitchboard({}, { configDir: dir }));
    for (const r of replicas) clients.push(await connectHttp(r.url));
    [a, b, c] = clients as [Client, Client, Client];
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const r of replicas) await r.stop();
    await redis?.stop();
  });

  const events = async (client: Client, args: Record<string, unknown> = {}): Promise<Page> => {
    const r = await callTool(client, 'core_events', { limit: 1000, ...args });
    expect(r.isError, JSON.stringify(r.content)).to.not.equal(true);
    return r.structuredContent as unknown as Page;
  };

  it('core_events answers the same ordered history on every replica, with each replica’s events in it', async () => {
    // Each replica recorded its own server start; all three are in one history.
    const onA = await eventually(
      () => events(a, { resource_name: 'tools' }),
      (p) => p.events.filter((e) => e.reason === 'MCPServerStarted').length === 3,
      30_000,
      200,
    );
    const [onB, onC] = [await events(b, { resource_name: 'tools' }), await events(c, { resource_name: 'tools' })];
    expect(onB).to.deep.equal(onA);
    expect(onC).to.deep.equal(onA);
    for (let i = 1; i < onA.events.length; i++) expect(onA.events[i - 1]!.id).to.be.greaterThan(onA.events[i]!.id);
  });

  it('an event caused on A is returned by core_events on B, in the same place as on A', async () => {
    await callTool(a, 'x_tools_crash', {}).catch(() => undefined);
    const onB = await eventually(
      () => events(b, { resource_name: 'tools', limit: 20 }),
      (p) => p.events.some((e) => e.reason === 'MCPServerFailed'),
      30_000,
      200,
    );
    const onA = await events(a, { resource_name: 'tools', limit: 20 });
    const failed = onB.events.find((e) => e.reason === 'MCPServerFailed')!;
    expect(onA.events.find((e) => e.id === failed.id)).to.deep.equal(failed);
    expect(onA.events.map((e) => e.id).filter((id) => id <= failed.id)).to.deep.equal(onB.events.map((e) => e.id).filter((id) => id <= failed.id));
    // The next test runs a workflow on A: its server is back first (on a loaded machine the crash may still be in recovery).
    await eventually(
      () => events(a, { resource_name: 'tools', limit: 20 }),
      (p) => p.events.some((e) => e.reason === 'MCPServerRecoverySucceeded' && e.id > failed.id),
      30_000,
      200,
    );
  });

  it('a follow on B sees the events of a run made on A, and a run on A is read on C while it runs and once done', async () => {
    const follower = await connectHttp(replicas[1]!.url);
    clients.push(follower);
    const seen: Ev[] = [];
    follower.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      if (n.params.logger === 'switchboard.events') seen.push(n.params.data as Ev);
    });
    const following = callTool(follower, 'core_events', { follow: true, follow_seconds: 120, limit: 1 });
    // The follow is under way once it has seen something happen elsewhere: a server crashed on C.
    await eventually(
      async () => {
        await callTool(c, 'x_tools_crash', {}).catch(() => undefined);
        return seen.length;
      },
      (n) => n > 0,
      60_000,
      2000,
    );

    const run = callTool(a, 'workflow_ping-then-wait', {});
    const started = await eventually(
      () => callTool(c, 'core_workflow_execution_list', { workflow_name: 'ping-then-wait' }),
      (r) => (r.structuredContent as { total: number } | undefined)?.total === 1,
      30_000,
      100,
    );
    const id = (started.structuredContent as { executions: Execution[] }).executions[0]!.execution_id;
    const running = await eventually(
      async () => (await callTool(c, 'core_workflow_execution_get', { execution_id: id })).structuredContent as unknown as Execution,
      (r) => r.steps.find((s) => s.id === 'one')?.status === 'completed',
      30_000,
      100,
    );
    expect(running.status).to.equal('running');

    const done = await run;
    expect(done.isError, JSON.stringify(done.content)).to.not.equal(true);
    // Stored before A answered: C reads the finished record at once.
    const onC = (await callTool(c, 'core_workflow_execution_get', { execution_id: id })).structuredContent as unknown as Execution;
    const onA = (await callTool(a, 'core_workflow_execution_get', { execution_id: id })).structuredContent as unknown as Execution;
    expect(onC.status).to.equal('completed');
    expect(onC).to.deep.equal(onA);

    await eventually(
      () => Promise.resolve(seen.filter((e) => e.execution_id === id).map((e) => e.reason)),
      (reasons) => reasons.includes('WorkflowExecutionCompleted'),
      30_000,
      100,
    );
    expect(seen.filter((e) => e.execution_id === id).map((e) => e.reason)).to.deep.equal([
      'WorkflowExecutionStarted',
      'WorkflowStepStarted',
      'WorkflowStepCompleted',
      'WorkflowStepStarted',
      'WorkflowStepCompleted',
      'WorkflowExecutionCompleted',
    ]);
    await follower.close();
    await following.catch(() => undefined);
  });

  it('a session follow (follow without follow_seconds) on B answers at once and is pushed what A and C record', async () => {
    const follower = await connectHttp(replicas[1]!.url);
    clients.push(follower);
    const seen: Ev[] = [];
    follower.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      if (n.params.logger === 'switchboard.events') seen.push(n.params.data as Ev);
    });
    const answer = (await callTool(follower, 'core_events', { follow: true, resourceType: 'Workflow', resourceName: 'followed-here' }))
      .structuredContent as unknown as {
      following: string;
      total: number;
    };
    expect(answer).to.deep.include({ following: 'session', total: 0 });
    // The session's stream opens on its own after initialize: A validates until one event has come through.
    const check = (client: Client) => callTool(client, 'core_workflow_validate', { name: 'followed-here', steps: [{ id: 'p', tool: 'x_tools_ping' }] });
    await eventually(
      async () => {
        await check(a);
        return seen.length;
      },
      (n) => n > 0,
      60_000,
      500,
    );
    const before = seen.length;
    await check(c);
    await eventually(
      () => Promise.resolve(seen.length),
      (n) => n > before,
      60_000,
      100,
    );
    expect(seen.every((e) => e.reason === 'WorkflowValidationSucceeded' && e.resource.name === 'followed-here')).to.equal(true);
    // Each event once, whichever replica recorded it.
    expect(new Set(seen.map((e) => e.id)).size).to.equal(seen.length);
    await follower.close();
  });

  it('with Redis stopped, reads answer SHARED_STATE_UNAVAILABLE and no replica crashes; once back, they answer again', async () => {
    await events(b, { limit: 5 });
    await redis.stop();
    const refused = await eventually(
      () => callTool(b, 'core_events', { limit: 5 }),
      (r) => r.isError === true,
      30_000,
      200,
    );
    expect(errorCode(refused)).to.equal('SHARED_STATE_UNAVAILABLE');
    const execs = await callTool(c, 'core_workflow_execution_list', {});
    expect(errorCode(execs)).to.equal('SHARED_STATE_UNAVAILABLE');
    await redis.restart();
    // The test's Redis keeps nothing on disk: what it held is gone (docs/scale-out.md), and the log starts again.
    await eventually(
      () => callTool(b, 'core_events', { limit: 5 }),
      (r) => r.isError !== true,
      30_000,
      200,
    );
    for (const r of replicas) expect(r.proc.exitCode).to.equal(null);
  });
});
