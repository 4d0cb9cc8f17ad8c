import { expect } from 'chai';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectHttp,
  connectHttpWithHeaders,
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

const PIPELINE = `apiVersion: switchboard.dev/v1alpha1
kind: Workflow
metadata:
  name: pipeline
  labels:
    team: sre
spec:
  description: Add two numbers, say the sum, and report.
  args:
    a: { type: number, required: true, description: First addend }
    b: { type: number, default: 10 }
    note: { type: string, default: none }
  steps:
    - id: sum
      tool: x_fx_add
      args: { a: "{{ .input.a }}", b: "{{ .input.b }}" }
      store: true
    - id: say
      tool: x_everything_echo
      args: { message: "sum={{ .results.sum.sum }} note={{ .input.note }}" }
      store: true
    - id: only_if_big
      tool: x_everything_echo
      condition:
        tool: x_fx_add
        args: { a: "{{ .results.sum.sum }}", b: 0 }
        expect: { json_path: { "$.sum": 100 } }
      args: { message: big }
    - id: risky
      tool: x_fx_fail_rpc
      allowFailure: true
    - id: after_risky
      tool: x_everything_echo
      condition: { fromStep: risky, expect: { success: true } }
      args: { message: unreachable }
    - id: report
      tool: x_fx_add
      args: { a: "{{ .context.sum.sum }}", b: 1 }
      outputs:
        total: "{{ .result.sum }}"
        said: "{{ .results.say }}"
`;

const BROKEN_KEY = `apiVersion: switchboard.dev/v1alpha1
kind: Workflow
metadata: { name: broken_key }
spec:
  steps:
    - id: first
      tool: x_fx_ping
    - id: second
      tool: x_everything_echo
      args: { message: "{{ .results.nosuch.text }}" }
`;

const NESTED = `apiVersion: switchboard.dev/v1alpha1
kind: Workflow
metadata: { name: nested }
spec:
  args:
    n: { type: integer, required: true }
  steps:
    - id: inner
      tool: workflow_pipeline
      args: { a: "{{ .input.n }}", note: nested }
      store: true
    - id: echo
      tool: x_everything_echo
      args: { message: "inner total {{ .results.inner.outputs.total }}" }
`;

const READERS = `apiVersion: switchboard.dev/v1alpha1
kind: Workflow
metadata: { name: readers }
spec:
  steps:
    - { id: p, tool: x_fx_ping }
    - { id: a, tool: x_fx_add, args: { a: 1, b: 2 } }
`;

const GHOST = `apiVersion: switchboard.dev/v1alpha1
kind: Workflow
metadata: { name: ghost }
spec:
  steps:
    - { id: g, tool: x_ghost_vanish }
`;

const SLOW = `apiVersion: switchboard.dev/v1alpha1
kind: Workflow
metadata: { name: slow }
spec:
  steps:
    - { id: one, tool: x_fx_slow, args: { ms: 100 } }
    - { id: two, tool: x_fx_slow, args: { ms: 3000 } }
    - { id: three, tool: x_fx_ping }
`;

interface Execution {
  execution_id: string;
  workflow_name: string;
  status: string;
  error?: string;
  result?: unknown;
  duration_ms?: number;
  steps?: { id: string; status: string; args?: unknown; error?: string }[];
}

