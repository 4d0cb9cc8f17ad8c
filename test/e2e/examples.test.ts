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

  it('runs the greet-and-sum workflow', async () => {
    const r = await callTool(client, 'workflow_greet-and-sum', { a: 2, b: 3 });
    expect(r.isError, text(r)).to.not.equal(true);
    const greeting = (r.structuredContent as { outputs: { greeting: string } }).outputs.greeting;
    expect(greeting).to.match(/^Echo: Hello world: .*5/);
  });
});
