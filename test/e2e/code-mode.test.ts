/**
 * Code mode through the real protocol: the SDK client sends run_code to a Switchboard whose
 * upstreams are real servers (server-everything, server-memory, server-filesystem, our test
 * server for a slow tool), as an agent would; every budget is hit once; /health is polled from
 * another process while a script spins to its CPU limit.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { failedCalls, limitOf, ran, runCode, type CallSummary as Summary } from '../support/code-mode.js';
import { connectHttp, errorCode, EVERYTHING, meta, MEMORY, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { describePolls, whilePolling } from '../support/health-poller.js';
import { FILESYSTEM } from '../support/search-servers.js';

/** The interface's thirteen meta-tools, in the order they are listed. */
const THIRTEEN = [
  'list_tools',
  'describe_tool',
  'filter_tools',
  'list_core_tools',
  'call_tool',
  'call_tools',
  'list_resources',
  'describe_resource',
  'get_resource',
  'list_prompts',
  'describe_prompt',
  'get_prompt',
  'list_servers',
];

const OPTIONS = {
  wallMs: 8000,
  cpuMs: 1500,
  memoryBytes: 16 << 20,
  stackBytes: 256 << 10,
  maxCalls: 8,
  maxConcurrentCalls: 2,
  maxResultBytes: 8192,
  maxLogBytes: 512,
  maxScriptsPerCaller: 1,
  workers: 1,
};

