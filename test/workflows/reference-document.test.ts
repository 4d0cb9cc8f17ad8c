/**
 * reference-behaviour.md §1, §2, §4 and §5, through the protocol: the document a run returns
 * (completed, shaped by an output template, with `_debug`, failed), the result names templates
 * see, the workflow tool's input and the run-time wording clients match on.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, errorCode, EVERYTHING, meta, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';

type Obj = Record<string, unknown>;
const wf = (name: string, spec: string) => `apiVersion: switchboard.dev/v1alpha1\nkind: Workflow\nmetadata: { name: ${name} }\nspec:\n${spec}`;

const FILES = {
  'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
  'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER, [], 'toolPrefix: fx\n'),
  'workflows/ref_inner.yaml': wf('ref_inner', '  steps:\n    - { id: s, tool: x_fx_add, args: { a: 40, b: 2 } }\n'),
  'workflows/ref_doc.yaml': wf(
    'ref_doc',
    `  args: { env: { type: string, default: stage }, n: { type: integer, default: 3 } }
  steps:
    - id: gate
      tool: x_fx_ping
      condition: { template: '{{ eq .input.env "prod" }}' }
    - id: apply
      forEach:
        items: [2, 5]
        steps:
          - { id: apply_one, tool: x_fx_add, args: { a: "{{ .vars.item }}", b: 0 }, store: true }
    - id: nothing
      forEach: { items: [], steps: [ { id: never_runs, tool: x_fx_ping } ] }
    - id: skipped_loop
      condition: { template: "false" }
      forEach: { items: [1], steps: [ { id: not_this, tool: x_fx_ping } ] }
    - id: skipped_group
      condition: { fromStep: apply_one, expect: { json_path: { sum: 99 } } }
      parallel: [ { id: not_that, tool: x_fx_ping } ]
    - id: group
      parallel:
        - { id: slow_first, tool: x_fx_slow, args: { ms: 200 }, output: true }
        - { id: fast_second, tool: x_fx_add, args: { a: 1, b: "{{ .input.n }}" }, output: false, store: true }
    - id: checked
      tool: x_fx_add
      condition: { tool: x_fx_add, args: { a: "{{ .input.n }}", b: 0 }, expect: { json_path: { sum: "3" } } }
      args: { a: 1, b: 1 }
      output: true
    - { id: ping, tool: x_fx_fail_rpc, allowFailure: true }
    - { id: report, tool: workflow_ref_inner }
`,
  ),
  'workflows/ref_shaped.yaml': wf(
    'ref_shaped',
    `  args: { region: { type: string, default: eu }, b: { type: integer, default: 8 } }
  steps:
    - { id: list, tool: x_fx_add, args: { a: 1, b: 2 } }
  output:
    region: "{{ .input.region }}"
    podCount: "{{ .results.list.sum }}"
    whole: "{{ .results.list }}"
    n: "{{ len .input.region }}"
    padded: '{{ printf "%02d" .input.b }}'
    mixed: "sum={{ .results.list.sum }}"
    literal: 7
`,
  ),
  'workflows/ref_badout.yaml': wf(
    'ref_badout',
    '  steps:\n    - { id: only, tool: x_fx_add, args: { a: 1, b: 1 } }\n  output:\n    x: "{{ .results.nosuch.v }}"\n',
  ),
  'workflows/ref_fail.yaml': wf(
    'ref_fail',
    `  args: { app: { type: string, default: web } }
  steps:
    - { id: prep_step, tool: x_fx_add, args: { a: 1, b: 1 } }
    - { id: push_step, tool: x_fx_fail_rpc }
    - { id: never_step, tool: x_fx_ping }
  onFailure:
    - { id: undo_step, tool: x_everything_echo, args: { message: "undo {{ .input.app }} after {{ .error.step }}" } }
`,
  ),
  'workflows/ref_names.yaml': wf(
    'ref_names',
    `  steps:
    - id: loop
      forEach:
        items: [a, b, c]
        steps:
          - { id: say, tool: x_everything_echo, args: { message: "{{ .vars.item }}{{ .vars.item_index }}" } }
          - { id: again, tool: x_everything_echo, args: { message: "saw {{ .results.say }}" } }
    - id: grp
      parallel:
        - { id: m1, tool: x_fx_add, args: { a: 1, b: 2 } }
        - { id: m2, tool: x_fx_fail_rpc, allowFailure: true }
    - id: report
      tool: x_everything_echo
      output: true
      args:
        message: "{{ .results.say_0 }}|{{ .results.say_2 }}|{{ .results.say }}|{{ .results.again_1 }}|{{ .results.m1.sum }}|{{ .results.grp.m1.sum }}|{{ .results.m2.success }}|{{ .results.m2.isError }}|{{ .results.m2.failure.tool }}|{{ len .results.loop }}|{{ .context.m1.sum }}|{{ .results.m2.error }}"
`,
  ),
  'workflows/ref_blind.yaml': wf(
    'ref_blind',
    `  steps:
    - id: grp
      maxConcurrency: 1
      parallel:
        - { id: p1, tool: x_fx_add, args: { a: 1, b: 1 } }
        - { id: p2, tool: x_everything_echo, args: { message: "{{ .results.p1.sum }}" }, allowFailure: true }
`,
  ),
  'workflows/ref_free.yaml': wf('ref_free', '  steps:\n    - { id: s, tool: x_everything_echo, args: { message: "{{ .input.anything }}" } }\n'),
  'workflows/ref_req.yaml': wf('ref_req', '  args: { count: { type: integer, required: true } }\n  steps:\n    - { id: s, tool: x_fx_ping }\n'),
  'workflows/ref_ghost.yaml': wf(
    'ref_ghost',
    `  steps:
    - id: loop
      forEach: { items: [1], steps: [ { id: body, tool: x_ghost_two } ] }
  onFailure:
    - { id: undo, tool: x_ghost_gone }
`,
  ),
  'workflows/ref_badarg.yaml': wf('ref_badarg', '  steps:\n    - { id: s, tool: x_everything_echo, args: { message: "{{ .results.nosuch.text }}" } }\n'),
};

/** The one text content of a workflow result, which must be its JSON document. */
function documentOf(r: CallToolResult): Obj {
  expect(r.content, JSON.stringify(r.content)).to.have.length(1);
  return JSON.parse(text(r)) as Obj;
}