describe('workflows: Go-template workflows run through call_tool', () => {
  let sb: Running;
  let client: Client;
  const files = {
    // A removed file waits the save grace (1 s by default: a save by rename moves it away
    // first); shorter here, where an edit and a removal are each held to a second.
    'config.yaml': 'plugins:\n  store-files:\n    options: { saveGraceMs: 250 }\n',
    'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
    'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER, [], 'toolPrefix: fx\n'),
    'workflows/pipeline.yaml': PIPELINE,
    'workflows/broken-key.yaml': BROKEN_KEY,
    'workflows/nested.yaml': NESTED,
    'workflows/readers.yaml': READERS,
    'workflows/ghost.yaml': GHOST,
    'workflows/slow.yaml': SLOW,
  };

  before(async () => {
    sb = await startSwitchboard(files);
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  const execution = (id: string, extra: Record<string, unknown> = {}) =>
    meta<Execution>(client, 'call_tool', { name: 'core_workflow_execution_get', arguments: { execution_id: id, ...extra } });

  it('lists workflow_<name> tools with inputSchema from args, labels and a derived readOnlyHint', async () => {
    const d = await meta<{
      inputSchema: { properties: Record<string, { type: string; default?: unknown }>; required: string[] };
      labels: Record<string, string>;
      kind: string;
      annotations: { readOnlyHint: boolean };
    }>(client, 'describe_tool', { name: 'workflow_pipeline' });
    expect(d.kind).to.equal('workflow');
    expect(d.inputSchema.properties.a!.type).to.equal('number');
    expect(d.inputSchema.properties.b!.default).to.equal(10);
    expect(d.inputSchema.required).to.deep.equal(['a']);
    expect(d.labels).to.deep.equal({ team: 'sre' });
    expect(d.annotations.readOnlyHint).to.equal(false);
    const readers = await meta<{ annotations: { readOnlyHint: boolean } }>(client, 'describe_tool', { name: 'workflow_readers' });
    expect(readers.annotations.readOnlyHint).to.equal(true);
    const byLabel = await meta<{ tools: { name: string }[] }>(client, 'filter_tools', { labels: { team: 'sre' } });
    expect(byLabel.tools.map((t) => t.name)).to.deep.equal(['workflow_pipeline']);
  });

  it('runs a multi-step workflow: store, nested fields, both condition forms, allowFailure, outputs, defaults', async () => {
    const r = await callTool(client, 'workflow_pipeline', { a: 5 });
    expect(r.isError, text(r)).to.not.equal(true);
    const out = r.structuredContent as { execution_id: string; status: string; outputs: { total: number; said: string } };
    expect(out.status).to.equal('completed');
    expect(out.outputs).to.deep.equal({ total: 16, said: 'Echo: sum=15 note=none' });
    const ex = await execution(out.execution_id);
    expect(ex.steps!.map((s) => [s.id, s.status])).to.deep.equal([
      ['sum', 'completed'],
      ['say', 'completed'],
      ['only_if_big', 'skipped'],
      // A tolerated failure is `failed`, marked tolerated (reference-behaviour.md §1.1, §7).
      ['risky', 'failed'],
      ['after_risky', 'skipped'],
      ['report', 'completed'],
    ]);
    // A single-action template yields the typed value, not its string.
    expect(ex.steps![0]!.args).to.deep.equal({ a: 5, b: 10 });
    expect(ex.steps![3]!.error).to.include('bad widget');
    expect(ex.steps![3]).to.deep.include({ tolerated: true });
  });

  it('runs a conditional step when its condition holds', async () => {
    const r = await callTool(client, 'workflow_pipeline', { a: 90 });
    const ex = await execution((r.structuredContent as { execution_id: string }).execution_id);
    expect(ex.steps!.find((s) => s.id === 'only_if_big')!.status).to.equal('completed');
  });

  it('rejects a missing required input and a type mismatch before running', async () => {
    const missing = await callTool(client, 'workflow_pipeline', {});
    expect(errorCode(missing)).to.equal('INVALID_ARGUMENTS');
    expect(text(missing)).to.include("input validation failed: required field 'a' is missing");
    const wrong = await callTool(client, 'workflow_pipeline', { a: 'five' });
    expect(errorCode(wrong)).to.equal('INVALID_ARGUMENTS');
    expect(text(wrong)).to.include("input validation failed: field 'a' has wrong type, expected number");
  });

  it('fails the execution on a missing key, naming the key and the step', async () => {
    const r = await callTool(client, 'workflow_broken_key');
    expect(r.isError).to.equal(true);
    expect(errorCode(r)).to.equal('WORKFLOW_FAILED');
    // The text is the run's JSON document (reference-behaviour.md §1.3); its error names key and step.
    const doc = JSON.parse(text(r)) as { error: string; steps: { id: string; error?: string }[] };
    expect(doc.error).to.include("step 'second'").and.include('"nosuch"');
    expect(doc.steps.find((s) => s.id === 'second')!.error).to.include("failed to render arguments for argument 'message'");
    const id = (r.structuredContent as { error: { details: { execution_id: string } } }).error.details.execution_id;
    const ex = await execution(id);
    expect(ex.status).to.equal('failed');
    expect(ex.steps!.map((s) => s.status)).to.deep.equal(['completed', 'failed']);
  });

  it('runs a nested workflow as a step', async () => {
    const r = await callTool(client, 'workflow_nested', { n: 1 });
    expect(r.isError, text(r)).to.not.equal(true);
    const ex = await execution((r.structuredContent as { execution_id: string }).execution_id);
    expect(ex.steps!.map((s) => s.status)).to.deep.equal(['completed', 'completed']);
    // The final step is not output-enabled: its result is in the record, not in the document.
    expect(JSON.stringify(ex.steps![1])).to.include('inner total 12');
  });

  it('reports a workflow whose tools are missing as unavailable, and refuses to run it naming them', async () => {
    const list = await meta<{ workflows: { name: string; available: boolean }[] }>(client, 'call_tool', { name: 'core_workflow_list' });
    expect(list.workflows.find((w) => w.name === 'ghost')!.available).to.equal(false);
    expect(list.workflows.find((w) => w.name === 'pipeline')!.available).to.equal(true);
    const av = await meta<{ available: boolean; missing_tools: string[] }>(client, 'call_tool', {
      name: 'core_workflow_available',
      arguments: { name: 'ghost' },
    });
    expect(av).to.deep.include({ available: false, missing_tools: ['x_ghost_vanish'] });
    const r = await callTool(client, 'workflow_ghost');
    expect(errorCode(r)).to.equal('WORKFLOW_UNAVAILABLE');
    expect(text(r)).to.include('x_ghost_vanish');
  });

  it('sends a progress notification per step when the client asks for progress', async () => {
    const progress: number[] = [];
    const r = await client.callTool({ name: 'call_tool', arguments: { name: 'workflow_readers', arguments: {} } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(r.isError).to.not.equal(true);
    expect(progress).to.deep.equal([0, 1, 2]);
  });

  it('cancels a running workflow when the client cancels the request', async () => {
    const ctl = new AbortController();
    const running = client
      .callTool({ name: 'call_tool', arguments: { name: 'workflow_slow', arguments: {} } }, undefined, { signal: ctl.signal })
      .catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 600));
    ctl.abort();
    await running;
    const list = await eventually(
      () => meta<{ executions: Execution[] }>(client, 'call_tool', { name: 'core_workflow_execution_list', arguments: { workflow_name: 'slow' } }),
      (x) => x.executions[0]?.status === 'cancelled',
      5000,
    );
    const ex = await execution(list.executions[0]!.execution_id);
    // Steps never reached have no entry (reference-behaviour.md §7).
    expect(ex.steps!.map((s) => s.status)).to.deep.equal(['completed', 'cancelled']);
  });

  it('lists executions newest first, filtered by status and workflow and paged; fetches with and without steps', async () => {
    const all = await meta<{ executions: Execution[]; total: number; limit: number }>(client, 'call_tool', { name: 'core_workflow_execution_list' });
    expect(all.limit).to.equal(50);
    expect(all.total).to.be.at.least(5);
    const failed = await meta<{ executions: Execution[] }>(client, 'call_tool', { name: 'core_workflow_execution_list', arguments: { status: 'failed' } });
    expect(failed.executions.every((e) => e.status === 'failed')).to.equal(true);
    expect(failed.executions.map((e) => e.workflow_name)).to.include('broken_key');
    const pipeline = await meta<{ executions: Execution[]; total: number }>(client, 'call_tool', {
      name: 'core_workflow_execution_list',
      arguments: { workflow_name: 'pipeline', limit: 1, offset: 1 },
    });
    expect(pipeline.executions).to.have.length(1);
    expect(pipeline.total).to.be.at.least(3);
    const id = pipeline.executions[0]!.execution_id;
    const without = await execution(id, { include_steps: false });
    expect(without.steps).to.equal(undefined);
    const one = await execution(id, { step_id: 'report' });
    expect(one.steps!.map((s) => s.id)).to.deep.equal(['report']);
    const bogus = await callTool(client, 'core_workflow_execution_get', { execution_id: 'nope' });
    expect(errorCode(bogus)).to.equal('NOT_FOUND');
  });

  it('changes workflow_<name> within 1 s of a file edit; a broken edit keeps the last good definition', async () => {
    const file = join(sb.configDir, 'workflows', 'live.yaml');
    const live = (msg: string) =>
      `apiVersion: v1\nkind: Workflow\nmetadata: { name: live }\nspec:\n  description: ${msg}\n  steps:\n    - { id: s, tool: x_fx_ping }\n`;
    const t0 = Date.now();
    await writeFile(`${file}.tmp`, live('first version'));
    await rename(`${file}.tmp`, file);
    await eventually(
      () => meta<{ description?: string }>(client, 'describe_tool', { name: 'workflow_live' }),
      (d) => d.description === 'first version',
      1000,
      20,
    );
    expect(Date.now() - t0).to.be.below(1000);
    await writeFile(file, live('second version'));
    await eventually(
      () => meta<{ description?: string }>(client, 'describe_tool', { name: 'workflow_live' }),
      (d) => d.description === 'second version',
      1000,
      20,
    );
    await writeFile(
      file,
      'apiVersion: v1\nkind: Workflow\nmetadata: { name: live }\nspec:\n  steps:\n    - { id: s, tool: x_fx_ping, args: { m: "{{ .input.x " } }\n',
    );
    await sb.waitForLog(/live\.yaml:\d+:\d+: spec: template: step 's', argument 'm':1:13: unclosed action.*keeping the last good definition/, 2000);
    const d = await meta<{ description?: string }>(client, 'describe_tool', { name: 'workflow_live' });
    expect(d.description).to.equal('second version');
    await rm(file);
    await eventually(
      () => meta<{ tools: unknown[] }>(client, 'filter_tools', { pattern: 'workflow_live' }),
      (x) => x.tools.length === 0,
      1000,
      20,
    );
  });

  it("applies the caller's toolset to every step: a step outside it fails the run", async () => {
    const { client: narrowed, setHeaders } = await connectHttpWithHeaders(sb.url);
    try {
      // The workflow itself is inside the toolset, but one of its steps' tools is not.
      setHeaders({ 'X-Service-Toolset': 'workflow:readers, tool:x_fx_add' });
      const r = await callTool(narrowed, 'workflow_readers');
      expect(errorCode(r)).to.equal('WORKFLOW_FAILED');
      expect(text(r)).to.include("Tool 'x_fx_ping' is outside the toolset [workflow:readers, tool:x_fx_add]");
      setHeaders({ 'X-Service-Toolset': 'workflow:readers, server:fixture' });
      expect((await callTool(narrowed, 'workflow_readers')).isError).to.not.equal(true);
    } finally {
      await narrowed.close();
    }
  });

  it('keeps execution history across a restart', async () => {
    const r = await callTool(client, 'workflow_readers');
    const id = (r.structuredContent as { execution_id: string }).execution_id;
    await client.close();
    const dir = sb.configDir;
    sb.proc.kill('SIGTERM');
    await new Promise((res) => sb.proc.once('exit', res));
    sb = await startSwitchboard({}, { configDir: dir });
    client = await connectHttp(sb.url);
    const ex = await execution(id);
    expect(ex.status).to.equal('completed');
    expect(ex.steps!.map((s) => s.status)).to.deep.equal(['completed', 'completed']);
  });
});
