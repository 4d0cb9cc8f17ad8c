import { expect } from 'chai';
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, meta, ROOT, startSwitchboard, text, type Running } from '../support/harness.js';

describe('examples/quickstart runs as documented', () => {
  let sb: Running;
  let client: Client;
  let dir: string;

  before(async () => {
    // A throw-away copy beside the original: relative paths in the example resolve against
    // the config directory, so the copy must sit at the same depth; the memory server's data
    // file and the execution records land in it, not in the example.
    dir = join(ROOT, 'examples', `.test-${process.pid}`);
    await cp(join(ROOT, 'examples/quickstart'), dir, { recursive: true });
    await rm(join(dir, 'memory.jsonl'), { force: true });
    await rm(join(dir, 'executions'), { recursive: true, force: true });
    sb = await startSwitchboard({}, { configDir: dir, args: ['--host', '127.0.0.1'] });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('aggregates server-everything and server-memory over stdio', async () => {
    const { servers } = await meta<{ servers: { name: string; state: string }[] }>(client, 'list_servers');
    expect(servers.find((s) => s.name === 'everything')!.state).to.equal('running');
    expect(servers.find((s) => s.name === 'memory')!.state).to.equal('running');
  });

  it('runs the remember-person workflow against the real memory server', async () => {
    const r = await callTool(client, 'workflow_remember-person', { name: 'Ada', fact: 'wrote the first program' });
    expect(r.isError, text(r)).to.not.equal(true);
    expect((r.structuredContent as { outputs: unknown }).outputs).to.deep.equal({ person: 'Ada', facts: ['wrote the first program'] });
  });

  it('runs the team-roll-call workflow: a loop three at a time, a group, an output template', async () => {
    const r = await callTool(client, 'workflow_team-roll-call', { team: ['ada', 'grace', 'linus'] });
    expect(r.isError, text(r)).to.not.equal(true);
    // With an output template, the document is its rendering plus execution_id.
    const output = r.structuredContent as { execution_id: string; greeted: number; greetings: string[]; answer: unknown };
    expect(output.execution_id).to.be.a('string');
    expect(output.greeted).to.equal(3);
    expect(output.greetings).to.deep.equal(['Echo: hello ada (#0)', 'Echo: hello grace (#1)', 'Echo: hello linus (#2)']);
    expect(JSON.stringify(output.answer)).to.include('42');
  });

  it('runs the note-with-rollback workflow: the failure is reported and the note is removed again', async () => {
    const r = await callTool(client, 'workflow_note-with-rollback', { topic: 'release' });
    expect(r.isError).to.equal(true);
    const details = (r.structuredContent as { error: { code: string; details: { execution_id: string; step: string } } }).error;
    expect(details.code).to.equal('WORKFLOW_FAILED');
    expect(details.details.step).to.equal('confirm');
    const ex = await meta<{ steps: { step_id: string; path?: string; status: string }[] }>(client, 'call_tool', {
      name: 'core_workflow_execution_get',
      arguments: { execution_id: details.details.execution_id },
    });
    // onFailure steps follow the failed step in the record, under their plain ids.
    const rollback = ex.steps.filter((s) => s.path?.startsWith('onFailure.'));
    expect(rollback.map((s) => [s.step_id, s.status])).to.deep.equal([['remove_note', 'completed']]);
    const graph = await callTool(client, 'x_memory_read_graph');
    expect(JSON.stringify(graph.structuredContent ?? graph.content)).to.not.include('note-release');
  });

  it('runs the greet-and-sum workflow', async () => {
    const r = await callTool(client, 'workflow_greet-and-sum', { a: 2, b: 3 });
    expect(r.isError, text(r)).to.not.equal(true);
    const greeting = (r.structuredContent as { outputs: { greeting: string } }).outputs.greeting;
    expect(greeting).to.match(/^Echo: Hello world: .*5/);
  });
});
