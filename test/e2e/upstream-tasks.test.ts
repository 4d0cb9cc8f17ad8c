/**
 * Tools whose upstream runs them as tasks (2025-11-25 tasks), called by clients that know
 * nothing of tasks: a tool that requires a task still works through call_tool and workflow
 * steps (Switchboard runs the upstream task and waits for its result), what the upstream
 * asks during its task reaches the caller, a cancel or a timeout stops the upstream work,
 * and the upstream cannot make Switchboard spin, wait an hour, or keep an oversized id.
 * The catalogue shows each tool's task support. A caller that asks for a task itself is
 * test/e2e/tasks-upstream.test.ts (with Switchboard's own task server).
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, RELATED_TASK_META_KEY, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, errorCode, eventually, meta, ROOT, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';

const TASKS = join(ROOT, 'dist/test/fixtures/task-server.js');

interface Upstream {
  events: string[];
  polls: Record<string, number>;
}

describe('upstream tools run as upstream tasks', function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({
      'mcpservers/tasks.yaml': stdioServer('tasks', TASKS),
      'mcpservers/tasks_short.yaml': stdioServer('tasks_short', TASKS, [], 'callTimeout: 1\n'),
      'mcpservers/tasks_crash.yaml': stdioServer('tasks_crash', TASKS),
      'mcpservers/tk1.yaml': stdioServer('tk1', TASKS, [], 'family: { name: tf, instanceArg: instance }\n'),
      'mcpservers/tk2.yaml': stdioServer('tk2', TASKS, [], 'family: { name: tf, instanceArg: instance }\n'),
    });
    client = await connectHttp(sb.url);
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await sb?.stop();
  });

  const upstream = async (server = 'tasks'): Promise<Upstream> => JSON.parse(text(await callTool(client, `x_${server}_events`))) as Upstream;
  /** The upstream task id of the one `label` task started since `before` events. */
  const startedSince = async (label: string, before: number, server = 'tasks'): Promise<string> => {
    const u = await eventually(
      () => upstream(server),
      (x) => x.events.slice(before).some((e) => e.startsWith(`started ${label} `)),
      15_000,
    );
    return u.events
      .slice(before)
      .find((e) => e.startsWith(`started ${label} `))!
      .split(' ')[2]!;
  };

  it('shows task support in describe_tool, list_tools and filter_tools, and nothing for a tool without it', async () => {
    const slow = await meta<{ execution?: { taskSupport: string } }>(client, 'describe_tool', { name: 'x_tasks_slow' });
    expect(slow.execution).to.deep.equal({ taskSupport: 'optional' });
    const required = await meta<{ execution?: { taskSupport: string } }>(client, 'describe_tool', { name: 'x_tasks_need_task' });
    expect(required.execution).to.deep.equal({ taskSupport: 'required' });
    const plain = await meta(client, 'describe_tool', { name: 'x_tasks_plain_echo' });
    expect(plain).to.not.have.property('execution');

    const listed = await meta<{ tools: { name: string; execution?: unknown }[] }>(client, 'list_tools', { limit: 500 });
    const byName = new Map(listed.tools.map((t) => [t.name, t]));
    expect(byName.get('x_tasks_need_task')?.execution).to.deep.equal({ taskSupport: 'required' });
    expect(byName.get('x_tasks_slow')?.execution).to.deep.equal({ taskSupport: 'optional' });
    expect(byName.get('x_tasks_plain_echo')).to.not.have.property('execution');

    for (const include_schema of [false, true]) {
      const found = await meta<{ tools: { name: string; execution?: unknown }[] }>(client, 'filter_tools', { pattern: 'x_tasks_need_task', include_schema });
      expect(found.tools.map((t) => t.execution)).to.deep.equal([{ taskSupport: 'required' }]);
    }
  });

  it('runs a tool that requires a task for a plain call_tool: Switchboard runs the upstream task and returns its result', async () => {
    const r = await callTool(client, 'x_tasks_need_task', { text: 'hi' });
    expect(errorCode(r), text(r)).to.equal(undefined);
    expect(text(r)).to.equal('echo: hi');
    // The upstream's task id stays upstream.
    expect(r._meta?.[RELATED_TASK_META_KEY]).to.equal(undefined);
    const u = await upstream();
    const finished = u.events.filter((e) => e.startsWith('finished need_task '));
    expect(finished).to.have.length.greaterThan(0);
    // It was followed with tasks/get: the upstream saw its task polled.
    expect(u.polls[finished.at(-1)!.split(' ')[2]!]).to.be.greaterThan(0);
  });

  it('runs a tool that requires a task as a workflow step', async () => {
    await meta(client, 'call_tool', {
      name: 'core_workflow_create',
      arguments: { name: 'echo_by_task', steps: [{ id: 'e', tool: 'x_tasks_need_task', args: { text: 'from a step' }, output: true }] },
    });
    const r = await callTool(client, 'workflow_echo_by_task');
    expect(errorCode(r), text(r)).to.equal(undefined);
    expect(JSON.stringify(r.structuredContent)).to.include('echo: from a step');
  });

  it("relays the upstream's elicitation during its task (through tasks/result) to the calling client, without the upstream's task id", async () => {
    const asked: { message: string; meta: unknown }[] = [];
    const ide = new Client({ name: 'ide', version: '1' }, { capabilities: { elicitation: {} } });
    ide.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push({ message: req.params.message, meta: req.params._meta?.[RELATED_TASK_META_KEY] });
      return { action: 'accept', content: { name: 'ada' } };
    });
    await ide.connect(new StreamableHTTPClientTransport(new URL(sb.url)));
    try {
      const r = await callTool(ide, 'x_tasks_ask_in_task');
      expect(errorCode(r), text(r)).to.equal(undefined);
      expect(text(r)).to.equal('hello ada');
      expect(asked).to.deep.equal([{ message: 'What is your name?', meta: undefined }]);
    } finally {
      await ide.close();
    }
  });

  it('refuses the elicitation for a caller that did not declare it, and the call still ends', async () => {
    const r = await callTool(client, 'x_tasks_ask_in_task');
    // The upstream's own failure: its elicitation was refused with the relay's reason.
    expect(r.isError).to.equal(true);
    expect(text(r)).to.include("does not support elicitation/create (it did not declare the 'elicitation' capability)");
  });

  it('cancels the upstream task when the caller cancels its call: the upstream work stops', async () => {
    const before = (await upstream()).events.length;
    const ctl = new AbortController();
    const pending = client.callTool({ name: 'call_tool', arguments: { name: 'x_tasks_slow_required', arguments: {} } }, undefined, { signal: ctl.signal });
    const id = await startedSince('slow_required', before);
    ctl.abort('the person changed their mind');
    await pending.then(
      () => expect.fail('the cancelled call resolved'),
      () => undefined,
    );
    const u = await eventually(
      () => upstream(),
      (x) => x.events.includes(`cancelled slow_required ${id}`),
      15_000,
    );
    expect(u.events).to.not.include(`finished slow_required ${id}`);
  });

  it("fails with TIMEOUT after the server's callTimeout and cancels the upstream task", async () => {
    const before = (await upstream('tasks_short')).events.length;
    const started = Date.now();
    const r = await callTool(client, 'x_tasks_short_slow_required', {});
    expect(errorCode(r), text(r)).to.equal('TIMEOUT');
    expect(text(r)).to.include("tool 'slow_required' on server 'tasks_short'");
    expect(Date.now() - started).to.be.below(4_500);
    const id = await startedSince('slow_required', before, 'tasks_short');
    await eventually(
      () => upstream('tasks_short'),
      (x) => x.events.includes(`cancelled slow_required ${id}`),
      15_000,
    );
  });

  it('polls no faster than the floor when the upstream asks for every millisecond', async () => {
    const before = (await upstream()).events.length;
    const started = Date.now();
    const r = await callTool(client, 'x_tasks_spin', { ms: 1000 });
    const elapsed = Date.now() - started;
    expect(text(r)).to.equal('spun');
    const id = await startedSince('spin', before);
    const polls = (await upstream()).polls[id] ?? 0;
    // One poll per 100 ms floor at most, and the first one.
    expect(polls).to.be.greaterThan(0);
    expect(polls).to.be.at.most(Math.ceil(elapsed / 100) + 1);
  });

  it('polls at the ceiling at the latest when the upstream asks for once an hour', async () => {
    const started = Date.now();
    const r = await callTool(client, 'x_tasks_sluggish');
    expect(text(r)).to.equal('sluggish done');
    expect(Date.now() - started).to.be.below(15_000);
  });

  it('refuses an upstream task id longer than 256 characters, naming the server', async () => {
    const r = await callTool(client, 'x_tasks_long_id');
    expect(errorCode(r), text(r)).to.equal('UPSTREAM_ERROR');
    expect(text(r)).to.include("Server 'tasks'").and.include('at most 256');
  });

  it('still calls a tool without task support plainly, and an optional one plainly when no task was asked', async () => {
    expect(text(await callTool(client, 'x_tasks_plain_echo', { text: 'x' }))).to.equal('plain: x');
    const before = (await upstream()).events.length;
    expect(text(await callTool(client, 'x_tasks_slow', { ms: 50 }))).to.equal('slow done after 50 ms');
    const id = await startedSince('slow', before);
    // The SDK server ran its own task for the plain call; Switchboard never polled it.
    expect((await upstream()).polls[id]).to.equal(undefined);
  });

  it("runs a family tool that requires a task on the member the caller names, and shows the members' shared task support", async () => {
    const described = await meta<{ execution?: unknown }>(client, 'describe_tool', { name: 'x_tf_need_task' });
    expect(described.execution).to.deep.equal({ taskSupport: 'required' });
    const r = await callTool(client, 'x_tf_need_task', { instance: 'tk2', text: 'from the family' });
    expect(errorCode(r), text(r)).to.equal(undefined);
    expect(text(r)).to.equal('echo: from the family');
    const tk2 = JSON.parse(text(await callTool(client, 'x_tf_events', { instance: 'tk2' }))) as Upstream;
    expect(tk2.events.some((e) => e.startsWith('finished need_task '))).to.equal(true);
  });

  it('fails at once, naming the server, when the upstream connection is lost during the task', async () => {
    const started = Date.now();
    const r: CallToolResult = await callTool(client, 'x_tasks_crash_crash_in_task');
    expect(errorCode(r), text(r)).to.equal('SERVER_UNAVAILABLE');
    expect(text(r)).to.include("'tasks_crash'");
    expect(Date.now() - started).to.be.below(10_000);
  });
});
