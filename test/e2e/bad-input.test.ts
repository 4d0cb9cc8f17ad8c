import { expect } from 'chai';
import { callTool, connectHttp, EVERYTHING, meta, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';

describe('bad input gets a clear error and the server keeps serving', () => {
  let sb: Running;
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  before(async () => {
    sb = await startSwitchboard({
      'config.yaml': 'aggregator:\n  maxBodyBytes: 2048\n',
      'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
    });
  });
  after(async () => sb?.stop());

  async function stillServes(): Promise<void> {
    const client = await connectHttp(sb.url);
    const r = await callTool(client, 'x_everything_echo', { message: 'still here' });
    expect(text(r)).to.equal('Echo: still here');
    await client.close();
  }

  it('answers a body that is not JSON with 400 and a JSON-RPC parse error', async () => {
    const res = await fetch(sb.url, { method: 'POST', headers, body: '{"jsonrpc": "2.0", oops' });
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).to.equal(-32700);
    expect(body.error.message).to.match(/not valid JSON/);
    await stillServes();
  });

  it('answers JSON that is not JSON-RPC with 400 Invalid Request naming the problem', async () => {
    const res = await fetch(sb.url, { method: 'POST', headers, body: JSON.stringify({ hello: 'world' }) });
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).to.equal(-32600);
    expect(body.error.message).to.include('jsonrpc');
  });

  it('answers a body over the limit with 413', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5000) } });
    const res = await fetch(sb.url, { method: 'POST', headers, body: big });
    expect(res.status).to.equal(413);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).to.match(/exceeds the limit of 2048 bytes/);
    await stillServes();
  });

  it('refuses a request without a session id (400) and with an unknown one (404)', async () => {
    const noSession = await fetch(sb.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(noSession.status).to.equal(400);
    expect(((await noSession.json()) as { error: { message: string } }).error.message).to.match(/Mcp-Session-Id/);
    const unknown = await fetch(sb.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'not-a-session' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unknown.status).to.equal(404);
  });

  it('refuses a browser Origin that is not allowed with 403 (DNS-rebinding protection), allows loopback', async () => {
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'o', version: '1' } },
    });
    const evil = await fetch(sb.url, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body: init });
    expect(evil.status).to.equal(403);
    const local = await fetch(sb.url, { method: 'POST', headers: { ...headers, origin: 'http://localhost:3000' }, body: init });
    expect(local.status).to.equal(200);
  });

  it('answers an unknown JSON-RPC method with -32601', async () => {
    const client = await connectHttp(sb.url);
    let message = '';
    try {
      await client.request({ method: 'nonsense/method', params: {} }, (await import('@modelcontextprotocol/sdk/types.js')).EmptyResultSchema);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).to.match(/-32601/);
    await client.close();
  });

  it('refuses a wrongly typed meta-tool argument as INVALID_ARGUMENTS', async () => {
    const client = await connectHttp(sb.url);
    const r = await client.callTool({ name: 'call_tool', arguments: { name: 42 } });
    expect(r.isError).to.equal(true);
    expect(text(r as never)).to.include("Invalid arguments for 'call_tool': name must be a string value");
    const ok = await meta<{ total: number }>(client, 'list_tools');
    expect(ok.total).to.be.greaterThan(0);
    await client.close();
  });
});
