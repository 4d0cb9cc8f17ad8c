/**
 * Tasks for 2026-07-28 clients (the `io.modelcontextprotocol/tasks` extension) and where they
 * meet 2025-11-25 tasks. One Switchboard; upstreams of both eras: a legacy (v1 SDK) server that
 * runs some tools as tasks of its own (test/fixtures/task-server.ts) and others plainly, and a
 * 2026-07-28-only server on the v2 SDK (test/fixtures/modern-server.ts). The modern client is
 * the v2 SDK's transport (test/support/modern-tasks-client.ts), the legacy one the v1 Client.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, eventually, meta, MODERN_SERVER, ROOT, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';
import { ModernTaskClient, TASKS_EXTENSION, type Task } from '../support/modern-tasks-client.js';

const TASKS = join(ROOT, 'dist/test/fixtures/task-server.js');

interface Upstream {
  events: string[];
  polls: Record<string, number>;
}

describe('tasks for 2026-07-28 clients (the tasks extension), crossing 2025-11-25 tasks', function () {
  this.timeout(60_000);
  let sb: Running;
  let modern: ModernTaskClient;
  let legacy: Client;

  before(async () => {
    sb = await startSwitchboard({
      'mcpservers/tasks.yaml': stdioServer('tasks', TASKS),
      'mcpservers/mio.yaml': stdioServer('mio', MODERN_SERVER, ['stdio']),
    });
    modern = await ModernTaskClient.open(sb.url);
    legacy = new Client({ name: 'legacy-task-client', version: '1' });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(sb.url)));
    // Both upstreams' tools are in the catalogue before the first call.
    await eventually(
      () => meta<{ servers: { state: string }[] }>(legacy, 'list_servers'),
      (l) => l.servers.filter((s) => s.state === 'running' || s.state === 'connected').length === 2,
      20_000,
    );
  });

  after(async () => {
    await modern?.close().catch(() => undefined);
    await legacy?.close().catch(() => undefined);
    await sb?.stop();
  });

  const upstream = async (): Promise<Upstream> => JSON.parse(text(await callTool(legacy, 'x_tasks_events'))) as Upstream;

  /** A task created by call_tool of `tool`: its CreateTaskResult. */
  async function created(tool: string, args: Record<string, unknown> = {}): Promise<Task> {
    const r = await modern.callTool(tool, args);
    expect(r.error, JSON.stringify(r.error)).to.equal(undefined);
    const t = r.result as Task;
    expect(t.resultType).to.equal('task');
    return t;
  }

  it('server/discover announces the extension (not a tasks capability); tools/list carries no execution', async () => {
    const d = (await modern.request('server/discover')).result as { capabilities: Record<string, unknown> };
    expect(d.capabilities.extensions).to.deep.equal({ [TASKS_EXTENSION]: {} });
    expect(d.capabilities).to.not.have.property('tasks');
    const tools = (await modern.request('tools/list')).result as { tools: Record<string, unknown>[] };
    expect(tools.tools.map((t) => t.name)).to.include('call_tool');
    for (const t of tools.tools) expect(t, String(t.name)).to.not.have.property('execution');
  });

  it("a task on a legacy upstream's task tool: a flat CreateTaskResult at once, run upstream as a legacy task, polled to its result", async () => {
    const before = (await upstream()).events.length;
    const t = await created('x_tasks_slow', { ms: 300 });
    expect(t.status).to.equal('working');
    expect(t).to.not.have.any.keys('task', 'ttl', 'pollInterval', 'result', 'requestState');
    expect(Number.isInteger(t.ttlMs) && t.ttlMs! > 0, String(t.ttlMs)).to.equal(true);
    expect(Number.isInteger(t.pollIntervalMs) && t.pollIntervalMs! > 0).to.equal(true);
    const done = await modern.settled(t.taskId);
    expect(done.resultType).to.equal('complete');
    expect(done.status).to.equal('completed');
    expect(done.result!.content[0]!.text).to.equal('slow done after 300 ms');
    expect(done.result!._meta ?? {}).to.not.have.property('io.modelcontextprotocol/related-task');
    // Switchboard followed the upstream's own task (tasks/get upstream), under an id of its own.
    const u = await upstream();
    const upstreamId = u.events
      .slice(before)
      .find((e) => e.startsWith('finished slow '))!
      .split(' ')[2]!;
    expect(u.polls[upstreamId]).to.be.greaterThan(0);
    expect(t.taskId).to.not.equal(upstreamId);
  });

  it('a task on a legacy tool with no task support: the upstream call runs plainly inside the task', async () => {
    const done = await modern.settled((await created('x_tasks_plain_echo', { text: 'hi' })).taskId);
    expect(done.status).to.equal('completed');
    expect(done.result!.content[0]!.text).to.equal('plain: hi');
  });

  it('a tool error ends the task completed with isError (failed is for JSON-RPC errors)', async () => {
    const done = await modern.settled((await created('x_tasks_nonexistent_tool')).taskId);
    expect(done.status).to.equal('completed');
    expect(done.result!.isError).to.equal(true);
  });

  it('without the extension in the request: a direct result, and tasks/* are -32021 naming the extension', async () => {
    const r = await modern.callTool('x_tasks_plain_echo', { text: 'now' }, { tasks: false });
    expect(r.result!.resultType).to.equal('complete');
    expect(JSON.stringify(r.result!.content)).to.include('plain: now');
    const t = await created('x_tasks_plain_echo', { text: 'later' });
    for (const [method, params] of [
      ['tasks/get', { taskId: t.taskId }],
      ['tasks/update', { taskId: t.taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId: t.taskId }],
    ] as const) {
      const e = (await modern.request(method, params, { tasks: false })).error!;
      expect(e.code, method).to.equal(-32021);
      expect(e.data, method).to.deep.equal({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    }
  });

  it('tasks/cancel acknowledges, the task reads cancelled and the upstream task stops; a second cancel is the same ack', async () => {
    const before = (await upstream()).events.length;
    const t = await created('x_tasks_slow', { ms: 30_000 });
    await eventually(upstream, (u) => u.events.slice(before).some((e) => e.startsWith('started slow ')), 10_000);
    const ack = await modern.request('tasks/cancel', { taskId: t.taskId });
    expect(ack.result).to.deep.equal({ resultType: 'complete', _meta: ack.result!._meta });
    expect((await modern.get(t.taskId)).status).to.equal('cancelled');
    await eventually(upstream, (u) => u.events.slice(before).some((e) => e.startsWith('cancelled slow ')), 10_000);
    expect((await modern.request('tasks/cancel', { taskId: t.taskId })).result!.resultType).to.equal('complete');
  });

  it('tasks/update is acknowledged for a task of the caller (nothing is ever asked through inputRequests); tasks/list and tasks/result are not served', async () => {
    const t = await created('x_tasks_slow', { ms: 200 });
    const ack = await modern.request('tasks/update', { taskId: t.taskId, inputResponses: { q1: { action: 'accept', content: {} } } });
    expect(ack.result!.resultType).to.equal('complete');
    expect(ack.result).to.not.have.any.keys('taskId', 'status');
    expect((await modern.settled(t.taskId)).status).to.equal('completed');
    for (const method of ['tasks/list', 'tasks/result']) {
      const e = (await modern.request(method, method === 'tasks/result' ? { taskId: t.taskId } : {})).error!;
      expect(e.code, method).to.equal(-32601);
    }
  });

  it('a legacy client asks a task of a tool of a 2026-07-28 upstream: Switchboard runs the task, calling the upstream plainly', async () => {
    const stream = legacy.experimental.tasks.callToolStream(
      { name: 'call_tool', arguments: { name: 'x_mio_echo', arguments: { text: 'across the eras' } } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    let taskId = '';
    let result: CallToolResult | undefined;
    for await (const m of stream) {
      if (m.type === 'taskCreated') taskId = m.task.taskId;
      else if (m.type === 'result') result = m.result;
      else if (m.type === 'error') throw m.error;
    }
    expect(taskId).to.not.equal('');
    expect(text(result!)).to.equal('across the eras');
  });
});
