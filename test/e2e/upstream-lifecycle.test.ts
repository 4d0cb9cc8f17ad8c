import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectHttp,
  errorCode,
  eventually,
  meta,
  pidAlive,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

interface ServerRow {
  name: string;
  state: string;
  health: string;
}

function pidOf(r: { content: { type: string; text?: string }[] }): number {
  return Number(/pid (\d+)/.exec(text(r as never))![1]);
}

describe('upstream lifecycle: crash, backoff reconnect, no orphans', () => {
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({
      'mcpservers/fragile.yaml': stdioServer('fragile', TEST_SERVER, [], 'backoff:\n  initialSeconds: 0.2\n  maxSeconds: 1\n'),
      // A wrapper that spawns a grandchild: stopping must reach the whole process group.
      'mcpservers/wrapped.yaml': `name: wrapped\ntype: stdio\ncommand: [sh, -c, ${JSON.stringify(`exec ${process.execPath} ${TEST_SERVER} stdio --name wrapped`)}]\nautoStart: true\n`,
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('reports a killed upstream, reconnects on the backoff and its tools come back', async () => {
    const before = await callTool(client, 'x_fragile_ping');
    const pid = pidOf(before);
    process.kill(pid, 'SIGKILL');
    // The service reports the loss...
    const down = await eventually(
      () => meta<{ servers: ServerRow[] }>(client, 'list_servers'),
      (r) => r.servers.find((s) => s.name === 'fragile')?.state !== 'running',
      3000,
      10,
    );
    expect(down.servers.find((s) => s.name === 'fragile')!.health).to.equal('unhealthy');
    // ...and comes back on its own, with a new process.
    const after = await eventually(
      () => callTool(client, 'x_fragile_ping'),
      (r) => !r.isError,
      5000,
    );
    expect(pidOf(after)).to.not.equal(pid);
    expect(pidAlive(pid)).to.equal(false);
  });

  it("keeps listing a crashed server's tools but refuses calls with SERVER_UNAVAILABLE and the next retry", async () => {
    await callTool(client, 'x_fragile_crash');
    const r = await eventually(
      () => callTool(client, 'x_fragile_ping'),
      (x) => x.isError === true,
      3000,
      5,
    );
    expect(errorCode(r)).to.equal('SERVER_UNAVAILABLE');
    expect(text(r)).to.match(/Server 'fragile' is not available/);
    const listed = await meta<{ tools: { name: string }[] }>(client, 'filter_tools', { pattern: 'x_fragile_*', limit: 50 });
    expect(listed.tools.map((t) => t.name)).to.include('x_fragile_ping');
    await eventually(
      () => callTool(client, 'x_fragile_ping'),
      (x) => !x.isError,
      5000,
    );
  });

  it('shares one upstream process across client sessions', async () => {
    const other = await connectHttp(sb.url);
    try {
      const a = pidOf(await callTool(client, 'x_wrapped_ping'));
      const b = pidOf(await callTool(other, 'x_wrapped_ping'));
      expect(a).to.equal(b);
    } finally {
      await other.close();
    }
  });

  it('leaves no upstream process (or grandchild) behind when serve exits', async () => {
    const pids = [pidOf(await callTool(client, 'x_fragile_ping')), pidOf(await callTool(client, 'x_wrapped_ping'))];
    expect(pids.every(pidAlive)).to.equal(true);
    await client.close();
    const code = await sb.stop();
    expect(code).to.equal(0);
    await eventually(
      async () => pids.map(pidAlive),
      (alive) => alive.every((a) => !a),
      3000,
    );
  });
});
