/**
 * Clients of both MCP eras on the same /mcp endpoint: a 2026-07-28 client (the v2 SDK's
 * `@modelcontextprotocol/client`, pinned to 2026-07-28) served statelessly, and a 2025-11-25
 * client (the v1 SDK) on its session, at once, both reaching a real upstream
 * (server-everything) through call_tool. Then the wire itself, as any client could send it:
 * server/discover, the caching hints, the headers checked against the body, and that a modern
 * request leaves no session behind.
 */
import { expect } from 'chai';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, EVERYTHING, meta, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';

const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
};

interface Wire {
  status: number;
  headers: Headers;
  body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
}

/** One modern POST: the standard headers made from the body unless `headers` says otherwise (a key set to undefined drops it). */
async function post(url: string, id: number, method: string, params: Record<string, unknown>, headers: Record<string, string | undefined> = {}): Promise<Wire> {
  const name = method === 'tools/call' || method === 'prompts/get' ? params.name : method === 'resources/read' ? params.uri : undefined;
  const h: Record<string, string | undefined> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => e[1] !== undefined));
  const res = await fetch(url, { method: 'POST', headers: sent, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Wire['body'] };
}

async function sessionCount(legacy: Client): Promise<number> {
  const status = await meta<{ metadata: { sessions: number } }>(legacy, 'call_tool', { name: 'core_service_status', arguments: { name: 'aggregator' } });
  return status.metadata.sessions;
}