describe('code mode: run_code through the SDK client', function () {
  this.timeout(90_000);
  let sb: Running;
  let client: Client;
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'code-mode-files-'));
    await writeFile(join(dir, 'notes.txt'), 'first line\nsecond line\nthird line\n');
    sb = await startSwitchboard({
      'config.yaml': `plugins:\n  code-mode:\n    enabled: true\n    options: ${JSON.stringify(OPTIONS)}\n`,
      'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING),
      'mcpservers/memory.yaml': stdioServer('memory', MEMORY, [], `env:\n  MEMORY_FILE_PATH: ${JSON.stringify(join(dir, 'memory.jsonl'))}\n`),
      'mcpservers/filesystem.yaml': stdioServer('filesystem', FILESYSTEM, [dir]),
      // stderr at info: the test server says there when a call starts and when it is cancelled.
      'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER, [], 'stderrLogLevel: info\n'),
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('is the one meta-tool beyond the thirteen when switched on', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.deep.equal([...THIRTEEN, 'run_code']);
  });

  it('an agent searches, calls servers in parallel and in sequence, and gets back only its summary', async () => {
    // The slow call is in flight while the other two parallel calls start, however the machine
    // schedules the sandbox: two calls of a millisecond each could end before the other began.
    const code = `
      const found = await tools.search('read the contents of a text file', 5);
      const reader = found.map((t) => t.name).find((n) => n.startsWith('x_filesystem_read'));
      const [sum, text] = await Promise.all([
        tools['x_everything_get-sum']({ a: 20, b: 22 }),
        tools.call(reader, { path: ${JSON.stringify(join(dir, 'notes.txt'))} }),
        tools.x_tools_slow({ ms: 400 }),
      ]);
      const body = typeof text === 'string' ? text : text.content;
      await tools.x_memory_create_entities({ entities: [{ name: 'Notes', entityType: 'file', observations: [body.split('\\n')[0]] }] });
      const graph = await tools.x_memory_read_graph({});
      console.log('reader', reader);
      return { sum, lines: body.trim().split('\\n').length, remembered: graph.entities.find((e) => e.name === 'Notes').observations[0] };
    `;
    const r = await runCode(client, code);
    const out = ran(r);
    expect(out.result).to.deep.equal({ sum: 'The sum of 20 and 22 is 42.', lines: 3, remembered: 'first line' });
    expect(out.calls.map((c) => [c.op, c.ok])).to.deep.equal([
      ['search', true],
      ['call', true],
      ['call', true],
      ['call', true],
      ['call', true],
      ['call', true],
    ]);
    // In the order they ended: the three parallel calls in any order, then the two in sequence.
    const server = (c: Summary) => c.name.split('_')[1];
    expect(out.calls.slice(1, 4).map(server).sort()).to.deep.equal(['everything', 'filesystem', 'tools']);
    expect(out.calls.slice(4).map(server)).to.deep.equal(['memory', 'memory']);
    expect(out.logs).to.have.length(1);
    expect(out.logs[0]).to.match(/^reader x_filesystem_read/);
    // The parallel calls overlapped (each began while the slow one ran); the sequential ones did not.
    const parallel = out.calls.slice(1, 4);
    const slow = parallel.find((c) => server(c) === 'tools')!;
    for (const other of parallel.filter((c) => c !== slow)) expect(other.at, other.name).to.be.below(slow.at + slow.ms);
    const [c, d] = out.calls.slice(4) as [Summary, Summary];
    expect(d.at).to.be.at.least(c.at + c.ms - 1);
  });

  it('describe_tool and list_core_tools offer each tool as the TypeScript call a script makes (`typescript`)', async () => {
    const described = await meta<{ typescript?: string; invocation: string }>(client, 'describe_tool', { name: 'x_memory_create_entities' });
    expect(described.typescript).to.equal(
      'tools.x_memory_create_entities(args: { entities: { name: string; entityType: string; observations: string[] }[] }): Promise<{ entities: { name: string; entityType: string; observations: string[] }[] }>',
    );
    expect(described.invocation).to.include('call_tool');
    const sum = await meta<{ typescript?: string }>(client, 'describe_tool', { name: 'x_everything_get-sum' });
    expect(sum.typescript).to.match(/^tools\["x_everything_get-sum"\]\(args: \{ a: number; b: number \}\): Promise<unknown>$/);
    for (const includeSchema of [true, false]) {
      const core = await meta<{ tools: { name: string; typescript?: string }[] }>(client, 'list_core_tools', { include_schema: includeSchema });
      expect(core.tools.length).to.be.greaterThan(5);
      for (const t of core.tools) expect(t.typescript, t.name).to.match(new RegExp(`^tools\\.${t.name}\\(args: .*\\): Promise<.*>$`));
    }
  });

  it("tools.describe gives a tool's schemas and its TypeScript signature", async () => {
    const out = ran(await runCode(client, "return await tools.describe('x_memory_create_entities')"));
    const described = out.result as { signature: string; inputSchema: object };
    expect(described.signature).to.equal(
      'tools.x_memory_create_entities(args: { entities: { name: string; entityType: string; observations: string[] }[] }): Promise<{ entities: { name: string; entityType: string; observations: string[] }[] }>',
    );
    expect(described.inputSchema).to.have.property('properties');
  });

  it("the API is the caller's view: a toolset leaves the other servers out, and tools.call is refused for them", async () => {
    const narrowed = await connectHttp(sb.url, { 'X-Service-Toolset': 'server:everything' });
    try {
      const code = `
        const listed = tools.list();
        let refused;
        try { await tools.call('x_memory_read_graph', {}); } catch (e) { refused = e.code; }
        return { everything: listed.every((n) => n.startsWith('x_everything_')), memory: typeof tools.x_memory_read_graph, core: 'core_config_get' in tools, refused };
      `;
      const out = ran(await runCode(narrowed, code));
      expect(out.result).to.deep.equal({ everything: true, memory: 'undefined', core: false, refused: 'OUTSIDE_TOOLSET' });
    } finally {
      await narrowed.close();
    }
  });

  it('a tool error reaches the script as a ToolError it can catch, and an uncaught one fails the script naming it', async () => {
    const caught = ran(await runCode(client, "try { await tools['x_everything_get-sum']({ a: 'x' }); } catch (e) { return [e.name, e.code]; }"));
    expect(caught.result).to.deep.equal(['ToolError', 'INVALID_ARGUMENTS']);
    const failed = await runCode(client, "await tools.call('x_nowhere_tool', {});");
    expect(errorCode(failed), text(failed)).to.equal('CODE_FAILED');
    expect(text(failed)).to.match(/ToolError: tool not found: x_nowhere_tool/);
  });

  it('each run is an event filed under run_code with its execution id and the calls it made', async () => {
    const out = ran(await runCode(client, "return await tools.x_everything_echo({ message: 'audit me' })"));
    const events = await meta<{ events: { reason: string; execution_id?: string; message: string }[] }>(client, 'call_tool', {
      name: 'core_events',
      arguments: { resourceType: 'Tool', resourceName: 'run_code' },
    });
    const mine = events.events.find((e) => e.execution_id === out.execution_id);
    expect(mine?.reason).to.equal('CodeExecutionCompleted');
    expect(mine?.message).to.include('x_everything_echo');
  });

  describe('budgets: each ends the script with CODE_LIMIT naming it', () => {
    it('cpuMs, while /health stays under 100 ms', async () => {
      const { result, polls } = await whilePolling(sb.url.replace(/\/mcp$/, '/health'), () => runCode(client, 'for (;;) {}'));
      expect(limitOf(result)).to.equal('cpuMs');
      expect(polls.length, describePolls(polls)).to.be.at.least(5);
      expect(Math.max(...polls.map((p) => p.ms)), describePolls(polls)).to.be.below(100);
    });

    it('wallMs (lowered by timeoutSeconds) while the script waits on a slow tool', async () => {
      const r = await runCode(client, 'await tools.x_tools_slow({ ms: 20000 });', { timeoutSeconds: 1 });
      expect(limitOf(r)).to.equal('wallMs');
      await sb.waitForLog(/slow 20000: cancelled by the client/);
    });

    it('memoryBytes', async () => {
      expect(limitOf(await runCode(client, 'const keep = [new ArrayBuffer(4 << 20)]; keep.push(new ArrayBuffer(32 << 20)); return keep.length;'))).to.equal(
        'memoryBytes',
      );
    });

    it('stackBytes', async () => {
      expect(limitOf(await runCode(client, 'const f = (n) => f(n + 1) + 1; return f(0);'))).to.equal('stackBytes');
    });

    it('maxCalls, counting only the calls made', async () => {
      const r = await runCode(client, "for (let i = 0; i < 20; i++) await tools.x_everything_echo({ message: 'm' + i });");
      expect(limitOf(r)).to.equal('maxCalls');
      expect(failedCalls(r)).to.have.length(OPTIONS.maxCalls);
    });

    it('maxConcurrentCalls is a cap: more calls wait their turn', async () => {
      const out = ran(await runCode(client, 'return (await Promise.all([1, 2, 3, 4, 5].map(() => tools.x_tools_slow({ ms: 200 })))).length'));
      expect(out.result).to.equal(5);
      // At no start were more than the cap already running.
      for (const c of out.calls) {
        const running = out.calls.filter((o) => o !== c && o.at <= c.at && o.at + o.ms > c.at + 1).length;
        expect(running, JSON.stringify(out.calls)).to.be.below(OPTIONS.maxConcurrentCalls);
      }
    });

    it('maxResultBytes', async () => {
      expect(limitOf(await runCode(client, "return 'x'.repeat(10000);"))).to.equal('maxResultBytes');
    });

    it('maxLogBytes', async () => {
      const r = await runCode(client, "for (let i = 0; i < 1000; i++) console.log('line', i); return 'unreachable';");
      expect(limitOf(r)).to.equal('maxLogBytes');
    });

    it('maxScriptsPerCaller', async () => {
      const first = runCode(client, 'return await tools.x_tools_slow({ ms: 1500 });');
      await sb.waitForLog(/slow 1500: started/);
      const second = await runCode(client, 'return 1');
      expect(limitOf(second)).to.equal('maxScriptsPerCaller');
      ran(await first);
    });
  });
});

describe('code mode: off by default', function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;
  before(async () => {
    sb = await startSwitchboard({ 'config.yaml': 'aggregator:\n  port: 0\n' });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('the thirteen meta-tools stay exactly as they are, and run_code is unknown', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.deep.equal(THIRTEEN);
    // describe_tool and list_core_tools answer as the interface has them: no `typescript`.
    const core = await meta<{ tools: { name: string; typescript?: string }[] }>(client, 'list_core_tools');
    expect(core.tools.filter((t) => 'typescript' in t)).to.deep.equal([]);
    expect(await meta(client, 'describe_tool', { name: core.tools[0]!.name })).to.not.have.property('typescript');
    const r = await client.callTool({ name: 'run_code', arguments: { code: 'return 1' } }).then(
      (result) => text(result as CallToolResult),
      (err: unknown) => (err as Error).message,
    );
    expect(r).to.match(/run_code/);
  });
});
