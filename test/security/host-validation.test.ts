/**
 * Hardening (issue 22), DNS rebinding: a page at evil.example whose name resolves to 127.0.0.1
 * reaches the loopback listeners with `Host: evil.example`. The MCP endpoint and the admin UI
 * answer only to their own names (localhost names, bind address, base URLs, allowedHosts).
 */
import { expect } from 'chai';
import { request } from 'node:http';
import { freePort, startSwitchboard, type Running } from '../support/harness.js';
import { hostCheck } from '../../lib/net/allowed-hosts.js';

/** A raw request with the Host (and, for the attacker's page, the Origin) a browser would send; fetch cannot set Host. */
function send(port: number, path: string, host: string, method = 'POST', body = ''): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(host.startsWith('evil') ? { origin: `http://${host}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
});

describe('security: the loopback listeners answer only to their own names', function () {
  this.timeout(60_000);
  let sb: Running;
  let adminPort: number;
  before(async () => {
    adminPort = await freePort();
    sb = await startSwitchboard({
      'config.yaml': `aggregator:\n  allowedHosts: [switchboard.internal]\n  admin:\n    enabled: true\n    port: ${adminPort}\n`,
    });
  });
  after(async () => {
    await sb?.stop();
  });

  it('the MCP endpoint refuses a foreign Host with 421 and serves its own names', async () => {
    const evil = await send(sb.port, '/mcp', `evil.example:${sb.port}`, 'POST', INITIALIZE);
    expect(evil.status).to.equal(421);
    expect(evil.text).to.include("Host 'evil.example:");
    for (const name of [`localhost:${sb.port}`, `127.0.0.1:${sb.port}`, `switchboard.internal:${sb.port}`]) {
      expect((await send(sb.port, '/mcp', name, 'POST', INITIALIZE)).status, name).to.equal(200);
    }
    // GET /sse would open a session: refused the same way.
    expect((await send(sb.port, '/sse', 'evil.example', 'GET')).status).to.equal(421);
    // Liveness probes come by address and name alike.
    expect((await send(sb.port, '/health', 'evil.example', 'GET')).status).to.equal(200);
  });

  it('the admin UI refuses a foreign Host before anything else, reads and actions alike', async () => {
    expect((await send(adminPort, '/sessions', 'evil.example', 'GET')).status).to.equal(421);
    expect((await send(adminPort, '/sessions/x/delete', 'evil.example', 'POST')).status).to.equal(421);
    expect((await send(adminPort, '/sessions', `127.0.0.1:${adminPort}`, 'GET')).status).to.equal(200);
  });

  it('a listener bound beyond loopback answers to any name unless allowedHosts lists some', () => {
    expect(hostCheck('0.0.0.0', [], []).allows('10.1.2.3:8090')).to.equal(true);
    expect(hostCheck('0.0.0.0', ['sb.example'], []).allows('10.1.2.3:8090')).to.equal(false);
    expect(hostCheck('127.0.0.1', [], ['https://mcp.example.com/']).allows('MCP.example.com.')).to.equal(true);
    expect(hostCheck('::1', [], []).allows('[::1]:8090')).to.equal(true);
  });
});
