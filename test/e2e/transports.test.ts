import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { callTool, CLI, connectSse, EVERYTHING, makeConfigDir, meta, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';

describe('transports', () => {
  describe('legacy SSE (/sse + /message)', () => {
    let sb: Running;
    before(async () => {
      sb = await startSwitchboard({ 'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']) });
    });
    after(async () => sb?.stop());

    it('serves the same 13 meta-tools and runs tools through call_tool', async () => {
      const client = await connectSse(sb.url);
      try {
        const { tools } = await client.listTools();
        expect(tools).to.have.length(13);
        const r = await callTool(client, 'x_everything_echo', { message: 'over sse' });
        expect(text(r)).to.equal('Echo: over sse');
        const page = await meta<{ total: number }>(client, 'list_tools', { limit: 1 });
        expect(page.total).to.be.greaterThan(5);
      } finally {
        await client.close();
      }
    });

    it('answers an unknown SSE session with 404', async () => {
      const res = await fetch(new URL('/message?sessionId=nope', sb.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).to.equal(404);
    });
  });

  describe('stdio (aggregator.transport: stdio)', () => {
    it('serves one client on stdin/stdout and exits when the client leaves', async () => {
      const dir = await makeConfigDir({
        'config.yaml': 'aggregator:\n  transport: stdio\n',
        'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
      });
      const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--config-path', dir], stderr: 'pipe' });
      const client = new Client({ name: 'stdio-test', version: '1.0.0' });
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools).to.have.length(13);
      const r = await callTool(client, 'x_everything_get-sum', { a: 20, b: 22 });
      expect(text(r)).to.include('42');
      const pid = transport.pid!;
      await client.close();
      // Closing stdin ends the service; the process must be gone shortly after.
      const deadline = Date.now() + 8000;
      let alive = true;
      while (Date.now() < deadline && alive) {
        try {
          process.kill(pid, 0);
          await new Promise((res) => setTimeout(res, 50));
        } catch {
          alive = false;
        }
      }
      expect(alive).to.equal(false);
    });
  });

  describe('streamable HTTP at the HTTP level', () => {
    let sb: Running;
    before(async () => {
      sb = await startSwitchboard({});
    });
    after(async () => sb?.stop());

    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

    it('answers /health with 200 {"status":"ok"}', async () => {
      const res = await fetch(new URL('/health', sb.url));
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ status: 'ok' });
    });

    it('issues a session id on initialize and negotiates 2025-11-25', async () => {
      const res = await fetch(sb.url, { method: 'POST', headers, body: JSON.stringify(init) });
      expect(res.status).to.equal(200);
      expect(res.headers.get('mcp-session-id')).to.match(/^[0-9a-f-]{36}$/);
      const body = (await res.json()) as { result: { protocolVersion: string; serverInfo: { name: string } } };
      expect(body.result.protocolVersion).to.equal('2025-11-25');
      expect(body.result.serverInfo.name).to.equal('switchboard');
    });

    it('accepts an older protocol revision (2025-03-26)', async () => {
      const res = await fetch(sb.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ ...init, params: { ...init.params, protocolVersion: '2025-03-26' } }),
      });
      const body = (await res.json()) as { result: { protocolVersion: string } };
      expect(body.result.protocolVersion).to.equal('2025-03-26');
    });

    it('ends a session on DELETE; the id is then unknown (404)', async () => {
      const res = await fetch(sb.url, { method: 'POST', headers, body: JSON.stringify(init) });
      const sid = res.headers.get('mcp-session-id')!;
      await res.text();
      const del = await fetch(sb.url, { method: 'DELETE', headers: { 'mcp-session-id': sid } });
      expect(del.status).to.equal(200);
      const after = await fetch(sb.url, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': sid },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      expect(after.status).to.equal(404);
    });
  });
});
