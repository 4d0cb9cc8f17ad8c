/**
 * Redis restarted without its data (no persistence: `--save "" --appendonly no`, the test
 * server's own setting) under live sessions: the replicas holding the sessions, a task and a
 * running workflow write their records back (sessions at the expiry push-back, the task and
 * the run at their next change), so calls go on past the push-back on every replica, and the
 * task and the run are read through any replica. A session deleted after the restart is
 * still gone everywhere. Real processes: a redis-server, three replicas behind HAProxy
 * (round robin, no stickiness), the test MCP server.
 *
 * The push-back interval is a quarter of `sessionIdleMinutes` (transport-streamable-http):
 * 0.2 minutes here, so a push-back every 3 s instead of every minute.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, eventually, makeConfigDir, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { ensureHaproxy, startHaproxy, type RunningHaproxy } from '../support/haproxy.js';
import { redisServerMissing, startRedis, type RedisServer } from '../support/redis-server.js';
import { pingThenWait } from '../fixtures/workflows.js';

/** Long enough to outlast the restart, short enough for a test. */
const SLOW_MS = 6000;
/** A quarter of sessionIdleMinutes 0.2 (12 s): how often a replica pushes a session's expiry back. */
const PUSH_BACK_MS = 3000;

interface Balanced {
  client: Client;
  transport: StreamableHTTPClientTransport;
  calls: number;
  failures: string[];
}

async function balanced(url: string): Promise<Balanced> {
  const client = new Client({ name: 'restart', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport, calls: 0, failures: [] };
}

/** A tools/call on one replica for a session, as any client could send it. */
function rawPing(url: string, sessionId: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'call_tool', arguments: { name: 'x_tools_ping' } } }),
  });
}

