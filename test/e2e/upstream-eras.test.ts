/**
 * Upstreams of both MCP eras behind one Switchboard: a 2026-07-28-only server built on the v2
 * SDK (test/fixtures/modern-server.ts, `legacy: 'reject'`) over streamable HTTP and over
 * stdio, beside a 2025-11-25 one (the v1 test fixture). Each connection finds out what its
 * server speaks and says so (list_servers, core_service_status); clients of both eras (v1 and
 * v2 SDK) call the modern upstream's tools; the upstream's list changes reach the catalogue;
 * and a legacy client is asked, over its session, what the modern upstream's `input_required`
 * wants, the upstream retried with the answer (issue 40, items 2 and 3 second bullet).
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  callTool,
  connectHttp,
  eventually,
  freePort,
  meta,
  metaRaw,
  MODERN_SERVER,
  startNode,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

interface Listed {
  servers: { name: string; state: string; protocolVersion?: string }[];
}

/** A legacy (v1) client that answers elicitations as `who`, recording what it was asked. */
async function askedClient(url: string, who: string): Promise<{ client: Client; asked: string[] }> {
  const client = new Client({ name: `ide-${who}`, version: '1' }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params.message);
    return { action: 'accept', content: { name: who } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, asked };
}

describe('upstreams of both MCP eras (2026-07-28 and 2025-11-25)', function () {
  this.timeout(60_000);
  let sb: Running;
  let web: ChildProcess;
  let quiet: ChildProcess;
  let legacy: Client;
  const closing: { close(): Promise<void> }[] = [];

  before(async () => {
    const port = await freePort();
    web = await startNode([MODERN_SERVER, 'http', String(port)], {}, /listening \d+/);
    const quietPort = await freePort();
    quiet = await startNode([MODERN_SERVER, 'http-ttl', String(quietPort)], {}, /listening \d+/);
    sb = await startSwitchboard({
      'mcpservers/mweb.yaml': `name: mweb\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\nautoStart: true\n`,
      'mcpservers/mio.yaml': stdioServer('mio', MODERN_SERVER, ['stdio']),
      'mcpservers/old.yaml': stdioServer('old', TEST_SERVER),
      'mcpservers/mttl.yaml': `name: mttl\ntype: streamable-http\nurl: http://127.0.0.1:${quietPort}/mcp\nautoStart: true\n`,
    });
    legacy = await connectHttp(sb.url);
    closing.push(legacy);
    await eventually(
      () => meta<Listed>(legacy, 'list_servers'),
      (l) => l.servers.filter((s) => s.state === 'running' || s.state === 'connected').length === 4,
      20_000,
    );
  });

  after(async () => {
    for (const c of closing) await c.close().catch(() => undefined);
    await sb?.stop();
    web?.kill();
    quiet?.kill();
  });

  it('each connection speaks what its server speaks, and list_servers and core_service_status say which', async () => {
    const { servers } = await meta<Listed>(legacy, 'list_servers');
    const version = Object.fromEntries(servers.map((s) => [s.name, s.protocolVersion]));
    expect(version).to.deep.equal({ mweb: '2026-07-28', mio: '2026-07-28', mttl: '2026-07-28', old: '2025-11-25' });
    const status = await meta<{ metadata: { protocolVersion?: string } }>(legacy, 'call_tool', { name: 'core_service_status', arguments: { name: 'mweb' } });
    expect(status.metadata.protocolVersion).to.equal('2026-07-28');
  });

  it("a legacy client and a modern client call a modern-only upstream's tools over HTTP and stdio", async () => {
    expect(text(await callTool(legacy, 'x_mweb_echo', { text: 'over http' }))).to.equal('over http');
    expect(text(await callTool(legacy, 'x_mio_echo', { text: 'over stdio' }))).to.equal('over stdio');
    const modern = new ModernClient({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new ModernTransport(new URL(sb.url)));
    closing.push(modern);
    const r = (await modern.callTool({ name: 'call_tool', arguments: { name: 'x_mweb_echo', arguments: { text: 'modern to modern' } } })) as CallToolResult;
    expect(text(r)).to.equal('modern to modern');
  });

  it("every request to a modern upstream carries the envelope: the version, Switchboard's client info, the caller's capabilities", async () => {
    const { client } = await askedClient(sb.url, 'env');
    closing.push(client);
    const seen = JSON.parse(text(await callTool(client, 'x_mweb_envelope'))) as Record<string, unknown>;
    expect(seen['io.modelcontextprotocol/protocolVersion']).to.equal('2026-07-28');
    expect((seen['io.modelcontextprotocol/clientInfo'] as { name: string }).name).to.equal('switchboard');
    // The calling client's own declaration (elicitation only), not what Switchboard declares for itself.
    expect(Object.keys(seen['io.modelcontextprotocol/clientCapabilities'] as object)).to.deep.equal(['elicitation']);
  });

  it("a legacy client is asked what the modern upstream's input_required wants, and the upstream gets the answer (HTTP and stdio)", async () => {
    const ada = await askedClient(sb.url, 'Ada');
    closing.push(ada.client);
    expect(text(await callTool(ada.client, 'x_mweb_confirm', { action: 'deploy' }))).to.equal('deploy confirmed by Ada (state confirm:deploy)');
    expect(text(await callTool(ada.client, 'x_mio_confirm', { action: 'rollback' }))).to.equal('rollback confirmed by Ada (state confirm:rollback)');
    expect(ada.asked).to.deep.equal(['Who confirms deploy?', 'Who confirms rollback?']);
  });

  it('a legacy client that cannot be asked gets the call refused naming the capability, never a hang', async () => {
    const r = await callTool(legacy, 'x_mweb_confirm', { action: 'deploy' });
    expect(r.isError).to.equal(true);
    expect(JSON.stringify(r.structuredContent ?? r.content)).to.match(/elicitation/);
  });

  it("a modern upstream's tool list change (subscriptions/listen) reaches the catalogue", async () => {
    expect(text(await callTool(legacy, 'x_mweb_grow'))).to.equal('grown_1');
    const described = await eventually(
      () => metaRaw(legacy, 'describe_tool', { name: 'x_mweb_grown_1' }),
      (r) => !r.isError,
      10_000,
    );
    expect(described.isError).to.not.equal(true);
    expect(text(await callTool(legacy, 'x_mweb_grown_1'))).to.equal('I am grown_1');
  });

  it('a modern upstream that announces no list changes is re-listed once its tools/list ttlMs has passed', async () => {
    expect(text(await callTool(legacy, 'x_mttl_grow'))).to.equal('grown_1');
    // Its ttlMs is 1 s, held at Switchboard's 2 s floor: the new tool appears without any notification.
    const described = await eventually(
      () => metaRaw(legacy, 'describe_tool', { name: 'x_mttl_grown_1' }),
      (r) => !r.isError,
      15_000,
      200,
    );
    expect(described.isError).to.not.equal(true);
  });
});
