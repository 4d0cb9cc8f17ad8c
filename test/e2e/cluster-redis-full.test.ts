/**
 * Redis full (`maxmemory` reached under `noeviction`, as docs/scale-out.md recommends): a
 * replica never hands out a session it could not record (initialize answers 503
 * SHARED_STATE_UNAVAILABLE, no session id), sessions it holds go on, events and a workflow
 * run recorded meanwhile wait on the replica and are written, in order, once Redis takes
 * writes again. Real processes: a redis-server with a `maxmemory` below what it holds, two
 * replicas, the test MCP server.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, eventually, makeConfigDir, postInitialize, type Running, startSwitchboard, stdioServer, TEST_SERVER, text } from '../support/harness.js';
import { health } from '../support/cluster.js';
import type { EventPage } from '../support/event-page.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';

const TWO_PINGS = `apiVersion: switchboard.dev/v1alpha1
kind: Workflow
metadata: {name: two-pings}
spec:
  steps:
    - {id: first, tool: x_tools_ping}
    - {id: second, tool: x_tools_ping}
`;

async function connect(url: string): Promise<{ client: Client; sessionId: string }> {
  const client = new Client({ name: 'full', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, sessionId: transport.sessionId! };
}

/** A tools/call on one replica for a session it may never have seen. */
function rawPing(url: string, sessionId: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'call_tool', arguments: { name: 'x_tools_ping' } } }),
  });
}

describe('cluster mode: Redis full (noeviction): refused loudly, kept until it takes writes again', function () {
  this.timeout(180_000);
  let redis: RedisServer;
  let probe: Redis;
  let a: Running;
  let b: Running;
  const clients: Client[] = [];

  /**
   * Redis past its `maxmemory` under `noeviction`: every write that needs memory is refused
   * (OOM), reads are answered. A limit below what it holds keeps it there, where a Redis filled
   * to its limit drifts back under it as buffers shrink and a key expires.
   */
  async function fill(): Promise<void> {
    await probe.config('SET', 'maxmemory-policy', 'noeviction');
    await probe.config('SET', 'maxmemory', '1');
    const refused = await probe.set('probe', 'x').then(
      () => undefined,
      (err: unknown) => (err as Error).message,
    );
    expect(refused).to.match(/^OOM/);
  }

  /** Memory comes back: Redis takes writes again. */
  async function free(): Promise<void> {
    await probe.config('SET', 'maxmemory', '0');
  }

  before(async function () {
    redis = await startRedisOrSkip(this);
    probe = new Redis(redis.url);
    const dir = await makeConfigDir({
      'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n      connectTimeoutSeconds: 10\n`,
      'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER),
      'workflows/two-pings.yaml': TWO_PINGS,
    });
    a = await startSwitchboard({}, { configDir: dir });
    b = await startSwitchboard({}, { configDir: dir });
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await b?.stop();
    await a?.stop();
    probe?.disconnect();
    await redis?.stop();
  });

  it('initialize is refused with 503 SHARED_STATE_UNAVAILABLE and no session id while Redis is full; held sessions and a workflow run go on; freed, the run and its events are there in order and new sessions work on every replica', async () => {
    const held = await connect(a.url);
    const onB = await connect(b.url);
    clients.push(held.client, onB.client);

    await fill();
    const filledAt = Date.now();
    try {
      // Never a session the other replicas cannot find.
      const refused = await postInitialize(a.url);
      expect(refused.status).to.equal(503);
      expect(refused.headers.get('mcp-session-id')).to.equal(null);
      expect(refused.headers.get('retry-after')).to.equal('1');
      const body = (await refused.json()) as { id: number; error: { code: number; message: string; data: { code: string; reason: string } } };
      expect(body.id).to.equal(1);
      expect(body.error.data.code).to.equal('SHARED_STATE_UNAVAILABLE');
      expect(body.error.message).to.match(/OOM/);

      // A session this replica holds needs nothing written: it goes on.
      expect(text(await callTool(held.client, 'x_tools_ping'))).to.include('pong');
      // A run while full finishes as it would; its record waits on the replica.
      const run = await callTool(held.client, 'workflow_two-pings');
      expect(run.isError ?? false, text(run)).to.equal(false);
      const executionId = (run.structuredContent as { execution_id: string }).execution_id;
      expect(executionId).to.be.a('string');
      // The replica that ran it reads its own waiting record.
      const here = await callTool(held.client, 'core_workflow_execution_get', { execution_id: executionId });
      expect((here.structuredContent as { status: string }).status).to.equal('completed');

      // Said where operators look: /health is degraded, naming the refusal.
      const degraded = await eventually(
        () => health(a),
        (h) => h.status === 'degraded',
        20_000,
        200,
      );
      expect(degraded.reason).to.match(/OOM/);
      const degradedMs = Date.now() - filledAt;

      await free();
      const freedAt = Date.now();

      // Written once Redis takes writes again: another replica reads the run and its events, in order.
      const stored = await eventually(
        () => callTool(onB.client, 'core_workflow_execution_get', { execution_id: executionId }),
        (r) => !r.isError && (r.structuredContent as { status?: string }).status === 'completed',
        20_000,
        200,
      );
      const writtenMs = Date.now() - freedAt;
      expect((stored.structuredContent as { steps: { status: string }[] }).steps.map((s) => s.status)).to.deep.equal(['completed', 'completed']);
      const page = await eventually(
        async () =>
          (await callTool(onB.client, 'core_events', { resource_type: 'WorkflowExecution', resource_name: executionId, limit: 50 }))
            .structuredContent as unknown as EventPage,
        (p) => p.events.some((e) => e.reason === 'WorkflowExecutionCompleted'),
        20_000,
        200,
      );
      const inOrder = [...page.events].sort((x, y) => x.id - y.id).map((e) => e.reason);
      expect(inOrder).to.deep.equal([
        'WorkflowExecutionStarted',
        'WorkflowStepStarted',
        'WorkflowStepCompleted',
        'WorkflowStepStarted',
        'WorkflowStepCompleted',
        'WorkflowExecutionCompleted',
      ]);
      const times = [...page.events].sort((x, y) => x.id - y.id).map((e) => e.time);
      expect(times).to.deep.equal([...times].sort());

      // A new session is recorded again, and served by the other replica too.
      const fresh = await connect(a.url);
      clients.push(fresh.client);
      expect(text(await callTool(fresh.client, 'x_tools_ping'))).to.include('pong');
      const elsewhere = await rawPing(b.url, fresh.sessionId);
      expect(elsewhere.status).to.equal(200);
      expect(await elsewhere.text()).to.include('pong');
      await eventually(
        () => health(a),
        (h) => h.status === 'ok',
        20_000,
        200,
      );
      console.log(
        `      /health degraded ${degradedMs} ms after Redis filled; the run read on the other replica ${writtenMs} ms and /health ok ${Date.now() - freedAt} ms after memory came back`,
      );
    } finally {
      await free();
    }
  });
});
