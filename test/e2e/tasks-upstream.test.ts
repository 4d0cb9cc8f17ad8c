/**
 * Acceptance, end to end: the SDK's own task client asks Switchboard's call_tool for a task,
 * and the tool's upstream runs it as a task of its own. This needs both halves: Switchboard's
 * task server (the `tasks` branch: the tasks capability, tasks/* methods, a TaskCall on the
 * call) and the upstream side (this branch). Until both are in, the `before` hook fails with
 * a message that says so, rather than the tests failing one by one in ways that mislead.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, eventually, ROOT, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';

const TASKS = join(ROOT, 'dist/test/fixtures/task-server.js');

interface Upstream {
  events: string[];
  polls: Record<string, number>;
}

describe('an SDK task client runs an upstream task through call_tool', function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({ 'mcpservers/tasks.yaml': stdioServer('tasks', TASKS) });
    client = new Client({ name: 'task-client', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'ada' } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(sb.url)));
    if (client.getServerCapabilities()?.tasks?.requests?.tools?.call === undefined)
      throw new Error("Switchboard declares no tasks.requests.tools.call: this acceptance test needs Switchboard's task server (the `tasks` branch) merged");
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await sb?.stop();
  });

  const upstream = async (): Promise<Upstream> => JSON.parse(text(await callTool(client, 'x_tasks_events'))) as Upstream;

  /** call_tool as a task: the task's id once created, and its final result. */
  async function asTask(
    name: string,
    args: Record<string, unknown>,
    onCreated?: (taskId: string) => Promise<void>,
  ): Promise<{ taskId: string; result?: CallToolResult; error?: unknown }> {
    const stream = client.experimental.tasks.callToolStream({ name: 'call_tool', arguments: { name, arguments: args } }, CallToolResultSchema, {
      task: { ttl: 60_000 },
    });
    let taskId = '';
    for await (const message of stream) {
      if (message.type === 'taskCreated') {
        taskId = message.task.taskId;
        await onCreated?.(taskId);
      } else if (message.type === 'result') return { taskId, result: message.result };
      else if (message.type === 'error') return { taskId, error: message.error };
    }
    return { taskId };
  }

  it('a 5-second upstream tool runs as an upstream task: the client gets a task at once and the result at the end', async () => {
    const before = (await upstream()).events.length;
    const { taskId, result } = await asTask('x_tasks_slow', {});
    expect(taskId).to.be.a('string').and.not.equal('');
    expect(text(result!)).to.equal('slow done after 5000 ms');
    const u = await upstream();
    const upstreamId = u.events
      .slice(before)
      .find((e) => e.startsWith('finished slow '))!
      .split(' ')[2]!;
    // Switchboard followed the upstream's task (an optional tool runs plainly when no task is asked).
    expect(u.polls[upstreamId]).to.be.greaterThan(0);
    // The caller's task id is Switchboard's own, not the upstream's.
    expect(taskId).to.not.equal(upstreamId);
  });

  it('tasks/cancel of the caller task cancels the upstream task: the upstream work stops', async () => {
    const before = (await upstream()).events.length;
    const outcome = await asTask('x_tasks_slow', {}, async (taskId) => {
      await eventually(upstream, (u) => u.events.slice(before).some((e) => e.startsWith('started slow ')), 15_000);
      await client.experimental.tasks.cancelTask(taskId);
    });
    expect(outcome.result?.isError ?? true).to.equal(true);
    const u = await eventually(upstream, (x) => x.events.slice(before).some((e) => e.startsWith('cancelled slow ')), 15_000);
    expect(u.events.slice(before).some((e) => e.startsWith('finished slow '))).to.equal(false);
  });

  it("the upstream's elicitation during its task reaches the task client", async () => {
    const { result } = await asTask('x_tasks_ask_in_task', {});
    expect(text(result!)).to.equal('hello ada');
  });
});
