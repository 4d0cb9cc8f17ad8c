import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, errorCode, eventually, freePort, meta, pidAlive, ROOT, startSwitchboard, text, type Running } from '../support/harness.js';

const CHAOS = join(ROOT, 'dist/test/fixtures/chaos-server.js');

type Obj = Record<string, unknown>;

/**
 * A remote MCP server on raw node:http whose tools misbehave the way remote servers do:
 * a 500 for the call, no answer at all, an answer far too large.
 */
function chaosRemote(): Server {
  const tools = ['ok', 'fail500', 'hang', 'huge'].map((name) => ({ name, description: `Remote chaos: ${name}.`, inputSchema: { type: 'object' } }));
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const m = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
      const json = (result: Obj, headers: Record<string, string> = {}): void => {
        res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }));
      };
      if (m.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (m.method === 'initialize') {
        json(
          { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'remote-chaos', version: '1' } },
          { 'mcp-session-id': randomUUID() },
        );
        return;
      }
      if (m.method === 'tools/list') return json({ tools });
      if (m.method !== 'tools/call') return json({});
      switch (m.params?.name) {
        case 'ok':
          return json({ content: [{ type: 'text', text: 'remote ok' }] });
        case 'fail500':
          res.writeHead(500, { 'content-type': 'text/plain' }).end('internal trouble');
          return;
        case 'hang':
          return; // never answers
        case 'huge':
          return json({ content: [{ type: 'text', text: 'z'.repeat(200_000) }] });
      }
    });
  });
}

describe('upstream chaos: misbehaving servers fail their calls fast and never take Switchboard down', () => {
  let sb: Running;
  let client: Client;
  let remote: Server;

  const status = (name: string) => meta<Obj>(client, 'call_tool', { name: 'core_service_status', arguments: { name } });

  before(async () => {
    const port = await freePort();
    remote = chaosRemote();
    await new Promise<void>((r) => remote.listen(port, '127.0.0.1', r));
    sb = await startSwitchboard({
      'mcpservers/chaos.yaml': `name: chaos\ntype: stdio\ncommand: [node, "${CHAOS}"]\nautoStart: true\ncallTimeout: 1\nmaxMessageBytes: 1048576\nbackoff: { initialSeconds: 0.2, maxSeconds: 1 }\n`,
      // The same server with a call timeout no loaded machine reaches: what fails its calls there
      // (an exit, a flood) must be what the test says, not a 1 s timeout met first.
      'mcpservers/wild.yaml': `name: wild\ntype: stdio\ncommand: [node, "${CHAOS}"]\nautoStart: true\ncallTimeout: 60\nmaxMessageBytes: 1048576\nbackoff: { initialSeconds: 0.2, maxSeconds: 1 }\n`,
      'mcpservers/remote.yaml': `name: remote\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\ncallTimeout: 1\nmaxMessageBytes: 65536\nbackoff: { initialSeconds: 0.2, maxSeconds: 1 }\n`,
    });
    client = await connectHttp(sb.url);
  });

  after(async () => {
    await client?.close();
    const pidOf = async (name: string) => ((await status(name).catch(() => ({ metadata: {} }))).metadata as Obj).pid as number | undefined;
    const pids = [await pidOf('chaos'), await pidOf('wild')];
    await sb?.stop();
    await new Promise<void>((r) => remote.close(() => r()));
    // Stopping Switchboard leaves no chaos process behind.
    for (const pid of pids) if (pid) expect(pidAlive(pid)).to.equal(false);
  });

  it('skips garbage lines on stdout, answers the call, and says so in the log', async () => {
    const r = await callTool(client, 'x_chaos_garbage');
    expect(text(r)).to.equal('answered after garbage');
    await sb.waitForLog(/\[switchboard:upstreams:chaos\] transport: skipped a line on stdout that is not a JSON-RPC message/);
  });

  it('a call with no answer fails with TIMEOUT after callTimeout; the server keeps serving', async () => {
    const r = await callTool(client, 'x_chaos_hang');
    expect(errorCode(r)).to.equal('TIMEOUT');
    expect(text(await callTool(client, 'x_chaos_echo', { text: 'still here' }))).to.match(/^echo: still here/);
  });

  it('a server that exits during a call fails that call at once with SERVER_UNAVAILABLE and comes back on the backoff', async () => {
    const before = ((await status('wild')).metadata as Obj).pid as number;
    // Not TIMEOUT: the exit ends the call, not its (60 s) timeout.
    const r = await callTool(client, 'x_wild_exit_mid_call');
    expect(errorCode(r)).to.equal('SERVER_UNAVAILABLE');
    const back = await eventually(
      () => status('wild'),
      (s) => s.state === 'running',
      10_000,
    );
    expect((back.metadata as Obj).pid).to.not.equal(before);
    expect(pidAlive(before)).to.equal(false);
  });

  it('a flood without a line break past maxMessageBytes disconnects that server only; Switchboard stays up', async () => {
    const r = await callTool(client, 'x_wild_flood', { bytes: 4_000_000 });
    expect(errorCode(r)).to.equal('SERVER_UNAVAILABLE');
    await sb.waitForLog(/\[switchboard:upstreams:wild\].*sent more than 1048576 bytes without completing a message \(maxMessageBytes\); disconnecting/);
    const res = await fetch(new URL('/health', sb.url));
    expect(res.status).to.equal(200);
    await eventually(
      () => status('wild'),
      (s) => s.state === 'running',
      10_000,
    );
    expect(text(await callTool(client, 'x_wild_echo', { text: 'after flood' }))).to.match(/^echo: after flood/);
  });

  it('a remote answering 500 fails that call with the status; the connection stays', async () => {
    const r = await callTool(client, 'x_remote_fail500');
    expect(errorCode(r)).to.equal('SERVER_UNAVAILABLE');
    expect(text(r)).to.include('HTTP 500: internal trouble');
    expect(text(await callTool(client, 'x_remote_ok'))).to.equal('remote ok');
  });

  it('a remote that never answers fails with TIMEOUT; one whose answer is too large with TOO_LARGE', async () => {
    expect(errorCode(await callTool(client, 'x_remote_hang'))).to.equal('TIMEOUT');
    const huge = await callTool(client, 'x_remote_huge');
    expect(errorCode(huge)).to.equal('TOO_LARGE');
    expect(text(huge)).to.include('more than the limit of 65536 bytes');
    expect(text(await callTool(client, 'x_remote_ok'))).to.equal('remote ok');
  });
});