describe('workflows as the reference has them: the returned document, result names, input, wording', () => {
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard(FILES);
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('§1.1 a completed run: one JSON text; input with undeclared arguments; an entry per step reached; template_vars; the last step merged', async () => {
    const r = await callTool(client, 'workflow_ref_doc', { extra: 'kept' });
    expect(r.isError, text(r)).to.not.equal(true);
    const doc = documentOf(r);
    expect(doc).to.deep.equal(r.structuredContent);
    expect(doc.workflow).to.equal('ref_doc');
    expect(doc.status).to.equal('completed');
    expect(doc.execution_id).to.be.a('string');
    expect(doc.input).to.deep.equal({ extra: 'kept', env: 'stage', n: 3 });
    expect(doc.template_vars).to.deep.equal(['input.env', 'input.n']);
    expect(doc.steps).to.deep.equal([
      { id: 'gate', tool: 'x_fx_ping', status: 'skipped', condition_evaluation: false, condition_tool: 'template', condition_result: false },
      // A loop has no entry of its own: one per iteration, under the body step's plain id; store: true shows the result.
      { id: 'apply_one', tool: 'x_fx_add', status: 'completed', result: { sum: 2 } },
      { id: 'apply_one', tool: 'x_fx_add', status: 'completed', result: { sum: 5 } },
      // The empty loop adds nothing; a loop or group whose condition is false has one skipped entry.
      { id: 'skipped_loop', tool: 'forEach', status: 'skipped', condition_evaluation: false, condition_tool: 'template', condition_result: 'false' },
      {
        id: 'skipped_group',
        tool: 'parallel',
        status: 'skipped',
        condition_evaluation: false,
        condition_tool: 'from_step:apply_one',
        condition_result: { sum: 5 },
      },
      // Members in declaration order, though the first finishes last; output: false beats store: true.
      { id: 'slow_first', tool: 'x_fx_slow', status: 'completed', result: 'waited 200' },
      { id: 'fast_second', tool: 'x_fx_add', status: 'completed' },
      {
        id: 'checked',
        tool: 'x_fx_add',
        status: 'completed',
        condition_evaluation: true,
        condition_tool: 'x_fx_add',
        condition_result: { sum: 3 },
        result: { sum: 2 },
      },
      // No "tolerated" status: failed, with allow_failure.
      { id: 'ping', tool: 'x_fx_fail_rpc', status: 'failed', allow_failure: true, error: (doc.steps as Obj[])[8]!.error },
      { id: 'report', tool: 'workflow_ref_inner', status: 'completed' },
    ]);
    expect((doc.steps as Obj[])[8]!.error).to.include('the fixture refuses: bad widget');
    // The final step's object lends the keys the document lacks and never overwrites its own.
    expect(doc.sum).to.equal(42);
    expect(Object.keys(doc).filter((k) => k !== 'sum')).to.deep.equal(['execution_id', 'workflow', 'status', 'input', 'steps', 'template_vars']);
  });

  it('§1.2 an output template: the document is the rendering plus execution_id, leaves keep their types', async () => {
    const doc = documentOf(await callTool(client, 'workflow_ref_shaped'));
    expect(doc).to.deep.equal({
      execution_id: doc.execution_id,
      region: 'eu',
      podCount: 3,
      whole: { sum: 3 },
      n: 2,
      padded: '08',
      mixed: 'sum=3',
      literal: 7,
    });
  });

  it('§1.2 _debug (true or "true"): the full document, every result shown, the rendering under output; _debug never reaches .input', async () => {
    for (const flag of [true, 'true']) {
      const doc = documentOf(await callTool(client, 'workflow_ref_shaped', { _debug: flag }));
      expect(doc).to.include({ workflow: 'ref_shaped', status: 'completed' });
      expect(doc.input).to.deep.equal({ region: 'eu', b: 8 });
      expect(doc.steps).to.deep.equal([{ id: 'list', tool: 'x_fx_add', status: 'completed', result: { sum: 3 } }]);
      expect(doc.template_vars).to.deep.equal([]);
      expect(doc.output).to.deep.include({ region: 'eu', podCount: 3, padded: '08' });
    }
    const plain = documentOf(await callTool(client, 'workflow_ref_doc', { _debug: true }));
    expect(plain.input).to.deep.equal({ env: 'stage', n: 3 });
    // With _debug, entries that are not output-enabled show their results too.
    expect((plain.steps as Obj[]).find((s) => s.id === 'fast_second')!.result).to.deep.equal({ sum: 4 });
  });

  it('§1.2 an output template that does not render fails the run: isError, the debug document plus output_error', async () => {
    const r = await callTool(client, 'workflow_ref_badout');
    expect(r.isError).to.equal(true);
    expect(errorCode(r)).to.equal('WORKFLOW_FAILED');
    const doc = documentOf(r);
    expect(doc.output_error).to.match(/^failed to render output template: .*"nosuch"/);
    expect(doc.steps).to.deep.equal([{ id: 'only', tool: 'x_fx_add', status: 'completed', result: { sum: 2 } }]);
    const record = await meta<{ status: string }>(client, 'call_tool', { name: 'core_workflow_execution_get', arguments: { execution_id: doc.execution_id } });
    expect(record.status).to.equal('failed');
  });

  it('§1.3 a failed run: one JSON text with execution_id, a top-level error, the upstream words, onFailure steps under plain ids', async () => {
    const r = await callTool(client, 'workflow_ref_fail');
    expect(r.isError).to.equal(true);
    const doc = documentOf(r);
    expect(doc).to.include({ workflow: 'ref_fail', status: 'failed' });
    expect(doc.input).to.deep.equal({ app: 'web' });
    expect(doc.error).to.be.a('string').that.includes('the fixture refuses: bad widget');
    const steps = doc.steps as Obj[];
    expect(steps.map((s) => [s.id, s.status])).to.deep.equal([
      ['prep_step', 'completed'],
      ['push_step', 'failed'],
      ['undo_step', 'completed'],
    ]);
    expect(steps[1]!.error).to.include('the fixture refuses: bad widget');
    expect(steps[2]!.allow_failure).to.equal(true);
    expect(doc.template_vars).to.deep.equal(['input.app']);
    // structuredContent.error is unchanged: code, message and the execution in its details.
    const error = (r.structuredContent as { error: { code: string; details: { execution_id: string; step: string } } }).error;
    expect(error.code).to.equal('WORKFLOW_FAILED');
    expect(error.details).to.deep.include({ execution_id: doc.execution_id, step: 'push_step' });
  });

  it('§2 result names: per-iteration and last-iteration names, members by their own id, the failure object, .context', async () => {
    const doc = documentOf(await callTool(client, 'workflow_ref_names'));
    const report = (doc.steps as Obj[]).find((s) => s.id === 'report')!;
    const fields = (report.result as string).replace(/^Echo: /, '').split('|');
    expect(fields.slice(0, 11)).to.deep.equal(['Echo: a0', 'Echo: c2', 'Echo: c2', 'Echo: saw Echo: b1', '3', '3', 'false', 'true', 'x_fx_fail_rpc', '3', '3']);
    expect(fields[11]).to.include('the fixture refuses: bad widget');
  });

  it('§2 group members do not see each other', async () => {
    const doc = documentOf(await callTool(client, 'workflow_ref_blind'));
    const p2 = (doc.steps as Obj[]).find((s) => s.id === 'p2')!;
    expect(p2).to.include({ status: 'failed', allow_failure: true });
    expect(p2.error).to.include('"p1"');
  });

  it('§4 undeclared arguments are accepted and reach .input; a workflow without args takes anything', async () => {
    const doc = documentOf(await callTool(client, 'workflow_ref_free', { anything: 'goes', nested: { a: [1] } }));
    expect(doc.input).to.deep.equal({ anything: 'goes', nested: { a: [1] } });
    const described = await meta<{ inputSchema: Obj }>(client, 'describe_tool', { name: 'workflow_ref_free' });
    expect(described.inputSchema.additionalProperties).to.equal(undefined);
  });

  it('§4 declared arguments are checked, in the words clients match', async () => {
    const missing = await callTool(client, 'workflow_ref_req');
    expect(errorCode(missing)).to.equal('INVALID_ARGUMENTS');
    expect(text(missing)).to.include("input validation failed: required field 'count' is missing");
    const wrong = await callTool(client, 'workflow_ref_req', { count: 'three' });
    expect(errorCode(wrong)).to.equal('INVALID_ARGUMENTS');
    expect(text(wrong)).to.include("input validation failed: field 'count' has wrong type, expected integer");
    expect(documentOf(await callTool(client, 'workflow_ref_req', { count: 3 })).status).to.equal('completed');
  });

  it('§5 run-time wording: not available, not found, arguments that do not render, items that are not a list', async () => {
    const ghost = await callTool(client, 'workflow_ref_ghost');
    expect(errorCode(ghost)).to.equal('WORKFLOW_UNAVAILABLE');
    // Tools of loop bodies and onFailure count.
    expect(text(ghost)).to.include("workflow 'ref_ghost' is not available (missing required tools: x_ghost_gone, x_ghost_two)");
    const unknown = await callTool(client, 'core_workflow_get', { name: 'nosuch' });
    expect(text(unknown)).to.include('workflow nosuch not found');
    const badarg = documentOf(await callTool(client, 'workflow_ref_badarg'));
    expect(badarg.error).to.include("failed to render arguments for argument 'message'").and.include('"nosuch"');
    await meta(client, 'call_tool', {
      name: 'core_workflow_create',
      arguments: { name: 'ref_notalist', steps: [{ id: 'each', forEach: { items: '{{ .vars.workflow }}', steps: [{ id: 's', tool: 'x_fx_ping' }] } }] },
    });
    const notalist = await callTool(client, 'workflow_ref_notalist');
    expect(text(notalist)).to.include("items expression '{{ .vars.workflow }}' resolved to string, expected a list");
  });
});
