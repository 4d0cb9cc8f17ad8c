/**
 * A relayed result answered at once (docs/decisions.md): a 2026-07-28 client's call_tool of an
 * upstream's plain tool is answered the moment the upstream's answer is read, before
 * Switchboard's own bookkeeping of the call ends. A plugin loaded by module path holds that
 * bookkeeping (its `onCallEnd` tap blocks the process) until the client says it has its answer,
 * so the test cannot pass by timing: an answer written only after the bookkeeping would arrive
 * after the hold gave up. What is answered at once is what the call returns: the upstream's
 * serverInfo stripped, Switchboard's added, known secrets scrubbed; a batch (call_tools) and a
 * legacy session are answered as before.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectHttp,
  eventually,
  freePort,
  makeConfigDir,
  meta,
  MODERN_SERVER,
  startNode,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  type Running,
} from '../support/harness.js';

const MARK = 'sk-answer-at-once-0123456789';

/** While `hold` exists in its folder, each call's end waits (up to 30 s) for `release`; says which came. */
const HOLD_PLUGIN = `import { appendFileSync, existsSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
const here = dirname(fileURLToPath(import.meta.url));
const nap = new Int32Array(new SharedArrayBuffer(4));
export default {
  name: 'hold-call-end',
  setup({ kernel }) {
    kernel.hooks.onCallEnd.tap('hold-call-end', (end) => {
      if (!existsSync(join(here, 'hold'))) return;
      const until = Date.now() + 30_000;
      while (!existsSync(join(here, 'release')) && Date.now() < until) Atomics.wait(nap, 0, 0, 5);
      const released = existsSync(join(here, 'release'));
      if (released) unlinkSync(join(here, 'release'));
      appendFileSync(join(here, 'held.log'), end.tool + (released ? ' released' : ' gave-up') + '\\n');
    });
  },
};
`;

interface Listed {
  servers: { name: string; state: string }[];
}

type Result = { content: { type: string; text?: string }[]; _meta?: Record<string, unknown>; resultType?: string };

describe('a relayed result answered at once', function () {
  this.timeout(120_000);
  let dir: string;
  let sb: Running;
  let web: ChildProcess;
  let legacy: Client;
  let modern: ModernClient;

  before(async () => {
    const port = await freePort();
    web = await startNode([MODERN_SERVER, 'http', String(port)], {}, /listening \d+/);
    dir = await makeConfigDir({
      'config.yaml': 'plugins:\n  hold-call-end:\n    module: ./hold.js\n',
      'mcpservers/mweb.yaml': `name: mweb\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\nautoStart: true\n`,
      'mcpservers/mio.yaml': stdioServer('mio', MODERN_SERVER, ['stdio']),
      'mcpservers/old.yaml': stdioServer('old', TEST_SERVER, [], `env:\n  API_TOKEN: ${JSON.stringify(MARK)}\n`),
    });
    await writeFile(join(dir, 'hold.js'), HOLD_PLUGIN);
    sb = await startSwitchboard({}, { configDir: dir });
    legacy = await connectHttp(sb.url);
    await eventually(
      () => meta<Listed>(legacy, 'list_servers'),
      (l) => l.servers.filter((s) => s.state === 'running' || s.state === 'connected').length === 3,
      20_000,
    );
    modern = new ModernClient({ name: 'at-once', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new ModernTransport(new URL(sb.url)));
  });

  after(async () => {
    await modern?.close().catch(() => undefined);
    await legacy?.close().catch(() => undefined);
    await rm(join(dir, 'hold'), { force: true });
    await writeFile(join(dir, 'release'), '');
    await sb?.stop();
    web?.kill();
  });

  /** Calls `tool` through call_tool with its end held: its answer, and whether the hold still held then. */
  async function heldCall(tool: string, args: Record<string, unknown>): Promise<{ result: Result; held: string }> {
    const log = join(dir, 'held.log');
    const before = existsSync(log) ? (await readFile(log, 'utf8')).split('\n').filter(Boolean).length : 0;
    await writeFile(join(dir, 'hold'), '');
    try {
      const result = (await modern.callTool({ name: 'call_tool', arguments: { name: tool, arguments: args } })) as Result;
      await writeFile(join(dir, 'release'), '');
      const lines = await eventually(
        async () => (existsSync(log) ? (await readFile(log, 'utf8')).split('\n').filter(Boolean) : []),
        (l) => l.length > before,
        40_000,
      );
      return { result, held: lines[before]! };
    } finally {
      await rm(join(dir, 'hold'), { force: true });
    }
  }

  it("answers a modern upstream's tool (HTTP and stdio) while Switchboard still holds the call's end", async () => {
    for (const server of ['mweb', 'mio']) {
      const { result, held } = await heldCall(`x_${server}_echo`, { text: `at once from ${server}` });
      expect(result.content).to.deep.equal([{ type: 'text', text: `at once from ${server}` }]);
      expect(held).to.equal(`x_${server}_echo released`);
    }
  });

  it("answers a legacy upstream's tool the same way", async () => {
    const { result, held } = await heldCall('x_old_ping', {});
    expect(result.content[0]?.type).to.equal('text');
    expect(held).to.equal('x_old_ping released');
  });

  it("what is answered at once is the call's result: Switchboard's serverInfo, the upstream's secret scrubbed", async () => {
    const { result, held } = await heldCall('x_old_reveal', {});
    expect(held).to.equal('x_old_reveal released');
    expect(JSON.stringify(result)).to.include('the token is').and.not.to.include(MARK);
    expect(result._meta?.['io.modelcontextprotocol/serverInfo']).to.deep.include({ name: 'switchboard' });
    const { result: echoed } = await heldCall('x_mweb_echo', { text: 'meta' });
    expect(echoed._meta?.['io.modelcontextprotocol/serverInfo']).to.deep.include({ name: 'switchboard' });
  });

  it('a batch answers with every call it ran, and a legacy session as before', async () => {
    const batch = (await modern.callTool({
      name: 'call_tools',
      arguments: {
        calls: [
          { name: 'x_mweb_echo', arguments: { text: 'one' } },
          { name: 'x_old_ping', arguments: {} },
        ],
      },
    })) as Result;
    const { results } = JSON.parse(batch.content[0]?.text ?? '{}') as { results: Result[] };
    expect(results).to.have.length(2);
    expect(results[0]?.content).to.deep.equal([{ type: 'text', text: 'one' }]);
    expect(results[1]?.content[0]?.type).to.equal('text');
    const old = await callTool(legacy, 'x_mweb_echo', { text: 'from a session' });
    expect(old.content).to.deep.equal([{ type: 'text', text: 'from a session' }]);
  });
});
