/**
 * reference-behaviour.md §3 and §7, through the protocol: conditions (both spellings, in files
 * and in the tool form; template json_path keys; loose comparison; expect_not) and execution
 * records as core_workflow_execution_get and _list show them.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  callTool,
  connectHttp,
  errorCode,
  eventually,
  EVERYTHING,
  meta,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

type Obj = Record<string, unknown>;
interface Entry {
  step_id: string;
  id: string;
  path?: string;
  tool: string;
  status: string;
  input?: unknown;
  args?: unknown;
  result?: unknown;
  error?: string;
  tolerated?: boolean;
  started_at?: string;
  completed_at?: string;
  duration_ms?: number;
}

const wf = (name: string, spec: string) => `apiVersion: switchboard.dev/v1alpha1\nkind: Workflow\nmetadata: { name: ${name} }\nspec:\n${spec}`;

const FILES = {
  'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
  'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER, [], 'toolPrefix: fx\n'),
  // The aliases in the file form.
  'workflows/rec_aliases.yaml': wf(
    'rec_aliases',
    `  steps:
    - { id: base, tool: x_fx_add, args: { a: 1, b: 2 } }
    - id: snake
      tool: x_fx_ping
      condition: { from_step: base, expect: { jsonPath: { sum: 3 } } }
    - id: camel_not
      tool: x_fx_ping
      condition: { fromStep: base, expectNot: { json_path: { sum: 3 } } }
`,
  ),
  'workflows/rec_run.yaml': wf(
    'rec_run',
    `  args: { who: { type: string, default: ann } }
  steps:
    - { id: rec_plain, tool: x_fx_ping }
    - id: rec_loop
      forEach:
        items: [1, 2]
        steps:
          - { id: rec_body, tool: x_fx_add, args: { a: "{{ .vars.item }}", b: 10 } }
    - { id: rec_soft, tool: x_fx_fail_rpc, allow_failure: true }
    - { id: rec_last, tool: x_everything_echo, args: { message: "hi {{ .input.who }}" } }
`,
  ),
  'workflows/rec_slow.yaml': wf('rec_slow', '  steps:\n    - { id: s1, tool: x_fx_ping }\n    - { id: s2, tool: x_fx_slow, args: { ms: 1500 } }\n'),
  'workflows/rec_fail.yaml': wf(
    'rec_fail',
    `  args: { app: { type: string, default: web } }
  steps:
    - { id: rec_prep, tool: x_fx_add, args: { a: 1, b: 1 } }
    - { id: rec_push, tool: x_fx_fail_rpc, args: { code: -32000 } }
  onFailure:
    - { id: rec_undo, tool: x_fx_ping }
`,
  ),
};

describe('workflows as the reference has them: conditions and execution records', () => {
  let sb: Running;
  let client: Client;
  const core = <T = Obj>(name: string, args: Obj = {}) => meta<T>(client, 'call_tool', { name, arguments: args });
  const run = async (name: string, args: Obj = {}) => {
    const r = await callTool(client, name, args);
    return { r, doc: JSON.parse(text(r)) as { execution_id: string; steps: Obj[]; error?: string } };
  };
  const statuses = (steps: Obj[]) => steps.map((s) => [s.id, s.status]);
  const refused = (r: CallToolResult, phrase: string) => {
    expect(r.isError, text(r)).to.equal(true);
    expect(text(r)).to.include(phrase);
  };

  before(async () => {
    sb = await startSwitchboard(FILES);
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('§3 the aliases work in the file form', async () => {
    const { doc } = await run('workflow_rec_aliases');
    expect(statuses(doc.steps)).to.deep.equal([
      ['base', 'completed'],
      ['snake', 'completed'],
      ['camel_not', 'skipped'],
    ]);
  });

  it('§3 in the tool form: from_step, jsonPath and expectNot accepted; template keys with .result; loose comparison; unresolved paths; expect_not', async () => {
    const created = await callTool(client, 'core_workflow_create', {
      name: 'rec_cond',
      args: { want: { type: 'string', default: '3' } },
      steps: [
        { id: 'base', tool: 'x_fx_add', args: { a: 1, b: 2 } },
        { id: 'risky', tool: 'x_fx_fail_rpc', allow_failure: true },
        { id: 'by_alias', tool: 'x_fx_ping', condition: { from_step: 'base', expect: { jsonPath: { sum: '3' } } } },
        { id: 'by_template_key', tool: 'x_fx_ping', condition: { fromStep: 'base', expect: { json_path: { '{{ .result.sum }}': '{{ .input.want }}' } } } },
        { id: 'failure_object', tool: 'x_fx_ping', condition: { fromStep: 'risky', expect: { success: false } } },
        { id: 'not_all_match', tool: 'x_fx_ping', condition: { tool: 'x_fx_add', args: { a: 1, b: 1 }, expectNot: { json_path: { sum: 2 } } } },
        { id: 'unresolved', tool: 'x_fx_ping', condition: { fromStep: 'base', expect: { json_path: { 'nope.deeper': 1 } } } },
        { id: 'success_differs', tool: 'x_fx_ping', condition: { fromStep: 'risky', expect_not: { success: true } } },
      ],
    });
    expect(created.isError, text(created)).to.not.equal(true);
    const { doc } = await run('workflow_rec_cond');
    expect(statuses(doc.steps)).to.deep.equal([
      ['base', 'completed'],
      ['risky', 'failed'],
      ['by_alias', 'completed'],
      ['by_template_key', 'completed'],
      ['failure_object', 'completed'],
      ['not_all_match', 'skipped'],
      ['unresolved', 'skipped'],
      ['success_differs', 'completed'],
    ]);
    expect(doc.steps[2]).to.deep.include({ condition_tool: 'from_step:base', condition_result: { sum: 3 }, condition_evaluation: true });
    expect(doc.steps[4]!.condition_result).to.deep.include({ success: false, isError: true });
  });

  it('§3 a tool or fromStep condition needs an expectation; a fromStep on a step without a result fails the run', async () => {
    refused(
      await callTool(client, 'core_workflow_create', {
        name: 'rec_noexpect',
        steps: [
          { id: 'a', tool: 'x_fx_ping' },
          { id: 'b', tool: 'x_fx_ping', condition: { from_step: 'a' } },
        ],
      }),
      'a tool or fromStep condition requires expect or expectNot',
    );
    await core('core_workflow_create', {
      name: 'rec_ghoststep',
      steps: [
        { id: 'maybe', tool: 'x_fx_ping', condition: { template: 'false' } },
        { id: 'after', tool: 'x_fx_ping', condition: { fromStep: 'maybe', expect: { success: true } } },
      ],
    });
    const { r, doc } = await run('workflow_rec_ghoststep');
    expect(errorCode(r)).to.equal('WORKFLOW_FAILED');
    expect(doc.error).to.include('step after condition references non-existent step result: maybe');
  });

  it('§3 a json_path key template is bounded like every template: a huge range stops at the budget, naming the setting', async () => {
    await core('core_workflow_create', {
      name: 'rec_bigkey',
      steps: [
        { id: 'base', tool: 'x_fx_add', args: { a: 1, b: 2 } },
        { id: 'probe', tool: 'x_fx_ping', condition: { fromStep: 'base', expect: { json_path: { '{{ range 100000000 }}x{{ end }}': 'x' } } } },
      ],
    });
    const { r, doc } = await run('workflow_rec_bigkey');
    expect(errorCode(r)).to.equal('WORKFLOW_FAILED');
    // Whichever of the two limits trips first: 100,000 iterations take about 50 ms, the time
    // limit, so a loaded machine reaches the clock first (measured beside other tests).
    expect(doc.error).to.match(/template stopped: .*\(aggregator\.limits\.templates\.(maxIterations|maxMilliseconds)\)/);
  });

  it('§7 step entries: step_id beside id, input beside args ({} when none), plain ids for iterations with their path, tolerated failures', async () => {
    const { doc } = await run('workflow_rec_run');
    const ex = await core<{ steps: Entry[] } & Obj>('core_workflow_execution_get', { execution_id: doc.execution_id });
    expect(ex.steps.map((s) => [s.step_id, s.id, s.path, s.status])).to.deep.equal([
      ['rec_plain', 'rec_plain', undefined, 'completed'],
      ['rec_body', 'rec_body', 'rec_loop[0].rec_body', 'completed'],
      ['rec_body', 'rec_body', 'rec_loop[1].rec_body', 'completed'],
      ['rec_soft', 'rec_soft', undefined, 'failed'],
      ['rec_last', 'rec_last', undefined, 'completed'],
    ]);
    for (const s of ex.steps) expect(s).to.include.all.keys('step_id', 'tool', 'status', 'started_at', 'completed_at', 'duration_ms', 'input');
    expect(ex.steps[0]!.input).to.deep.equal({});
    expect(ex.steps[2]).to.deep.include({ input: { a: 2, b: 10 }, args: { a: 2, b: 10 }, result: { sum: 12 } });
    expect(ex.steps[3]).to.deep.include({ tolerated: true });
    expect(ex.steps[3]!.error).to.include('bad widget');
    // Default view: the record's fields, result for a completed run, no error.
    expect(ex).to.include.all.keys('execution_id', 'workflow_name', 'status', 'started_at', 'completed_at', 'duration_ms', 'input', 'result', 'steps');
    expect(ex).to.not.have.property('error');
    expect(ex.input).to.deep.equal({ who: 'ann' });
  });

  it('§7 include_steps: false leaves no step id anywhere', async () => {
    const { doc } = await run('workflow_rec_run');
    const ex = await core('core_workflow_execution_get', { execution_id: doc.execution_id, include_steps: false });
    expect(ex).to.not.have.property('steps');
    expect(ex.result).to.be.an('object').that.does.not.have.any.keys('steps', 'template_vars');
    expect(JSON.stringify(ex)).to.not.match(/rec_plain|rec_body|rec_soft|rec_last|rec_loop/);
  });

  it('§7 step_id: that step alone, no result; input and error only when it failed; by id or by path', async () => {
    const { doc } = await run('workflow_rec_fail');
    const id = doc.execution_id;
    const failed = await core<Obj & { steps: Entry[] }>('core_workflow_execution_get', { execution_id: id, step_id: 'rec_push' });
    expect(failed).to.not.have.property('result');
    expect(failed).to.include({ execution_id: id, workflow_name: 'rec_fail', status: 'failed' });
    expect(failed.input).to.deep.equal({ app: 'web' });
    expect(failed.error).to.include('bad widget');
    expect(failed.steps.map((s) => s.step_id)).to.deep.equal(['rec_push']);
    expect(JSON.stringify(failed)).to.not.match(/rec_prep|rec_undo/);
    const fine = await core<Obj & { steps: Entry[] }>('core_workflow_execution_get', { execution_id: id, step_id: 'rec_prep' });
    expect(fine.input).to.deep.equal({});
    expect(fine).to.not.have.property('error');
    expect(JSON.stringify(fine)).to.not.match(/rec_push|rec_undo/);
    // onFailure steps are entries too, found by plain id or by path.
    const undo = await core<{ steps: Entry[] }>('core_workflow_execution_get', { execution_id: id, step_id: 'onFailure.rec_undo' });
    expect(undo.steps[0]).to.include({ step_id: 'rec_undo', status: 'completed' });
    const all = await core<{ steps: Entry[] }>('core_workflow_execution_get', { execution_id: id });
    expect(all.steps.map((s) => s.step_id)).to.deep.equal(['rec_prep', 'rec_push', 'rec_undo']);
    const iteration = await run('workflow_rec_run');
    const second = await core<{ steps: Entry[] }>('core_workflow_execution_get', { execution_id: iteration.doc.execution_id, step_id: 'rec_loop[1].rec_body' });
    expect(second.steps[0]!.result).to.deep.equal({ sum: 12 });
  });

  it('§7 core_workflow_execution_get refuses in the words clients match', async () => {
    const { doc } = await run('workflow_rec_run');
    const get = (args: Obj) => callTool(client, 'core_workflow_execution_get', args);
    refused(await get({ execution_id: doc.execution_id, step_id: '' }), 'step_id is invalid: cannot be empty');
    refused(await get({ execution_id: doc.execution_id, step_id: null }), 'step_id cannot be null');
    refused(await get({ execution_id: doc.execution_id, step_id: 'zzz' }), "step not found: 'zzz'");
    refused(await get({ execution_id: 'nope' }), 'execution nope not found');
    refused(await get({}), 'execution_id is required');
    refused(await get({ execution_id: '' }), 'execution_id is required');
    refused(await get({ execution_id: doc.execution_id, include_steps: 'yes' }), 'include_steps must be a boolean value');
  });

  it('§7 a running execution is listed under inprogress and its record shows the steps so far', async () => {
    const running = callTool(client, 'workflow_rec_slow');
    const listed = await eventually(
      () => core<{ executions: Obj[] }>('core_workflow_execution_list', { workflow_name: 'rec_slow', status: 'inprogress' }),
      (l) => l.executions.length === 1,
      5000,
    );
    const live = await eventually(
      () => core<{ status: string; steps: Entry[] }>('core_workflow_execution_get', { execution_id: listed.executions[0]!.execution_id }),
      (x) => x.steps.length === 2 || x.status !== 'running',
      5000,
    );
    expect(live.status).to.equal('running');
    expect(live.steps.map((e) => [e.step_id, e.status])).to.deep.equal([
      ['s1', 'completed'],
      ['s2', 'running'],
    ]);
    expect((await running).isError).to.not.equal(true);
  });

  it('§7 core_workflow_execution_list: summaries only, has_more, exact workflow_name, inprogress, bounds in words', async () => {
    await run('workflow_rec_fail');
    const page = await core<{ executions: Obj[]; total: number; limit: number; offset: number; has_more: boolean }>('core_workflow_execution_list', {
      workflow_name: 'rec_fail',
      limit: 1,
    });
    expect(page.total).to.be.at.least(2);
    expect(page).to.include({ limit: 1, offset: 0, has_more: true });
    const allowed = ['execution_id', 'workflow_name', 'status', 'started_at', 'completed_at', 'duration_ms', 'step_count', 'error'];
    expect(Object.keys(page.executions[0]!).filter((k) => !allowed.includes(k))).to.deep.equal([]);
    expect(page.executions[0]).to.include({ workflow_name: 'rec_fail', status: 'failed', step_count: 3 });
    const last = await core<{ has_more: boolean }>('core_workflow_execution_list', { workflow_name: 'rec_fail', offset: page.total - 1 });
    expect(last.has_more).to.equal(false);
    expect((await core<{ total: number }>('core_workflow_execution_list', { workflow_name: 'REC_FAIL' })).total).to.equal(0);
    const everything = await core<{ total: number }>('core_workflow_execution_list', { workflow_name: '' });
    expect(everything.total).to.be.greaterThan(page.total);
    // An empty status is no filter, as an empty workflow_name is (decisions.md; the reference refuses it).
    const unfiltered = await core<{ total: number }>('core_workflow_execution_list', { status: '' });
    expect(unfiltered.total).to.equal(everything.total);
    const running = await core<{ executions: Obj[] }>('core_workflow_execution_list', { status: 'inprogress' });
    expect(running.executions.every((e) => e.status === 'running')).to.equal(true);
    const list = (args: Obj) => callTool(client, 'core_workflow_execution_list', args);
    refused(await list({ limit: 0 }), 'limit must be at least 1 (minimum value)');
    refused(await list({ limit: 1001 }), 'limit must be at most 1000 (maximum value)');
    refused(await list({ offset: -1 }), 'offset must be at least 0 (minimum value)');
    refused(await list({ status: 'bogus' }), 'status must be one of the enum values: running, inprogress, completed, failed, cancelled');
  });
});
