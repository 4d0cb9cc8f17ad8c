/**
 * Switchboard as a task server (MCP 2025-11-25 tasks), through the real protocol with the
 * SDK client's experimental tasks API: call_tool, call_tools and workflows run as tasks
 * against real upstreams (test-server's slow tool, the asking server's elicitation), owned by
 * the signed-in person (OAuth) or, without identity, by the session; fetched after a
 * reconnect and after a restart; cancelled; expired; refused to anyone else.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  TaskStatusNotificationSchema,
  type CallToolResult,
  type CreateTaskResult,
} from '@modelcontextprotocol/sdk/types.js';
import { connectHttp, eventually, makeConfigDir, meta, ROOT, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { pingThenWait } from '../fixtures/workflows.js';
import { mcpClient, registerClient, signIn, startProtected, type OAuthSetup } from '../support/oauth-setup.js';

const ASKING = join(ROOT, 'dist/test/fixtures/asking-server.js');
const RELATED = 'io.modelcontextprotocol/related-task';

/** A workflow of `n` steps over the test server's ping. */
function manySteps(n: number): string {
  const steps = Array.from({ length: n }, (_, i) => `    - {id: s${i}, tool: x_tools_ping}`).join('\n');
  return `apiVersion: switchboard.dev/v1alpha1\nkind: Workflow\nmetadata: {name: many}\nspec:\n  steps:\n${steps}\n`;
}

/** tools/call of a meta-tool as a task: the CreateTaskResult, as the SDK client checks it. */
function createTask(client: Client, name: string, args: Record<string, unknown>, ttl = 60_000): Promise<CreateTaskResult> {
  return client.request({ method: 'tools/call', params: { name, arguments: args, task: { ttl } } }, CreateTaskResultSchema);
}

/** The JSON-RPC error code a rejected request carried. */
async function rpcError(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof McpError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected the request to be refused');
}

const result = (client: Client, taskId: string): Promise<CallToolResult> => client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);

