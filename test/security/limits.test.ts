/**
 * Hardening (issue 22), budgets one caller or one upstream cannot exceed: sessions per caller
 * (one client could hold every session of maxSessions), how long a request may take to
 * arrive (a trickling client held its connection for minutes), and what one upstream may put
 * in the catalogue (50,000 tools or 5,000-character names were accepted).
 */
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, connectHttp, eventually, meta, text, ROOT, startSwitchboard, stdioServer, type Running } from '../support/harness.js';
import { writeFile } from 'node:fs/promises';

const OVERSIZED = join(ROOT, 'dist/test/fixtures/oversized-tools-server.js');
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** An initialize sent from a chosen loopback address: another client, as far as the server can tell. */
function initializeFrom(localAddress: string, port: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        localAddress,
        headers: { host: `localhost:${port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

/** Resolves with what the server sent before it closed the connection. */
function closedWith(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    socket.on('data', (c: Buffer) => (got += c.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(got));
  });
}

describe('security: budgets of one caller and one upstream', function () {
  this.timeout(90_000);

  describe('sessions per caller', () => {
    let sb: Running;
    const clients: Client[] = [];
    before(async () => {
      sb = await startSwitchboard({ 'config.yaml': 'aggregator:\n  limits:\n    maxSessionsPerPrincipal: 3\n' });
    });
    after(async () => {
      for (const c of clients) await c.close().catch(() => undefined);
      await sb?.stop();
    });

    it('refuses one client address its fourth session with 503, naming the setting, while another address still gets in', async () => {
      for (let i = 0; i < 3; i++) clients.push(await connectHttp(sb.url));
      const refused = await initializeFrom('127.0.0.1', sb.port);
      expect(refused.status).to.equal(503);
      expect(refused.text).to.include('client address 127.0.0.1 already holds 3 sessions').and.include('aggregator.limits.maxSessionsPerPrincipal');
      const other = await initializeFrom('127.0.0.2', sb.port);
      expect(other.status, other.text).to.equal(200);
    });

    it('gives the slot back when a session ends', async () => {
      const leaving = clients.pop()!;
      await (leaving.transport as StreamableHTTPClientTransport).terminateSession();
      await leaving.close();
      clients.push(await connectHttp(sb.url));
      expect((await initializeFrom('127.0.0.1', sb.port)).status).to.equal(503);
    });
  });

  describe('reading a request', () => {
    let sb: Running;
    before(async () => {
      sb = await startSwitchboard({ 'config.yaml': 'aggregator:\n  limits:\n    headersTimeoutSeconds: 1\n    requestTimeoutSeconds: 2\n' });
    });
    after(async () => {
      await sb?.stop();
    });

    it('closes a connection whose headers never finish', async () => {
      const socket = connect(sb.port, '127.0.0.1');
      const closed = closedWith(socket);
      socket.write(`POST /mcp HTTP/1.1\r\nHost: localhost:${sb.port}\r\nContent-Type: application/json\r\n`);
      expect(await closed).to.match(/^HTTP\/1\.1 408/);
    });

    it('closes a request whose body trickles in past the request timeout', async () => {
      const socket = connect(sb.port, '127.0.0.1');
      const closed = closedWith(socket);
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: localhost:${sb.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`,
      );
      // One byte at a time keeps the connection busy; the request as a whole is what is timed.
      const drip = setInterval(() => socket.writable && socket.write(' '), 200);
      try {
        await closed;
      } finally {
        clearInterval(drip);
      }
      expect(socket.destroyed).to.equal(true);
    });

    it('still serves a request that arrives in time', async () => {
      const client = await connectHttp(sb.url);
      expect(await meta<{ tools: unknown[] }>(client, 'list_tools', {})).to.have.property('tools');
      await client.close();
    });
  });

  describe('what one upstream may offer', () => {
    let sb: Running;
    let client: Client;
    const status = (name: string) =>
      meta<{ state: string; error?: string; metadata: { tools: number } }>(client, 'call_tool', { name: 'core_service_status', arguments: { name } });
    before(async () => {
      sb = await startSwitchboard({
        'config.yaml': 'aggregator:\n  limits:\n    maxToolsPerServer: 50\n    maxToolNameLength: 64\n',
        'mcpservers/many.yaml': stdioServer('many', OVERSIZED, ['120', '--page-size', '20']),
        'mcpservers/longnames.yaml': stdioServer('longnames', OVERSIZED, ['5', '--name-length', '5000']),
        'mcpservers/grows.yaml': stdioServer('grows', OVERSIZED, ['10', '--grow-on-call']),
        'mcpservers/fits.yaml': stdioServer('fits', OVERSIZED, ['50']),
      });
      client = await connectHttp(sb.url);
    });
    after(async () => {
      await client?.close();
      await sb?.stop();
    });

    it('refuses a tool list longer than maxToolsPerServer whole, and the status says why', async () => {
      const s = await eventually(
        () => status('many'),
        (v) => v.state === 'failed',
      );
      expect(s.error).to.include('more than 50 tools').and.include('aggregator.limits.maxToolsPerServer');
      await eventually(
        () => status('fits'),
        (v) => v.state === 'running',
      );
      const names = (await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 1000 })).tools.map((t) => t.name);
      expect(names.filter((n) => n.startsWith('x_fits_'))).to.have.length(50);
      expect(names.filter((n) => n.startsWith('x_many_'))).to.deep.equal([]);
    });

    it('refuses a tool name longer than maxToolNameLength', async () => {
      const s = await eventually(
        () => status('longnames'),
        (v) => v.state === 'failed',
      );
      expect(s.error).to.include('5000 characters long').and.include('aggregator.limits.maxToolNameLength');
    });

    it('accepts a list right at the limits', async () => {
      const s = await eventually(
        () => status('fits'),
        (v) => v.state === 'running',
      );
      expect(s.metadata.tools).to.equal(50);
    });

    it('refuses a list that grows past the limit later, dropping the stale tools', async () => {
      await eventually(
        () => status('grows'),
        (v) => v.state === 'running',
      );
      expect(text(await callTool(client, 'x_grows_grow'))).to.equal('now 100 tools');
      const s = await eventually(
        () => status('grows'),
        (v) => v.state === 'failed',
      );
      expect(s.error).to.include('more than 50 tools');
      const names = (await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 1000 })).tools.map((t) => t.name);
      expect(names.filter((n) => n.startsWith('x_grows_'))).to.deep.equal([]);
    });

    it('takes a raised limit from config.yaml without a restart', async () => {
      await writeFile(join(sb.configDir, 'config.yaml'), 'aggregator:\n  limits:\n    maxToolsPerServer: 500\n    maxToolNameLength: 64\n');
      // The next retry on the backoff reads the new limit.
      const s = await eventually(
        () => status('many'),
        (v) => v.state === 'running',
        30_000,
        200,
      );
      expect(s.metadata.tools).to.equal(120);
    });
  });
});
