import { expect } from 'chai';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, eventually, meta, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';

async function names(client: Client): Promise<string[]> {
  const r = await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 1000 });
  return r.tools.map((t) => t.name);
}

async function atomicWrite(path: string, content: string): Promise<void> {
  await writeFile(`${path}.tmp`, content);
  await rename(`${path}.tmp`, path);
}

describe('hot reload of mcpservers/*.yaml while a client keeps calling', () => {
  let sb: Running;
  let client: Client;
  let stopCalling = false;
  const failures: string[] = [];
  let calls = 0;
  let caller: Promise<void>;

  before(async () => {
    sb = await startSwitchboard({ 'mcpservers/steady.yaml': stdioServer('steady', TEST_SERVER) });
    client = await connectHttp(sb.url);
    caller = (async () => {
      const steady = await connectHttp(sb.url);
      while (!stopCalling) {
        const r = await callTool(steady, 'x_steady_add', { a: calls, b: 1 });
        calls++;
        if (r.isError || text(r) !== String(calls)) failures.push(JSON.stringify(r));
      }
      await steady.close();
    })();
  });
  after(async () => {
    stopCalling = true;
    await caller;
    await client?.close();
    await sb?.stop();
  });

  const file = () => join(sb.configDir, 'mcpservers', 'live.yaml');

  // How fast is a question for a benchmark on a quiet machine; here the condition is awaited.
  it('adds a server when its file appears', async () => {
    await atomicWrite(file(), stdioServer('live', TEST_SERVER));
    await eventually(
      () => names(client),
      (n) => n.includes('x_live_ping'),
      15_000,
      20,
    );
  });

  it('reconfigures only that server when its file changes', async () => {
    await atomicWrite(file(), stdioServer('live', TEST_SERVER, [], 'toolPrefix: renamed\n'));
    const n = await eventually(
      () => names(client),
      (x) => x.includes('x_renamed_ping') && !x.includes('x_live_ping'),
      15_000,
      20,
    );
    expect(n).to.include('x_steady_add');
  });

  it('keeps the last good definition when the file turns invalid, and logs file and line', async () => {
    await writeFile(file(), 'name: live\ntype: stdio\ncommand: [node]\nautoStart: yes-please\ncolour: blue\n');
    await sb.waitForLog(/live\.yaml:4:\d+: autoStart: must be boolean/, 15_000);
    await sb.waitForLog(/live\.yaml:5:\d+: colour: unknown field 'colour'/, 15_000);
    await writeFile(file(), 'name: live\n  type: [unclosed\n');
    await sb.waitForLog(/live\.yaml:\d+:\d+: YAML syntax error/, 15_000);
    const n = await names(client);
    expect(n).to.include('x_renamed_ping');
    const r = await callTool(client, 'x_renamed_ping');
    expect(r.isError).to.not.equal(true);
  });

  it('removes the server when its file is deleted', async () => {
    await rm(file());
    await eventually(
      () => names(client),
      (x) => !x.some((t) => t.startsWith('x_renamed_')),
      15_000,
      20,
    );
  });

  it('never failed a call to the steady server during all of it', () => {
    expect(calls).to.be.greaterThan(20);
    expect(failures).to.deep.equal([]);
  });
});

describe('hot reload of folders created after start-up (a first run)', function () {
  // Each step waits for its condition: a new folder's watch, a reload, a server's start. The
  // first test waits twice; at 15 s each, their sum met mocha's 30 s for the whole test, and
  // on a loaded machine (the suite's parallel workers, other work beside it) the test failed
  // where it passed alone. The waits have room, and the tests a timeout above their sum.
  const WAIT_MS = 45_000;
  this.timeout(2 * WAIT_MS + 15_000);
  let parent: string;
  let sb: Running;
  let client: Client;
  /** A wait that ran out says what the server logged meanwhile (did it see the file at all?). */
  const withLog = (err: Error): never => {
    throw new Error(`${err.message}\nserver log:\n${sb.logs()}`);
  };

  before(async () => {
    parent = await mkdtemp(join(tmpdir(), 'switchboard-first-run-'));
    // Not even the config directory exists yet: the first run of `switchboard serve`.
    sb = await startSwitchboard({}, { configDir: join(parent, 'config') });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
    await rm(parent, { recursive: true, force: true });
  });

  it('loads a server whose mcpservers/ folder and file appear later, and later edits of it', async () => {
    await mkdir(join(sb.configDir, 'mcpservers'), { recursive: true });
    await atomicWrite(join(sb.configDir, 'mcpservers', 'late.yaml'), stdioServer('late', TEST_SERVER));
    await eventually(
      () => names(client),
      (n) => n.includes('x_late_ping'),
      WAIT_MS,
      100,
    ).catch(withLog);
    await atomicWrite(join(sb.configDir, 'mcpservers', 'late.yaml'), stdioServer('late', TEST_SERVER, [], 'toolPrefix: later\n'));
    await eventually(
      () => names(client),
      (n) => n.includes('x_later_ping') && !n.includes('x_late_ping'),
      WAIT_MS,
      100,
    ).catch(withLog);
  });

  it('loads a workflow from a workflows/ folder made after start-up', async () => {
    await mkdir(join(sb.configDir, 'workflows'), { recursive: true });
    await writeFile(
      join(sb.configDir, 'workflows', 'hello.yaml'),
      'apiVersion: switchboard.dev/v1alpha1\nkind: Workflow\nmetadata: { name: hello }\nspec:\n  description: says hello\n  steps:\n    - { id: ping, tool: x_later_ping }\n',
    );
    await eventually(
      () => names(client),
      (n) => n.includes('workflow_hello'),
      WAIT_MS,
      100,
    ).catch(withLog);
  });

  it('forgets a server when its whole folder is removed', async () => {
    await rm(join(sb.configDir, 'mcpservers'), { recursive: true });
    await eventually(
      () => names(client),
      (n) => !n.some((t) => t.startsWith('x_later_')),
      WAIT_MS,
      100,
    ).catch(withLog);
  });
});