describe('tasks as a server: people, reconnects, restarts (OAuth, file mode)', function () {
  this.timeout(120_000);
  const KEY = 'k'.repeat(40);
  const serverYaml = '      storage:\n        persistent: true\n        encryptionKey: ${GRANT_KEY}\n';
  const files = {
    // stderr at info: the test server says there when a call starts and when it is cancelled.
    'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER, [], 'stderrLogLevel: info\n'),
    'mcpservers/ask.yaml': stdioServer('ask', ASKING),
    'workflows/many.yaml': manySteps(200),
    'workflows/ping-then-wait.yaml': pingThenWait(30_000),
  };
  let configDir: string;
  let setup: OAuthSetup;
  let aliceToken: string;
  let bobToken: string;
  const clients: Client[] = [];
  let finished: { taskId: string; text: string } | undefined;

  const as = async (token: string, capable = false): Promise<Client> => {
    if (!capable) {
      const c = await mcpClient(setup.sb.url, token);
      clients.push(c);
      return c;
    }
    const c = new Client({ name: 'ide', version: '1' }, { capabilities: { elicitation: {} } });
    c.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Alice' } }));
    await c.connect(new StreamableHTTPClientTransport(new URL(setup.sb.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(c);
    return c;
  };
  const restart = async (kill = false) => {
    if (kill) setup.sb.proc.kill('SIGKILL');
    await setup.sb.stop();
    setup = await startProtected({ configDir, serverYaml, files, env: { GRANT_KEY: KEY }, again: setup });
  };

  before(async () => {
    configDir = await makeConfigDir({});
    setup = await startProtected({ configDir, serverYaml, files, env: { GRANT_KEY: KEY } });
    const clientId = await registerClient(setup.base);
    aliceToken = (await signIn(setup.base, clientId)).access_token;
    setup.idp.signInAs('bob');
    bobToken = (await signIn(setup.base, clientId)).access_token;
    setup.idp.signInAs('alice');
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await setup?.sb.stop();
    await setup?.idp.close();
    await rm(configDir, { recursive: true, force: true });
  });

  it('declares the tasks capability; call_tool and call_tools say they may run as tasks, the discovery tools do not', async () => {
    const alice = await as(aliceToken);
    expect(alice.getServerCapabilities()?.tasks).to.deep.equal({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const tools = (await alice.listTools()).tools;
    expect(tools.find((t) => t.name === 'call_tool')?.execution).to.deep.equal({ taskSupport: 'optional' });
    expect(tools.find((t) => t.name === 'call_tools')?.execution).to.deep.equal({ taskSupport: 'optional' });
    expect(tools.find((t) => t.name === 'list_tools')?.execution).to.equal(undefined);
    const refused = await rpcError(createTask(alice, 'list_tools', {}));
    expect(refused.code).to.equal(ErrorCode.MethodNotFound);
    expect(refused.message).to.include("Tool 'list_tools' cannot run as a task");
  });

  it('a 5-second upstream call as a task answers at once, works on, and a new session of the same person fetches its result', async () => {
    const alice = await as(aliceToken);
    const started = Date.now();
    const created = await createTask(alice, 'call_tool', { name: 'x_tools_slow', arguments: { ms: 5000 } });
    expect(Date.now() - started, 'answered before the 5 s of work').to.be.lessThan(5000);
    expect(created.task.status).to.equal('working');
    expect(created.task.ttl).to.equal(60_000);
    const id = created.task.taskId;
    expect(id).to.match(/^[0-9a-f-]{36}$/);
    expect((await alice.experimental.tasks.getTask(id)).status).to.equal('working');
    await alice.close();

    const again = await as(aliceToken);
    expect((await again.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).to.include(id);
    const r = await result(again, id);
    expect(r.isError).to.not.equal(true);
    expect(text(r)).to.equal('waited 5000');
    expect(r._meta?.[RELATED]).to.deep.equal({ taskId: id });
    expect((await again.experimental.tasks.getTask(id)).status).to.equal('completed');
    finished = { taskId: id, text: text(r) };
  });

  it('another person gets "not found" on get, result and cancel, and does not see the task in the list', async () => {
    const bob = await as(bobToken);
    const id = finished!.taskId;
    for (const ask of [bob.experimental.tasks.getTask(id), result(bob, id), bob.experimental.tasks.cancelTask(id)]) {
      const e = await rpcError(ask);
      expect(e.code).to.equal(ErrorCode.InvalidParams);
      expect(e.message).to.match(/not found/i);
    }
    const unknown = await rpcError(bob.experimental.tasks.getTask('00000000-0000-4000-8000-000000000000'));
    expect(unknown).to.deep.equal(await rpcError(bob.experimental.tasks.getTask(id)));
    expect((await bob.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).to.not.include(id);
  });

  it('cancel stops the upstream work; a cancelled task refuses another cancel with -32602', async () => {
    const alice = await as(aliceToken);
    const created = await createTask(alice, 'call_tool', { name: 'x_tools_slow', arguments: { ms: 5001 } });
    const id = created.task.taskId;
    // The call reached the upstream before it is cancelled there.
    await setup.sb.waitForLog(/slow 5001: started/);
    const cancelled = await alice.experimental.tasks.cancelTask(id);
    expect(cancelled.status).to.equal('cancelled');
    await setup.sb.waitForLog(/slow 5001: cancelled by the client/);
    expect((await alice.experimental.tasks.getTask(id)).status).to.equal('cancelled');
    const again = await rpcError(alice.experimental.tasks.cancelTask(id));
    expect(again.code).to.equal(ErrorCode.InvalidParams);
    expect(again.message).to.include('terminal status: cancelled');
  });

  it('an elicitation an upstream sends during a task reaches the caller (through tasks/result) and its answer returns', async () => {
    const alice = await as(aliceToken, true);
    const seen: string[] = [];
    let final: CallToolResult | undefined;
    const stream = alice.experimental.tasks.callToolStream({ name: 'call_tool', arguments: { name: 'x_ask_ask_name', arguments: {} } }, CallToolResultSchema, {
      task: { ttl: 60_000 },
    });
    for await (const m of stream) {
      if (m.type === 'taskCreated' || m.type === 'taskStatus') seen.push(m.task.status);
      if (m.type === 'result') final = m.result;
      if (m.type === 'error') throw m.error;
    }
    expect(seen[0]).to.equal('working');
    expect(text(final!)).to.equal('hello Alice');
  });

  it('a 200-step workflow as a task is its execution: the task id is the execution_id', async () => {
    const alice = await as(aliceToken);
    const created = await createTask(alice, 'call_tool', { name: 'workflow_many', arguments: {} });
    const id = created.task.taskId;
    const r = await result(alice, id);
    expect(r.isError, text(r)).to.not.equal(true);
    expect((r.structuredContent as { execution_id?: string }).execution_id).to.equal(id);
    const run = await meta<{ execution_id: string; status: string; steps: unknown[] }>(alice, 'call_tool', {
      name: 'core_workflow_execution_get',
      arguments: { execution_id: id },
    });
    expect(run.status).to.equal('completed');
    expect(run.steps).to.have.length(200);
    expect((await alice.experimental.tasks.getTask(id)).status).to.equal('completed');
  });

  it('call_tools runs as one task; its result holds every call in order, and its end reaches the session as a status notification', async () => {
    const alice = await as(aliceToken);
    const statuses: { taskId: string; status: string }[] = [];
    alice.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push({ taskId: n.params.taskId, status: n.params.status }));
    const created = await createTask(alice, 'call_tools', {
      calls: [
        { name: 'x_tools_ping', arguments: {} },
        { name: 'x_tools_add', arguments: { a: 2, b: 3 } },
      ],
    });
    const r = await result(alice, created.task.taskId);
    const results = (r.structuredContent as { results: CallToolResult[] }).results;
    expect(results.map((x) => text(x))).to.have.length(2);
    expect(text(results[1]!)).to.equal('5');
    await eventually(
      () => Promise.resolve(statuses),
      (seen) => seen.some((x) => x.taskId === created.task.taskId && x.status === 'completed'),
    );
  });

  it('a task whose ttl ran out is gone', async () => {
    const alice = await as(aliceToken);
    const created = await createTask(alice, 'call_tool', { name: 'x_tools_ping', arguments: {} }, 1000);
    expect(created.task.ttl).to.equal(1000);
    const id = created.task.taskId;
    await eventually(
      () => rpcError(alice.experimental.tasks.getTask(id)),
      (e) => e.message.includes('not found'),
      10_000,
      200,
    );
    expect((await alice.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).to.not.include(id);
  });

  it("after a restart the finished task is still fetchable; a call a crash cut short is failed saying why, a workflow's as its run", async () => {
    const alice = await as(aliceToken);
    const cut = (await createTask(alice, 'call_tool', { name: 'x_tools_slow', arguments: { ms: 30_001 } })).task.taskId;
    const run = (await createTask(alice, 'call_tool', { name: 'workflow_ping-then-wait', arguments: {} })).task.taskId;
    await setup.sb.waitForLog(/slow 30001: started/);
    await eventually(
      () =>
        meta<{ status: string; steps: { status: string }[] }>(alice, 'call_tool', { name: 'core_workflow_execution_get', arguments: { execution_id: run } }),
      (r) => r.status === 'running' && r.steps.length === 2,
    );
    // A single process writes a run's record just after it starts, not before answering: the
    // restart can only tell how the run ended once that record is on disk.
    await eventually(
      () => readFile(join(configDir, 'executions', `${run}.json`), 'utf8').catch(() => ''),
      (t) => t.includes('"running"'),
    );
    await restart(true);
    const again = await as(aliceToken);
    const r = await result(again, finished!.taskId);
    expect(text(r)).to.equal(finished!.text);
    const lost = await again.experimental.tasks.getTask(cut);
    expect(lost.status).to.equal('failed');
    expect(lost.statusMessage).to.include('Switchboard stopped while this task was running');
    const interrupted = await again.experimental.tasks.getTask(run);
    expect(interrupted.status).to.equal('failed');
    expect(interrupted.statusMessage).to.include('interrupted');
    const record = await meta<{ status: string; error: string }>(again, 'call_tool', { name: 'core_workflow_execution_get', arguments: { execution_id: run } });
    expect(record.status).to.equal('failed');
    expect(interrupted.statusMessage).to.equal(record.error);
  });
});

describe('tasks as a server: anonymous sessions and limits', function () {
  this.timeout(60_000);
  let sb: Running;
  const clients: Client[] = [];
  const session = async () => {
    const c = await connectHttp(sb.url);
    clients.push(c);
    return c;
  };

  before(async () => {
    sb = await startSwitchboard({
      'config.yaml': 'aggregator:\n  limits:\n    tasks:\n      maxPerOwner: 2\n      maxTtlSeconds: 120\n',
      'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER),
    });
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await sb?.stop();
  });

  it("a task is its session's: another session gets not found and an empty list", async () => {
    const one = await session();
    const other = await session();
    const id = (await createTask(one, 'call_tool', { name: 'x_tools_ping', arguments: {} })).task.taskId;
    expect(text(await result(one, id))).to.match(/^pong/);
    expect((await rpcError(other.experimental.tasks.getTask(id))).code).to.equal(ErrorCode.InvalidParams);
    expect((await rpcError(result(other, id))).code).to.equal(ErrorCode.InvalidParams);
    expect((await other.experimental.tasks.listTasks()).tasks).to.deep.equal([]);
  });

  it('caps the ttl at maxTtlSeconds and refuses one task past maxPerOwner, naming the setting', async () => {
    const c = await session();
    const first = await createTask(c, 'call_tool', { name: 'x_tools_ping', arguments: {} }, 10_000_000);
    expect(first.task.ttl).to.equal(120_000);
    await createTask(c, 'call_tool', { name: 'x_tools_ping', arguments: {} });
    const refused = await rpcError(createTask(c, 'call_tool', { name: 'x_tools_ping', arguments: {} }));
    expect(refused.code).to.equal(ErrorCode.InvalidParams);
    expect(refused.message).to.include('aggregator.limits.tasks.maxPerOwner');
  });

  it('refuses a malformed task, a forged cursor and an id that is a path, each by name', async () => {
    const c = await session();
    const bad = await rpcError(createTask(c, 'call_tool', { name: 'x_tools_ping' }, -5));
    expect(bad.code).to.equal(ErrorCode.InvalidParams);
    expect(bad.message).to.include("'task.ttl' must be a non-negative number");
    const cursor = await rpcError(c.experimental.tasks.listTasks('bm90LWEtY3Vyc29y'));
    expect(cursor.code).to.equal(ErrorCode.InvalidParams);
    expect(cursor.message).to.include('invalid tasks/list cursor');
    const path = await rpcError(c.experimental.tasks.getTask('../../config.yaml'));
    expect(path.code).to.equal(ErrorCode.InvalidParams);
  });

  it("a call run as a task reports its upstream's progress to the caller, marked with the task, on the request's own token", async () => {
    const c = await session();
    const seen: { progress: number; total?: number; _meta?: Record<string, unknown> }[] = [];
    const created = await c.request(
      { method: 'tools/call', params: { name: 'call_tool', arguments: { name: 'x_tools_slow', arguments: { ms: 2000 } }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
      { onprogress: (p) => seen.push(p as (typeof seen)[number]) },
    );
    const id = created.task.taskId;
    // The last of the slow tool's four reports; the first may precede the session's GET stream.
    await eventually(
      () => Promise.resolve(seen),
      (s) => s.some((p) => p.progress === 4),
      30_000,
    );
    expect(text(await result(c, id))).to.equal('waited 2000');
    expect(seen.map((p) => p.total)).to.satisfy((totals: unknown[]) => totals.every((t) => t === 4));
    expect(seen.map((p) => p.progress)).to.deep.equal([...seen.map((p) => p.progress)].sort((x, y) => x - y));
    for (const p of seen) expect(p._meta?.[RELATED]).to.deep.equal({ taskId: id });
  });

  it('a plain call_tool (no task) still answers directly', async () => {
    const c = await session();
    const r = (await c.callTool({ name: 'call_tool', arguments: { name: 'x_tools_ping', arguments: {} } })) as CallToolResult;
    expect(text(r)).to.match(/^pong/);
  });
});
