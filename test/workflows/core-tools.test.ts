import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, errorCode, makeConfigDir, meta, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';

type Obj = Record<string, unknown>;
const core = <T = Obj>(client: Client, name: string, args: Obj = {}) => meta<T>(client, 'call_tool', { name, arguments: args });

describe('core_workflow_* tools (tool form)', () => {
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({ 'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER, [], 'toolPrefix: fx\n') });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  const definition = {
    name: 'double',
    description: 'Double a number, and ping when it is large.',
    args: { n: { type: 'integer', required: true } },
    steps: [
      { id: 'add', tool: 'x_fx_add', args: { a: '{{ .input.n }}', b: '{{ .input.n }}' }, store: true },
      {
        id: 'ping_if_big',
        tool: 'x_fx_ping',
        condition: { tool: 'x_fx_add', args: { a: '{{ .results.add.sum }}', b: 0 }, expect: { json_path: { '$.sum': 20 } } },
      },
      { id: 'maybe_fail', tool: 'x_fx_fail_rpc', allow_failure: true },
      { id: 'after', tool: 'x_fx_ping', condition: { fromStep: 'maybe_fail', expect: { success: false } }, outputs: { doubled: '{{ .results.add.sum }}' } },
    ],
  };

  it('validates without creating: valid, tool availability, nothing written', async () => {
    const r = await core<{ valid: boolean; errors: string[]; tools: { missing: string[]; available: boolean } }>(client, 'core_workflow_validate', definition);
    expect(r).to.deep.include({ valid: true, errors: [] });
    expect(r.tools).to.deep.include({ missing: [], available: true });
    expect(existsSync(join(sb.configDir, 'workflows', 'double.yaml'))).to.equal(false);
  });

  /** An invalid definition is an error result (reference-behaviour.md §6.1): the report is in its details. */
  const invalid = async (args: Obj) => {
    const r = await callTool(client, 'core_workflow_validate', args);
    expect(r.isError, text(r)).to.equal(true);
    expect(errorCode(r)).to.equal('VALIDATION_FAILED');
    return (r.structuredContent as { error: { details: { valid: boolean; errors: string[] } } }).error.details;
  };

  it('reports every kind of invalid definition', async () => {
    const r = await invalid({
      name: 'bad',
      args: { n: { type: 'integer', default: 'ten' } },
      steps: [
        { id: 's', tool: 'x_fx_ping', args: { m: '{{ .input.n ' } },
        { id: 's', tool: 'x_fx_ping' },
        { id: 't', tool: 'x_fx_ping', condition: { fromStep: 'later' } },
      ],
    });
    expect(r.valid).to.equal(false);
    const all = r.errors.join('\n');
    expect(all).to.include(`argument 'n': default "ten" is not of type integer`);
    expect(all).to.include("step 's', argument 'm'");
    expect(all).to.include("duplicate step ID 's' found");
    expect(all).to.include("fromStep 'later' is not an earlier step");
    const empty = await invalid({ name: 'empty', steps: [] });
    expect(empty.valid).to.equal(false);
    expect(empty.errors).to.deep.equal(['workflow must have at least one step']);
    const create = await callTool(client, 'core_workflow_create', { name: 'empty', steps: [] });
    expect(errorCode(create)).to.equal('VALIDATION_FAILED');
    expect(text(create)).to.equal('validation failed: workflow must have at least one step');
  });

  it('warns about unknown tools: the workflow would be defined but unavailable', async () => {
    const r = await core<{ valid: boolean; warnings: string[]; tools: { missing: string[] } }>(client, 'core_workflow_validate', {
      name: 'w',
      steps: [{ id: 'a', tool: 'x_nowhere_tool' }],
    });
    expect(r.valid).to.equal(true);
    expect(r.tools.missing).to.deep.equal(['x_nowhere_tool']);
    expect(r.warnings.join()).to.include('x_nowhere_tool');
  });

  it('creates a workflow: a file in workflows/, workflow_<name> runs at once', async () => {
    const created = await core<{ name: string; available: boolean }>(client, 'core_workflow_create', definition);
    expect(created).to.deep.include({ name: 'double', available: true });
    const file = join(sb.configDir, 'workflows', 'double.yaml');
    expect(readFileSync(file, 'utf8')).to.include('kind: Workflow').and.include('allow_failure: true');
    const run = await callTool(client, 'workflow_double', { n: 10 });
    expect(run.isError, text(run)).to.not.equal(true);
    expect((run.structuredContent as { outputs: Obj }).outputs).to.deep.equal({ doubled: 20 });
    const conflict = await callTool(client, 'core_workflow_create', definition);
    expect(errorCode(conflict)).to.equal('CONFLICT');
  });

  it('gets the complete definition and lists it as available', async () => {
    const got = await core<{ name: string; steps: unknown[]; args: Obj; available: boolean }>(client, 'core_workflow_get', { name: 'double' });
    expect(got.steps).to.have.length(4);
    expect(got.args).to.deep.equal({ n: { type: 'integer', required: true } });
    const list = await core<{ workflows: Obj[] }>(client, 'core_workflow_list');
    expect(list.workflows).to.deep.include({ name: 'double', description: 'Double a number, and ping when it is large.', available: true });
  });

  it('refuses a nested-workflow cycle', async () => {
    await core(client, 'core_workflow_create', { name: 'a', steps: [{ id: 'x', tool: 'x_fx_ping' }] });
    await core(client, 'core_workflow_create', { name: 'b', steps: [{ id: 'y', tool: 'workflow_a' }] });
    const r = await callTool(client, 'core_workflow_update', { name: 'a', steps: [{ id: 'x', tool: 'workflow_b' }] });
    expect(errorCode(r)).to.equal('VALIDATION_FAILED');
    expect(text(r)).to.include('cycle: a -> b -> a');
  });

  it('updates: steps replace all steps, other fields stay', async () => {
    const updated = await core<{ steps: { id: string }[]; description: string }>(client, 'core_workflow_update', {
      name: 'double',
      steps: [{ id: 'only', tool: 'x_fx_add', args: { a: '{{ .input.n }}', b: 1 } }],
    });
    expect(updated.steps.map((s) => s.id)).to.deep.equal(['only']);
    expect(updated.description).to.equal('Double a number, and ping when it is large.');
    const run = await callTool(client, 'workflow_double', { n: 4 });
    // No step is output-enabled: the entry has no result, and the final step's object lends its keys to the document.
    const doc = run.structuredContent as { steps: { id: string; result?: unknown }[]; sum: number };
    expect(doc.steps).to.deep.equal([{ id: 'only', tool: 'x_fx_add', status: 'completed' }]);
    expect(doc.sum).to.equal(5);
  });

  it('deletes a workflow; its execution history stays', async () => {
    const before = await core<{ total: number }>(client, 'core_workflow_execution_list', { workflow_name: 'double' });
    expect(before.total).to.equal(2);
    const r = await core<{ status: string }>(client, 'core_workflow_delete', { name: 'double' });
    expect(r.status).to.equal('deleted');
    expect(existsSync(join(sb.configDir, 'workflows', 'double.yaml'))).to.equal(false);
    expect(errorCode(await callTool(client, 'workflow_double', { n: 1 }))).to.equal('TOOL_NOT_FOUND');
    const after = await core<{ total: number }>(client, 'core_workflow_execution_list', { workflow_name: 'double' });
    expect(after.total).to.equal(2);
    expect(errorCode(await callTool(client, 'core_workflow_get', { name: 'double' }))).to.equal('NOT_FOUND');
  });
});

describe('execution records left running by a crash', () => {
  it('are marked failed with a clear error at startup', async () => {
    const dir = await makeConfigDir({});
    await mkdir(join(dir, 'executions'), { recursive: true });
    const record = {
      execution_id: 'crashed-1',
      workflow_name: 'gone',
      status: 'running',
      started_at: new Date().toISOString(),
      input: {},
      steps: [
        { id: 'a', tool: 'x', status: 'completed' },
        { id: 'b', tool: 'y', status: 'running' },
        { id: 'c', tool: 'z', status: 'pending' },
      ],
    };
    await writeFile(join(dir, 'executions', 'crashed-1.json'), JSON.stringify(record));
    const sb = await startSwitchboard({}, { configDir: dir });
    const client = await connectHttp(sb.url);
    try {
      const r = await core<{ status: string; error: string; steps: { status: string }[] }>(client, 'core_workflow_execution_get', {
        execution_id: 'crashed-1',
      });
      expect(r.status).to.equal('failed');
      expect(r.error).to.match(/interrupted: Switchboard stopped while this execution was running/);
      expect(r.steps.map((s) => s.status)).to.deep.equal(['completed', 'failed', 'cancelled']);
    } finally {
      await client.close();
      await sb.stop();
    }
  });
});
