import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectHttp,
  errorCode,
  EVERYTHING,
  meta,
  MEMORY,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';
import { readJsonPath } from '../../plugins/workflows/json-path.js';

type Obj = Record<string, unknown>;
interface StepRec {
  id: string;
  step_id?: string;
  path?: string;
  tool: string;
  status: string;
  started_at?: string;
  completed_at?: string;
  args?: unknown;
  result?: unknown;
  error?: string;
}
interface Execution {
  execution_id: string;
  status: string;
  error?: string;
  failure?: Obj;
  result?: Obj;
  steps?: StepRec[];
  rollback?: StepRec[];
}

const wf = (name: string, spec: string) => `apiVersion: switchboard.dev/v1alpha1\nkind: Workflow\nmetadata: { name: ${name} }\nspec:\n${spec}`;

const FILES = {
  'config.yaml': 'plugins:\n  workflows:\n    options: { maxRecordedResultBytes: 512 }\n',
  'workflows/big.yaml': wf(
    'big',
    '  args: { text: { type: string, required: true } }\n  steps:\n    - { id: say, tool: x_everything_echo, args: { message: "{{ .input.text }}" }, output: true }\n',
  ),
  'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
  'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER, [], 'toolPrefix: fx\n'),
  'mcpservers/memory.yaml': stdioServer('memory', MEMORY),
  'workflows/greet_each.yaml': wf(
    'greet_each',
    `  args: { names: { type: array, required: true } }
  steps:
    - id: greet
      forEach:
        items: "{{ .input.names }}"
        as: who
        steps:
          - { id: say, tool: x_everything_echo, args: { message: "hi {{ .vars.who }} #{{ .vars.who_index }}" } }
      output: true
    - id: count
      tool: x_fx_add
      args: { a: "{{ len .results.greet }}", b: 0 }
      output: true
    - id: first_checked
      tool: x_everything_echo
      condition: { fromStep: greet, expect: { json_path: { "$[0]": "Echo: hi ann #0" } } }
      args: { message: "first was ann" }
`,
  ),
  'workflows/slow_loop.yaml': wf(
    'slow_loop',
    `  args: { concurrency_note: { type: string, default: x } }
  steps:
    - id: waits
      forEach:
        items: [300, 300, 300]
        as: ms
        concurrency: 3
        steps:
          - { id: wait, tool: x_fx_slow, args: { ms: "{{ .vars.ms }}" } }
      output: true
`,
  ),
  'workflows/fanout.yaml': wf(
    'fanout',
    `  steps:
    - id: group
      parallel:
        - { id: left, tool: x_fx_slow, args: { ms: 300 } }
        - { id: right, tool: x_fx_slow, args: { ms: 300 } }
        - { id: broken, tool: x_fx_fail_rpc, allowFailure: true }
      output: true
    - id: after
      tool: x_everything_echo
      args: { message: "broken said: {{ .results.broken.error }}" }
      output: true
`,
  ),
  'workflows/guarded.yaml': wf(
    'guarded',
    `  steps:
    - id: create
      tool: x_memory_create_entities
      args: { entities: [ { name: "svc-{{ .vars.execution_id }}", entityType: service, observations: [created] } ] }
    - id: configure
      tool: x_fx_fail_rpc
    - id: never
      tool: x_everything_echo
      args: { message: unreachable }
  onFailure:
    - id: undo
      tool: x_memory_delete_entities
      args: { entityNames: [ "svc-{{ .vars.execution_id }}" ] }
    - id: note
      tool: x_everything_echo
      args: { message: "rolled back after {{ .error.step }} ({{ .error.tool }})" }
`,
  ),
  'workflows/shaped.yaml': wf(
    'shaped',
    `  args:
    names: { type: array, default: [a, b, c] }
    code: { type: string, default: "007" }
    n: { type: integer, default: 5 }
  steps:
    - id: pods
      tool: x_fx_add
      args: { a: 1, b: 2 }
    - id: big_only
      tool: x_fx_add
      condition: { template: "{{ gt .input.n 3 }}" }
      args: { a: 10, b: 0 }
    - id: small_only
      tool: x_fx_add
      condition: { template: "{{ lt .input.n 3 }}" }
      args: { a: 20, b: 0 }
  output:
    count: "{{ len .input.names }}"
    names: "{{ .input.names }}"
    code: "{{ .input.code }}"
    label: "pods: {{ .results.pods.sum }}"
    literal: "007"
    nested: [ "{{ .results.pods.sum }}", { big: "{{ .results.big_only.sum }}" } ]
`,
  ),
  'workflows/broken_output.yaml': wf(
    'broken_output',
    `  steps:
    - { id: pods, tool: x_fx_add, args: { a: 1, b: 1 } }
  output:
    missing: "{{ .results.nosuch.value }}"
`,
  ),
};