describe('MCP 2026-07-28 and 2025-11-25 clients on the same endpoint', function () {
  this.timeout(60_000);
  let sb: Running;
  let legacy: Client;
  let modern: ModernClient;

  before(async () => {
    sb = await startSwitchboard(
      {
        'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
        'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER, [], 'toolPrefix: fx\nstderrLogLevel: info\n'),
      },
      { startTimeoutMs: 60_000 },
    );
    legacy = await connectHttp(sb.url);
    // The upstream's tools are in the catalogue before either client calls one.
    await meta(legacy, 'describe_tool', { name: 'x_everything_echo' });
    modern = new ModernClient({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await modern.connect(new ModernTransport(new URL(sb.url)));
  });

  after(async () => {
    await modern?.close();
    await legacy?.close();
    await sb?.stop();
  });

  it('a v2 client pinned to 2026-07-28 and a v1 client list the same meta-tools and call an upstream tool at once', async () => {
    expect(modern.getNegotiatedProtocolVersion()).to.equal(MODERN);
    const [modernList, legacyList] = await Promise.all([modern.listTools(), legacy.listTools()]);
    const names = modernList.tools.map((t) => t.name);
    expect(names).to.have.length(13);
    expect(names).to.deep.equal([...names].sort());
    expect([...names].sort()).to.deep.equal(legacyList.tools.map((t) => t.name).sort());
    const [fromModern, fromLegacy] = await Promise.all([
      modern.callTool({ name: 'call_tool', arguments: { name: 'x_everything_echo', arguments: { message: 'from 2026' } } }),
      callTool(legacy, 'x_everything_echo', { message: 'from 2025' }),
    ]);
    expect(fromModern.isError).to.not.equal(true);
    expect((fromModern.content as { type: string; text: string }[])[0]!.text).to.equal('Echo: from 2026');
    expect(text(fromLegacy)).to.equal('Echo: from 2025');
  });

  it('a modern request opens no session and hands out no Mcp-Session-Id; the legacy session goes on', async () => {
    const before = await sessionCount(legacy);
    expect(before).to.equal(1);
    for (let i = 0; i < 5; i++) {
      const r = await post(sb.url, 10 + i, 'tools/call', {
        name: 'call_tool',
        arguments: { name: 'x_everything_echo', arguments: { message: `n${i}` } },
        _meta: ENVELOPE,
      });
      expect(r.status).to.equal(200);
      expect(r.headers.get('mcp-session-id')).to.equal(null);
      expect(r.body.result?.resultType).to.equal('complete');
    }
    await modern.listTools();
    expect(await sessionCount(legacy)).to.equal(before);
    expect(text(await callTool(legacy, 'x_everything_echo', { message: 'still here' }))).to.equal('Echo: still here');
  });

  it('server/discover names both eras, the capabilities a modern client is served, and the server in _meta', async () => {
    const r = await post(sb.url, 1, 'server/discover', { _meta: ENVELOPE });
    expect(r.status).to.equal(200);
    const result = r.body.result!;
    expect(result.supportedVersions).to.include.members([MODERN, '2025-11-25']);
    expect(result.resultType).to.equal('complete');
    expect((result._meta as Record<string, { name: string }>)['io.modelcontextprotocol/serverInfo']!.name).to.equal('switchboard');
    const caps = result.capabilities as Record<string, unknown>;
    expect(caps).to.have.property('tools');
    expect(caps).to.not.have.property('tasks');
    // Changes are served on subscriptions/listen (test/e2e/modern-listen.test.ts).
    expect(caps.tools).to.deep.equal({ listChanged: true });
    expect(result.cacheScope).to.equal('public');
    expect(result.ttlMs).to.be.a('number');
  });

  it('list results carry ttlMs and cacheScope: private once the view depends on the caller (a toolset header)', async () => {
    const tools = await post(sb.url, 2, 'tools/list', { _meta: ENVELOPE });
    expect(tools.body.result).to.include({ cacheScope: 'public', resultType: 'complete' });
    expect(tools.body.result!.ttlMs).to.be.a('number').and.at.least(0);
    for (const t of tools.body.result!.tools as Record<string, unknown>[]) expect(t).to.not.have.property('execution');
    const open = await post(sb.url, 3, 'resources/list', { _meta: ENVELOPE });
    expect(open.body.result).to.include({ cacheScope: 'public', resultType: 'complete' });
    const narrowed = await post(sb.url, 4, 'resources/list', { _meta: ENVELOPE }, { 'x-service-toolset': 'server:everything' });
    expect(narrowed.body.result).to.include({ cacheScope: 'private' });
  });

  it('headers that disagree with the body are refused with 400 and HeaderMismatch (-32020), naming both values', async () => {
    const args = { name: 'call_tool', arguments: { name: 'x_everything_echo', arguments: { message: 'x' } }, _meta: ENVELOPE };
    const name = await post(sb.url, 5, 'tools/call', args, { 'mcp-name': 'list_tools' });
    expect(name.status).to.equal(400);
    expect(name.body).to.deep.include({ id: 5 });
    expect(name.body.error!.code).to.equal(-32020);
    expect(name.body.error!.message).to.include("'list_tools'").and.include("'call_tool'");
    const noName = await post(sb.url, 6, 'tools/call', args, { 'mcp-name': undefined });
    expect([noName.status, noName.body.error!.code]).to.deep.equal([400, -32020]);
    const method = await post(sb.url, 7, 'tools/list', { _meta: ENVELOPE }, { 'mcp-method': 'tools/call' });
    expect([method.status, method.body.error!.code]).to.deep.equal([400, -32020]);
    const version = await post(sb.url, 8, 'tools/list', { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } });
    expect([version.status, version.body.error!.code]).to.deep.equal([400, -32020]);
    // The Base64 sentinel form of the same name is the same name.
    const encoded = await post(sb.url, 9, 'tools/call', args, { 'mcp-name': `=?base64?${Buffer.from('call_tool').toString('base64')}?=` });
    expect(encoded.status).to.equal(200);
    expect(encoded.body.result!.resultType).to.equal('complete');
  });

  it('an unknown version is -32022 listing the supported ones; a missing envelope is -32602; removed methods are 404', async () => {
    const unknown = await post(
      sb.url,
      20,
      'server/discover',
      { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': 'v999' } },
      { 'mcp-protocol-version': 'v999' },
    );
    expect([unknown.status, unknown.body.error!.code]).to.deep.equal([400, -32022]);
    expect(unknown.body.error!.data).to.deep.include({ requested: 'v999' });
    expect(unknown.body.error!.data!.supported).to.include.members([MODERN, '2025-11-25']);
    const bare = await post(sb.url, 21, 'server/discover', {});
    expect([bare.status, bare.body.error!.code, bare.body.id]).to.deep.equal([400, -32602, 21]);
    const noCaps = await post(sb.url, 22, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } });
    expect([noCaps.status, noCaps.body.error!.code]).to.deep.equal([400, -32602]);
    expect(noCaps.body.error!.message).to.include('clientCapabilities');
    for (const removed of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'tasks/list']) {
      const r = await post(sb.url, 23, removed, { _meta: ENVELOPE });
      expect([removed, r.status, r.body.error!.code]).to.deep.equal([removed, 404, -32601]);
    }
  });

  it('a modern call runs the meta-tools with the same checks: an aggregated tool called directly is -32602 in band', async () => {
    const r = await post(sb.url, 30, 'tools/call', { name: 'x_everything_echo', arguments: { message: 'x' }, _meta: ENVELOPE });
    expect(r.status).to.equal(200);
    expect(r.body.error!.code).to.equal(-32602);
    expect(r.body.error!.message).to.include('call_tool');
  });

  it("a modern call's progress reaches the client on the request's own stream, before its result", async () => {
    const progress: number[] = [];
    const r = await modern.callTool(
      { name: 'call_tool', arguments: { name: 'x_fx_slow', arguments: { ms: 200 } } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect((r.content as { text: string }[])[0]!.text).to.equal('waited 200');
    expect(progress).to.deep.equal([1, 2, 3, 4]);
  });

  it('closing a modern request cancels the upstream call (2026-07-28 has no notifications/cancelled over HTTP)', async () => {
    const stop = new AbortController();
    const running = modern
      .callTool({ name: 'call_tool', arguments: { name: 'x_fx_slow', arguments: { ms: 4321 } } }, { signal: stop.signal })
      .catch((e: unknown) => e);
    await sb.waitForLog(/slow 4321/);
    stop.abort('changed my mind');
    await running;
    await sb.waitForLog(/slow 4321: cancelled by the client/);
  });
});
