/**
 * Issue 39 item 9, second detail: a very large step result is kept truncated in the stored
 * execution record (marked `truncated`, with its size), under the cap in settings
 * (plugins.workflows.options.maxRecordedResultBytes, 64 KiB by default), everywhere the record
 * holds it: the step's entry and the run's `result` document. The caller's answer stays whole.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, eventually, EVERYTHING, meta, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';

type Obj = Record<string, unknown>;
interface Marker {
  truncated: true;
  original_bytes: number;
  preview: string;
}
interface Execution {
  status: string;
  result?: { steps: { id: string; result?: unknown }[] };
  steps: { id: string; result?: unknown; args?: unknown }[];
}

const BIG = 300_000;
const wf = (name: string, spec: string) => `apiVersion: switchboard.dev/v1alpha1\nkind: Workflow\nmetadata: { name: ${name} }\nspec:\n${spec}`;

describe('execution records keep a very large step result truncated (issue 39 item 9)', function () {
  this.timeout(120_000);
  let sb: Running;
  let client: Client;
  const core = <T = Obj>(name: string, args: Obj = {}) => meta<T>(client, 'call_tool', { name, arguments: args });

  before(async () => {
    sb = await startSwitchboard({
      'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
      // A small input, a step result of 300,000 characters: only the result can make the record large.
      'workflows/big.yaml': wf(
        'big',
        `  args: { n: { type: integer, default: ${BIG} } }\n  steps:\n    - { id: say, tool: x_everything_echo, args: { message: '{{ repeat .input.n "z" }}' }, output: true }\n`,
      ),
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client.close();
    await sb.stop();
  });

  it('answers the whole result, and records it cut to the default cap in the step entry and in the run document', async () => {
    const r = await callTool(client, 'workflow_big');
    expect(r.isError).to.not.equal(true);
    const doc = JSON.parse(text(r)) as { execution_id: string; steps: { result: string }[] };
    expect(doc.steps[0]!.result).to.equal(`Echo: ${'z'.repeat(BIG)}`);

    const ex = await core<Execution>('core_workflow_execution_get', { execution_id: doc.execution_id });
    expect(ex.status).to.equal('completed');
    const entry = ex.steps[0]!.result as Marker;
    expect(entry).to.include({ truncated: true, original_bytes: BIG + 8 });
    expect(entry.preview.startsWith('"Echo: zzz')).to.equal(true);
    expect(ex.steps[0]!.args).to.deep.include({ truncated: true });
    // The run's document as recorded: the same step result, cut the same way (it held it whole).
    const inDoc = ex.result!.steps[0]!.result as Marker;
    expect(inDoc).to.include({ truncated: true, original_bytes: BIG + 8 });

    // The record on disk stays small: the cap (64 KiB) is on what it keeps, not what it answered.
    const file = join(sb.configDir, 'executions', `${doc.execution_id}.json`);
    const stored = await eventually(
      () => readFile(file, 'utf8'),
      (t) => (JSON.parse(t) as { status: string }).status === 'completed',
      10_000,
    );
    expect(Buffer.byteLength(stored)).to.be.below(64 * 1024);
  });
});
