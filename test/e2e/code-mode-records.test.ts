/**
 * run_code's runs as execution records and as tasks, through the real protocol: people signed
 * in at a real OpenID provider (alice an administrator, bob and carol not) run scripts with the
 * SDK client against the test server; each reads the run with core_workflow_execution_get and
 * _list under the workflows' ownership rules; a run asked as a task answers with the task,
 * tasks/get and tasks/result follow it, and tasks/cancel ends the script, whether it waits on a
 * tool or spins without ever yielding.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema, type CallToolResult, type CreateTaskResult } from '@modelcontextprotocol/sdk/types.js';
import { ran, runCode } from '../support/code-mode.js';
import { callTool, errorCode, eventually, meta, stdioServer, TEST_SERVER, text } from '../support/harness.js';
import { clientAs, protectedForSuite } from '../support/oauth-setup.js';

const OPTIONS = { cpuMs: 20_000, wallMs: 30_000, maxScriptsPerCaller: 4, workers: 1 };

const CONFIG = [
  '        scopes: [openid, profile, email, groups, offline_access]',
  'authorization:',
  "  admins: ['group:platform']",
  'plugins:',
  '  code-mode:',
  '    enabled: true',
  `    options: ${JSON.stringify(OPTIONS)}`,
].join('\n');

interface Step {
  step_id: string;
  tool: string;
  status: string;
  duration_ms: number;
  error?: string;
  input?: unknown;
}

interface Run {
  execution_id: string;
  kind?: string;
  workflow_name: string;
  status: string;
  duration_ms?: number;
  caller?: string;
  input: { code?: string };
  result?: unknown;
  error?: string;
  logs?: string[];
  steps: Step[];
}

interface Listing {
  executions: { execution_id: string; kind?: string; workflow_name: string; status: string }[];
  total: number;
}

const getRun = (c: Client, id: string) => meta<Run>(c, 'call_tool', { name: 'core_workflow_execution_get', arguments: { execution_id: id } });
const listRuns = (c: Client) => meta<Listing>(c, 'call_tool', { name: 'core_workflow_execution_list', arguments: { workflow_name: 'run_code' } });

function runAsTask(c: Client, code: string): Promise<CreateTaskResult> {
  return c.request({ method: 'tools/call', params: { name: 'run_code', arguments: { code }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
}

describe('code mode: runs as execution records and tasks (OAuth, file mode)', function () {
  this.timeout(120_000);
  const setup = protectedForSuite({
    serverYaml: CONFIG,
    // stderr at info: the test server says there when a call starts and when it is cancelled.
    files: { 'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER, [], 'stderrLogLevel: info\n') },
  });
  let alice: Client;
  let bob: Client;
  let carol: Client;

  before(async () => {
    alice = await clientAs(setup(), 'alice');
    bob = await clientAs(setup(), 'bob');
    carol = await clientAs(setup(), 'carol');
  });
  after(async () => {
    for (const c of [alice, bob, carol]) await c?.close();
  });

  it('a run is a record of kind code: its code, calls, logs, result and duration, read by its caller and administrators only', async () => {
    const code = `
      await tools.x_tools_ping({});
      let refused;
      try { await tools.call('x_tools_nowhere', {}); } catch (e) { refused = e.code; }
      const found = await tools.search('ping', 2);
      console.log('searched', found.length > 0);
      return { refused, answer: 42 };
    `;
    const out = ran(await runCode(bob, code));
    const id = out.execution_id;

    const run = await getRun(bob, id);
    expect(run).to.include({ execution_id: id, kind: 'code', workflow_name: 'run_code', status: 'completed', caller: 'person:bob' });
    expect(run.input.code).to.equal(code);
    expect(run.result).to.deep.equal({ refused: 'TOOL_NOT_FOUND', answer: 42 });
    expect(run.logs).to.deep.equal(['searched true']);
    expect(run.duration_ms).to.be.a('number');
    expect(run.steps.map((s) => [s.step_id, s.tool, s.status, s.error])).to.deep.equal([
      ['1', 'x_tools_ping', 'completed', undefined],
      ['2', 'x_tools_nowhere', 'failed', 'TOOL_NOT_FOUND'],
      ['3', 'tools.search', 'completed', undefined],
    ]);
    expect(run.steps[2]!.input).to.deep.equal({ query: 'ping' });

    const listed = await listRuns(bob);
    expect(listed.executions.find((e) => e.execution_id === id)).to.include({ kind: 'code', workflow_name: 'run_code', status: 'completed' });
    // Kept by the workflows' store: one JSON file per execution under executions/.
    await eventually(
      () => access(join(setup().sb.configDir, 'executions', `${id}.json`)).then(() => true),
      (there) => there,
    );

    const peek = await callTool(carol, 'core_workflow_execution_get', { execution_id: id });
    expect(errorCode(peek), text(peek)).to.equal('NOT_FOUND');
    expect((await listRuns(carol)).executions.map((e) => e.execution_id)).to.not.include(id);
    expect((await getRun(alice, id)).caller).to.equal('person:bob');
  });

  it('a script that fails is recorded failed, with the error it ended on', async () => {
    const r = await runCode(bob, "await tools.x_tools_ping({}); throw new Error('boom at step two');");
    expect(errorCode(r), text(r)).to.equal('CODE_FAILED');
    const id = (r.structuredContent as { error: { details: { execution_id: string } } }).error.details.execution_id;
    const run = await getRun(bob, id);
    expect(run).to.include({ kind: 'code', status: 'failed' });
    expect(run.error).to.match(/^Error: boom at step two/);
    expect(run.steps.map((s) => s.tool)).to.deep.equal(['x_tools_ping']);
  });

  it('asked as a task, run_code answers with the task; tasks/get and tasks/result follow it, and the task id is the execution id', async () => {
    const { tools } = await bob.listTools();
    expect(tools.find((t) => t.name === 'run_code')?.execution).to.deep.equal({ taskSupport: 'optional' });
    const { task } = await runAsTask(bob, 'const a = await tools.x_tools_slow({ ms: 50 }); return { slept: typeof a, n: 7 };');
    expect(task.status).to.equal('working');
    const result: CallToolResult = await bob.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError, text(result)).to.not.equal(true);
    const out = result.structuredContent as { execution_id: string; result: unknown };
    expect(out.execution_id).to.equal(task.taskId);
    expect(out.result).to.deep.equal({ slept: 'string', n: 7 });
    expect((await bob.experimental.tasks.getTask(task.taskId)).status).to.equal('completed');
    expect(await getRun(bob, task.taskId)).to.include({ kind: 'code', status: 'completed' });
  });

  it('tasks/cancel ends a script waiting on a tool: the call is cancelled upstream and the record says cancelled', async () => {
    const { task } = await runAsTask(bob, 'await tools.x_tools_slow({ ms: 20001 }); return 1;');
    await setup().sb.waitForLog(/slow 20001: started/);
    await bob.experimental.tasks.cancelTask(task.taskId);
    await setup().sb.waitForLog(/slow 20001: cancelled by the client/);
    expect((await bob.experimental.tasks.getTask(task.taskId)).status).to.equal('cancelled');
    await eventually(
      () => getRun(bob, task.taskId),
      (r) => r.status === 'cancelled',
    );
  });

  it('tasks/cancel ends a script that spins without yielding, long before its CPU budget', async () => {
    const { task } = await runAsTask(bob, 'await tools.x_tools_ping({}); while (true) {}');
    // Spinning: its one call is done and the record is still running.
    await eventually(
      () => getRun(bob, task.taskId),
      (r) => r.steps.length === 1 && r.status === 'running',
      15_000,
    );
    await bob.experimental.tasks.cancelTask(task.taskId);
    // Without the abort read from the interrupt handler, the script would end at cpuMs (20 s), recorded failed.
    const run = await eventually(
      () => getRun(bob, task.taskId),
      (r) => r.status !== 'running',
      15_000,
    );
    expect(run.status, run.error).to.equal('cancelled');
  });
});
