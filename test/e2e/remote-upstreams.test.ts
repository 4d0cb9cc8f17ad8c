import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectHttp,
  errorCode,
  eventually,
  EVERYTHING,
  freePort,
  meta,
  startNode,
  startSwitchboard,
  text,
  type Running,
} from '../support/harness.js';

describe('remote upstreams over streamable HTTP and legacy SSE', () => {
  let sb: Running;
  let client: Client;
  const children: ChildProcess[] = [];
  let sessionPort: number;

  before(async () => {
    sessionPort = await freePort();
    const ssePort = await freePort();
    children.push(await startNode([EVERYTHING, 'streamableHttp'], { PORT: String(sessionPort) }, /listening on port/i));
    children.push(await startNode([EVERYTHING, 'sse'], { PORT: String(ssePort) }, /running on port/i));
    sb = await startSwitchboard({
      'mcpservers/remote.yaml': `name: remote\ntype: streamable-http\nurl: http://127.0.0.1:${sessionPort}/mcp\n`,
      'mcpservers/legacy.yaml': `name: legacy\ntype: sse\nurl: http://127.0.0.1:${ssePort}/sse\n`,
      'mcpservers/nowhere.yaml': `name: nowhere\ntype: streamable-http\nurl: http://127.0.0.1:9/mcp\ntimeout: 2\nbackoff:\n  initialSeconds: 0.2\n  maxSeconds: 0.5\n`,
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
    for (const c of children) c.kill('SIGTERM');
  });

  it('runs tools of a session-based streamable-HTTP server', async () => {
    const r = await callTool(client, 'x_remote_echo', { message: 'over http' });
    expect(text(r)).to.equal('Echo: over http');
    const sum = await callTool(client, 'x_remote_get-sum', { a: 1, b: 2 });
    expect(text(sum)).to.include('3');
    // Its SSE streams open with a data-less priming event (for resumption): read as such, not as a broken message.
    expect(sb.logs()).to.not.match(/upstreams:remote\] transport:/);
  });

  it('runs tools of a legacy SSE server', async () => {
    const r = await callTool(client, 'x_legacy_echo', { message: 'over sse' });
    expect(text(r)).to.equal('Echo: over sse');
  });

  it('forwards progress from a remote server that answers with an SSE stream', async () => {
    const progress: number[] = [];
    const r = await client.callTool(
      { name: 'call_tool', arguments: { name: 'x_remote_trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(r.isError).to.not.equal(true);
    expect(progress.length).to.equal(3);
  });

  it('reports an unreachable remote as not running, keeps serving the others', async () => {
    const r = await eventually(
      () => meta<{ servers: { name: string; state: string; health: string }[] }>(client, 'list_servers'),
      (x) => ['failed', 'unreachable'].includes(x.servers.find((s) => s.name === 'nowhere')?.state ?? ''),
      5000,
    );
    expect(r.servers.find((s) => s.name === 'nowhere')!.health).to.equal('unhealthy');
    const status = await meta<{ state: string; error: string; nextRetryAfter?: string }>(client, 'call_tool', {
      name: 'core_service_status',
      arguments: { name: 'nowhere' },
    });
    // The address and the socket's own words, not the SDK's generic "Connection closed".
    expect(status.error).to.equal('cannot reach http://127.0.0.1:9/mcp: connect ECONNREFUSED 127.0.0.1:9');
    // Backing off: the next attempt time is exposed (absent only while an attempt runs).
    if (status.nextRetryAfter !== undefined) expect(Date.parse(status.nextRetryAfter)).to.be.within(Date.now() - 1000, Date.now() + 2000);
    expect(r.servers.find((s) => s.name === 'remote')!.state).to.equal('connected');
    // A tool of the server that never connected: its server is named as the reason, not "tool not found" (issue 39).
    const none = await callTool(client, 'x_nowhere_anything');
    expect(errorCode(none)).to.equal('SERVER_UNAVAILABLE');
  });

  it('reconnects when the remote server comes back after going away', async () => {
    children[0]!.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    const failed = await callTool(client, 'x_remote_echo', { message: 'gone?' });
    expect(failed.isError).to.equal(true);
    children[0] = await startNode([EVERYTHING, 'streamableHttp'], { PORT: String(sessionPort) }, /listening on port/i);
    const back = await eventually(
      () => callTool(client, 'x_remote_echo', { message: 'back' }),
      (x) => !x.isError,
      10_000,
      100,
    );
    expect(text(back)).to.equal('Echo: back');
  });
});