describe('cluster mode: Redis restarted without its data under live sessions (redis-server, HAProxy, three replicas)', function () {
  this.timeout(240_000);
  let redis: RedisServer;
  let probe: Redis;
  const replicas: Running[] = [];
  let lb: RunningHaproxy;
  const clients: Balanced[] = [];

  before(async function () {
    const missing = redisServerMissing() ?? ensureHaproxy();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
    redis = await startRedis();
    probe = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    // Its connection drops with the restart and comes back by itself.
    probe.on('error', () => undefined);
    const configDir = await makeConfigDir({
      'config.yaml': [
        'aggregator:',
        '  cluster:',
        '    redis:',
        `      url: ${redis.url}`,
        'plugins:',
        '  transport-streamable-http:',
        '    options:',
        '      sessionIdleMinutes: 0.2',
        '',
      ].join('\n'),
      'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER),
      'workflows/ping-then-wait.yaml': pingThenWait(SLOW_MS),
    });
    for (let i = 0; i < 3; i++) replicas.push(await startSwitchboard({}, { configDir }));
    lb = await startHaproxy(replicas.map((r) => r.port));
  });

  after(async () => {
    for (const c of clients) await c.client.close().catch(() => undefined);
    await lb?.stop();
    await Promise.all(replicas.map((r) => r.stop()));
    probe?.disconnect();
    await redis?.stop();
  });

  it('sessions, a task and a running workflow are written back from the replicas; a session deleted afterwards is gone everywhere', async () => {
    for (let i = 0; i < 4; i++) clients.push(await balanced(lb.url));
    // Each session calls in a loop through the balancer: its requests go round the three replicas.
    // At most one call per PACE_MS a session (up to 400 a second together, one always near in
    // flight): the load lasts a set time past the restart, and unpaced it only burns CPU.
    let stopping = false;
    const PACE_MS = 10;
    const loop = async (c: Balanced): Promise<void> => {
      while (!stopping) {
        const paced = new Promise((resolve) => setTimeout(resolve, PACE_MS));
        const r = await callTool(c.client, 'x_tools_ping').catch((err: unknown) => ({
          isError: true,
          content: [{ type: 'text' as const, text: String(err) }],
        }));
        c.calls++;
        if (r.isError || !text(r).includes('pong')) c.failures.push(text(r));
        await paced;
      }
    };
    const loops = clients.map(loop);
    let started: { taskId: string; run: Promise<CallToolResult> };
    try {
      started = await restartUnderLoad();
    } finally {
      // Stopped however the load ended, so that a failure does not leave clients calling.
      stopping = true;
      await Promise.all(loops);
    }
    const { taskId, run } = started;

    async function restartUnderLoad(): Promise<{ taskId: string; run: Promise<CallToolResult> }> {
      const ids = clients.map((c) => c.transport.sessionId!);
      // Every replica holds a copy of every session before Redis goes.
      await eventually(
        () => Promise.resolve(clients.map((c) => c.calls)),
        (calls) => calls.every((n) => n >= 9),
        30_000,
        50,
      );

      // A task and a workflow run, in progress when Redis goes.
      const taskId = (
        await clients[0]!.client.request(
          { method: 'tools/call', params: { name: 'call_tool', arguments: { name: 'x_tools_slow', arguments: { ms: SLOW_MS } }, task: { ttl: 120_000 } } },
          CreateTaskResultSchema,
        )
      ).task.taskId;
      const run = callTool(clients[1]!.client, 'workflow_ping-then-wait');
      await eventually(
        () => probe.zcard('switchboard:executions:index'),
        (n) => n === 1,
        30_000,
        50,
      );
      expect(await probe.exists(`switchboard:tasks:task:${taskId}`)).to.equal(1);

      // A key no replica knows of: gone after the restart proves the data went.
      await probe.set('sentinel', '1');
      await redis.restart();
      const restartedAt = Date.now();
      expect(await probe.exists('sentinel'), 'Redis came back without its data').to.equal(0);

      // Each session's record is written back by a replica holding it, at its next push-back.
      await eventually(
        async () => Promise.all(ids.map((id) => probe.exists(`switchboard:session:${id}`))),
        (found) => found.every((n) => n === 1),
        30_000,
        100,
      );
      const restoredMs = Date.now() - restartedAt;
      // And the calls go on, on every replica, well past the push-back.
      const after = clients.map((c) => c.calls);
      await eventually(
        () => Promise.resolve(clients.map((c, i) => c.calls - after[i]!)),
        (more) => more.every((n) => n >= 30) && Date.now() - restartedAt >= 3 * PUSH_BACK_MS,
        60_000,
        50,
      );
      console.log(`      records written back ${restoredMs} ms after the restart; ${clients.reduce((n, c) => n + c.calls, 0)} calls`);
      for (const c of clients) expect(c.failures, `failed calls of session ${c.transport.sessionId}`).to.deep.equal([]);
      return { taskId, run };
    }

    // The task's next change (its end) writes it back: its result is read through the balancer.
    const result = await clients[0]!.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(text(result)).to.equal(`waited ${SLOW_MS}`);
    // The run's next change (its second step's end) writes it back: every replica reads it.
    const done = await run;
    expect(done.isError ?? false, text(done)).to.equal(false);
    const executionId = (done.structuredContent as { execution_id: string }).execution_id;
    for (let i = 0; i < 3; i++) {
      const got = await callTool(clients[2]!.client, 'core_workflow_execution_get', { execution_id: executionId });
      expect(got.isError ?? false, text(got)).to.equal(false);
      expect((got.structuredContent as { status: string; steps: { status: string }[] }).status).to.equal('completed');
    }

    // Deleted after the restart: no replica writes it back, each answers 404.
    const gone = clients[3]!;
    const goneId = gone.transport.sessionId!;
    await gone.transport.terminateSession();
    for (const r of replicas) {
      await eventually(
        async () => {
          const res = await rawPing(r.url, goneId);
          await res.text();
          return res.status;
        },
        (status) => status === 404,
        10_000,
        100,
      );
    }
    expect(await probe.exists(`switchboard:session:${goneId}`)).to.equal(0);
    expect(await probe.exists(`switchboard:session-ended:${goneId}`)).to.equal(1);
  });
});