describe('workflows, round 2: loops, groups, rollback, shaped results, step records', () => {
  let sb: Running;
  let client: Client;
  const core = <T = Obj>(name: string, args: Obj = {}) => meta<T>(client, 'call_tool', { name, arguments: args });
  const execution = (id: string, extra: Obj = {}) => core<Execution>('core_workflow_execution_get', { execution_id: id, ...extra });
  const overlap = (recs: StepRec[]) => Math.max(...recs.map((r) => Date.parse(r.started_at!))) < Math.min(...recs.map((r) => Date.parse(r.completed_at!)));

  before(async () => {
    sb = await startSwitchboard(FILES);
    client = await connectHttp(sb.url);
  });

  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('loops over a list: per-item calls, .vars.<as> and its index, a list result in item order, every iteration recorded', async () => {
    const r = await callTool(client, 'workflow_greet_each', { names: ['ann', 'bob', 'cy'] });
    expect(r.isError, text(r)).to.not.equal(true);
    const doc = r.structuredContent as { status: string; input: Obj; steps: { id: string; result?: unknown }[] };
    expect(doc.status).to.equal('completed');
    expect(doc.input).to.deep.equal({ names: ['ann', 'bob', 'cy'] });
    // One entry per iteration under the body step's plain id; the loop's `output: true` is its body's default.
    expect(doc.steps.map((s) => [s.id, s.result])).to.deep.equal([
      ['say', 'Echo: hi ann #0'],
      ['say', 'Echo: hi bob #1'],
      ['say', 'Echo: hi cy #2'],
      ['count', { sum: 3 }],
      ['first_checked', undefined],
    ]);
    const ex = await execution((r.structuredContent as { execution_id: string }).execution_id);
    expect(ex.steps!.map((s) => [s.step_id, s.path, s.status])).to.deep.equal([
      ['say', 'greet[0].say', 'completed'],
      ['say', 'greet[1].say', 'completed'],
      ['say', 'greet[2].say', 'completed'],
      ['count', undefined, 'completed'],
      ['first_checked', undefined, 'completed'],
    ]);
    expect(ex.steps![1]!.args).to.deep.equal({ message: 'hi bob #1' });
  });

  it('runs loop iterations concurrently up to concurrency (their records overlap in time)', async () => {
    const r = await callTool(client, 'workflow_slow_loop');
    expect(r.isError, text(r)).to.not.equal(true);
    const ex = await execution((r.structuredContent as { execution_id: string }).execution_id);
    const iterations = ex.steps!.filter((s) => /^waits\[\d\]\.wait$/.test(s.path ?? ''));
    expect(iterations).to.have.length(3);
    expect(overlap(iterations)).to.equal(true);
    expect((r.structuredContent as { steps: { result: unknown }[] }).steps.map((s) => s.result)).to.deep.equal(['waited 300', 'waited 300', 'waited 300']);
  });

  it('runs a parallel group together: result keyed by member, a tolerated failure as its error', async () => {
    const r = await callTool(client, 'workflow_fanout');
    expect(r.isError, text(r)).to.not.equal(true);
    // Members in declaration order, each under its own id; a tolerated failure is `failed` with allow_failure.
    const [left, right, broken, after] = (r.structuredContent as { steps: { id: string; status: string; result: unknown; allow_failure?: boolean }[] }).steps;
    expect(left).to.deep.include({ id: 'left', result: 'waited 300' });
    expect(right).to.deep.include({ id: 'right', result: 'waited 300' });
    expect(broken).to.deep.include({ id: 'broken', status: 'failed', allow_failure: true });
    expect(broken!.result).to.deep.include({ success: false, isError: true });
    expect((broken!.result as { failure: Obj }).failure).to.deep.include({ step: 'broken', tool: 'x_fx_fail_rpc' });
    expect(after!.result).to.match(/^Echo: broken said: .*the fixture refuses: bad widget$/);
    const ex = await execution((r.structuredContent as { execution_id: string }).execution_id);
    const members = ex.steps!.filter((s) => ['left', 'right', 'broken'].includes(s.id));
    expect(members.map((m) => m.status).sort()).to.deep.equal(['completed', 'completed', 'failed']);
    expect(overlap(members.filter((m) => m.id !== 'broken'))).to.equal(true);
  });

  it('rolls back with onFailure after a failing step, records it, and returns the original error with its execution', async () => {
    const r = await callTool(client, 'workflow_guarded');
    expect(errorCode(r)).to.equal('WORKFLOW_FAILED');
    const details = (r.structuredContent as { error: { details: { execution_id: string; step: string; tool: string; message: string } } }).error.details;
    expect(details).to.deep.include({ step: 'configure', tool: 'x_fx_fail_rpc' });
    expect(details.message).to.include('the fixture refuses: bad widget');
    expect(text(r)).to.include("failed at step 'configure' (tool 'x_fx_fail_rpc')");

    const ex = await execution(details.execution_id);
    expect(ex.status).to.equal('failed');
    expect(ex.failure).to.deep.include({ step: 'configure', tool: 'x_fx_fail_rpc' });
    // Unreached steps have no entry; onFailure steps follow the failed one under their plain ids.
    expect(ex.steps!.map((s) => [s.step_id, s.path, s.status])).to.deep.equal([
      ['create', undefined, 'completed'],
      ['configure', undefined, 'failed'],
      ['undo', 'onFailure.undo', 'completed'],
      ['note', 'onFailure.note', 'completed'],
    ]);
    expect(ex.rollback).to.equal(undefined);
    expect(ex.steps![3]!.result).to.equal('Echo: rolled back after configure (x_fx_fail_rpc)');
    // The rollback really undid the mutation: the entity is gone from the memory server.
    const graph = await callTool(client, 'x_memory_read_graph');
    expect(JSON.stringify(graph)).to.not.include(`svc-${details.execution_id}`);

    // The failed run, fetched step by step and as a summary.
    const one = await execution(details.execution_id, { step_id: 'configure' });
    expect(one.steps).to.have.length(1);
    expect(one.steps![0]!.error).to.include('bad widget');
    const summary = await execution(details.execution_id, { summary: true });
    expect(summary.steps!.every((s) => s.result === undefined && s.args === undefined)).to.equal(true);
  });

  it('shapes the result with an output template: numbers, lists and strings keep their types; template conditions', async () => {
    const r = await callTool(client, 'workflow_shaped');
    expect(r.isError, text(r)).to.not.equal(true);
    // The document is the rendering plus execution_id (reference-behaviour.md §1.2).
    const { execution_id: id, ...doc } = r.structuredContent as Obj;
    expect(id).to.be.a('string');
    expect(doc).to.deep.equal({ count: 3, names: ['a', 'b', 'c'], code: '007', label: 'pods: 3', literal: '007', nested: [3, { big: 10 }] });
    const ex = await execution((r.structuredContent as { execution_id: string }).execution_id);
    expect(ex.steps!.find((s) => s.id === 'small_only')!.status).to.equal('skipped');
    expect(ex.steps!.find((s) => s.id === 'big_only')!.status).to.equal('completed');
  });

  it('a broken output template fails the run but loses nothing: the error beside every step result', async () => {
    const r = await callTool(client, 'workflow_broken_output');
    expect(r.isError).to.equal(true);
    expect(r.content).to.have.length(1);
    const doc = JSON.parse(text(r)) as { execution_id: string; status: string; output_error: string; steps: Obj[] };
    expect(doc.status).to.equal('failed');
    expect(doc.output_error).to.match(/^failed to render output template: .*nosuch/);
    expect(doc.steps).to.deep.equal([{ id: 'pods', tool: 'x_fx_add', status: 'completed', result: { sum: 2 } }]);
    expect((await execution(doc.execution_id)).status).to.equal('failed');
  });

  it('lists executions filtered by workflow and status, paged, with the total', async () => {
    await callTool(client, 'workflow_greet_each', { names: ['x'] });
    const page = await core<{ executions: { workflow_name: string; status: string }[]; total: number }>('core_workflow_execution_list', {
      workflow_name: 'greet_each',
      status: 'completed',
      limit: 1,
      offset: 1,
    });
    expect(page.total).to.be.at.least(2);
    expect(page.executions).to.have.length(1);
    expect(page.executions[0]).to.deep.include({ workflow_name: 'greet_each', status: 'completed' });
    const failed = await core<{ executions: { workflow_name: string }[] }>('core_workflow_execution_list', { status: 'failed', workflow_name: 'guarded' });
    expect(failed.executions.map((e) => e.workflow_name)).to.deep.equal(['guarded']);
  });

  it('says exactly what is wrong with a definition', async () => {
    // An invalid definition is an error result whose details hold the report (reference-behaviour.md §6.1).
    const check = async (steps: unknown[], extra: Obj = {}) => {
      const r = await callTool(client, 'core_workflow_validate', { name: 'probe', steps, ...extra });
      const report = (r.isError ? (r.structuredContent as { error: { details: Obj } }).error.details : r.structuredContent) as {
        valid: boolean;
        errors: string[];
        warnings: string[];
      };
      expect(r.isError === true, text(r)).to.equal(!report.valid);
      return report;
    };
    expect((await check([])).errors).to.deep.equal(['workflow must have at least one step']);
    expect(
      (
        await check([
          { id: 'a', tool: 'x_fx_ping' },
          { id: 'a', tool: 'x_fx_ping' },
        ])
      ).errors,
    ).to.deep.equal(["duplicate step ID 'a' found"]);
    expect((await check([{ id: 'l', forEach: { items: [1], steps: [{ id: 's', tool: 'x_fx_ping' }], concurrency: 0 } }])).errors).to.deep.equal([
      "step 'l': forEach.concurrency must be at least 1 (it is 0)",
    ]);
    // An empty args on a loop is accepted and ignored (the reference's way); arguments that would be dropped are refused.
    expect((await check([{ id: 'l', args: {}, forEach: { items: [1], steps: [{ id: 's', tool: 'x_fx_ping' }] } }])).valid).to.equal(true);
    expect((await check([{ id: 'l', args: { m: 1 }, forEach: { items: [1], steps: [{ id: 's', tool: 'x_fx_ping' }] } }])).errors).to.deep.equal([
      "step 'l': 'args' belong to tool steps; give them to the steps inside",
    ]);
    expect((await check([{ id: 'g', parallel: [{ id: 's', tool: 'x_fx_ping' }], maxConcurrency: 0 }])).errors).to.deep.equal([
      "step 'g': maxConcurrency must be at least 1 (it is 0)",
    ]);
    expect((await check([{ id: 'both', tool: 'x_fx_ping', parallel: [{ id: 's', tool: 'x_fx_ping' }] }])).errors[0]).to.equal(
      'step 0 (both): tool is mutually exclusive with forEach/parallel',
    );
    expect(
      (await check([{ id: 'l', forEach: { items: [1], steps: [{ id: 'inner', forEach: { items: [], steps: [{ id: 'x', tool: 'x_fx_ping' }] } }] } }])).errors,
    ).to.deep.equal([
      "step 'l' forEach sub-step 0 (inner): tool is required (loop bodies, groups and onFailure hold tool steps only: no nested forEach or parallel)",
    ]);
    const templates = await check([{ id: 'l', forEach: { items: [1], steps: [{ id: 'body', tool: 'x_fx_ping', args: { q: '{{ .vars.item' } }] } }], {
      onFailure: [{ id: 'undo', tool: 'x_fx_ping', args: { q: '{{ end }}' } }],
    });
    expect(templates.errors.join('\n'))
      .to.match(/step 'body', argument 'q'/)
      .and.match(/step 'undo', argument 'q'/);
    const missing = await check([{ id: 'g', parallel: [{ id: 's', tool: 'x_nowhere_tool' }] }], { onFailure: [{ id: 'u', tool: 'x_also_missing' }] });
    expect(missing.valid).to.equal(true);
    expect(missing.warnings.join('\n')).to.include("tool 'x_nowhere_tool' is not in the catalogue").and.include("tool 'x_also_missing'");
  });

  it('names the missing required input and a loop whose items are not a list', async () => {
    const r = await callTool(client, 'workflow_greet_each', {});
    expect(errorCode(r)).to.equal('INVALID_ARGUMENTS');
    expect(text(r)).to.include("input validation failed: required field 'names' is missing");
    await core('core_workflow_create', {
      name: 'not_a_list',
      args: { v: { type: 'string', default: 'abc' } },
      steps: [{ id: 'each', forEach: { items: '{{ .input.v }}', steps: [{ id: 's', tool: 'x_fx_ping' }] } }],
    });
    const bad = await callTool(client, 'workflow_not_a_list');
    expect(errorCode(bad)).to.equal('WORKFLOW_FAILED');
    expect(text(bad)).to.include("items expression '{{ .input.v }}' resolved to string, expected a list");
  });

  it('records a large step result truncated, with a marker and its size; the returned document is whole', async () => {
    const long = 'z'.repeat(2000);
    const r = await callTool(client, 'workflow_big', { text: long });
    const doc = r.structuredContent as { execution_id: string; steps: { result: string }[] };
    expect(doc.steps[0]!.result).to.equal(`Echo: ${long}`);
    const ex = await execution(doc.execution_id, { step_id: 'say' });
    expect(ex.steps![0]!.result).to.deep.include({ truncated: true, original_bytes: 2008 });
    expect(ex.steps![0]!.args).to.deep.include({ truncated: true });
  });

  it('reads json_path with bracket indices', () => {
    expect(readJsonPath({ items: [{ name: 'first' }, { name: 'second' }] }, 'items[0].name')).to.equal('first');
    expect(readJsonPath({ items: [{ name: 'first' }, { name: 'second' }] }, '$.items[1].name')).to.equal('second');
  });
});
