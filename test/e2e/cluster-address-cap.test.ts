/**
 * Issue 36, finding 6: behind a balancer the per-address session cap counts each real client
 * (X-Forwarded-For from a trusted proxy, right-most untrusted hop), across replicas, and a
 * session resumed on another replica is never counted as a new one. Real processes: a
 * redis-server, two Switchboard replicas, HAProxy round robin with `option forwardfor`.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, errorCode, eventually, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { clusterYaml } from '../support/cluster.js';
import { ensureHaproxy, startHaproxy, type RunningHaproxy } from '../support/haproxy.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';

const PER_ADDRESS = 3;
/** Documentation addresses (RFC 5737): only ever a header's text, never a destination. */
const CLIENTS = ['203.0.113.10', '203.0.113.11', '203.0.113.12'];
const CALLS_PER_SESSION = 4;

/** An initialize through the balancer as a client at `address` (its own X-Forwarded-For, which HAProxy appends to). */
async function initializeAs(url: string, address: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': address },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'capped', version: '1' } },
    }),
  });
  return { status: res.status, body: await res.text() };
}

describe('cluster mode: per-address session caps behind a balancer count real clients, not the balancer nor resumed sessions', function () {
  this.timeout(240_000);
  let redis: RedisServer;
  let replicas: Running[] = [];
  let balancer: RunningHaproxy;
  const clients: Client[] = [];

  before(async function () {
    const missing = ensureHaproxy();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
    redis = await startRedisOrSkip(this);
    const config = [
      'aggregator:',
      clusterYaml(redis),
      '  limits:',
      `    maxSessionsPerPrincipal: ${PER_ADDRESS}`,
      '  oauth:',
      '    server:',
      '      trustedProxyCIDRs: ["127.0.0.1/32"]',
    ].join('\n');
    // Generous start timeouts: these start while other suites load the machine.
    const first = await startSwitchboard({ 'config.yaml': config, 'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER) }, { startTimeoutMs: 90_000 });
    replicas = [first, await startSwitchboard({}, { configDir: first.configDir, startTimeoutMs: 90_000 })];
    balancer = await startHaproxy(
      replicas.map((r) => r.port),
      '/mcp',
      { forwardFor: true },
    );
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await balancer?.stop();
    for (const r of [...replicas].reverse()) await r.stop();
    await redis?.stop();
  });

  it(`${CLIENTS.length} clients hold ${PER_ADDRESS} sessions each; a further one per client is refused on every replica, naming the client; every session keeps working across replicas`, async () => {
    for (const address of CLIENTS) {
      for (let i = 0; i < PER_ADDRESS; i++) clients.push(await connectHttp(balancer.url, { 'x-forwarded-for': address }));
    }
    // Two more each: round robin sends them to both replicas, and both know the client is full.
    for (const address of CLIENTS) {
      for (let i = 0; i < 2; i++) {
        const refused = await initializeAs(balancer.url, address);
        expect(refused.status, refused.body).to.equal(503);
        expect(refused.body).to.include(`client address ${address} already holds ${PER_ADDRESS} sessions`);
      }
    }
    // Another client is not anyone else's: it gets in.
    const other = await initializeAs(balancer.url, '203.0.113.99');
    expect(other.status, other.body).to.equal(200);

    // Each session's requests go round robin: every one is taken up by the replica it did not open on.
    const before = await balancer.served();
    for (const client of clients) {
      for (let i = 0; i < CALLS_PER_SESSION; i++) {
        const result = await eventually(
          () => callTool(client, 'x_tools_ping'),
          (r) => errorCode(r) !== 'SERVER_UNAVAILABLE',
          20_000,
        );
        expect(result.isError, text(result)).to.not.equal(true);
      }
    }
    const after = await balancer.served();
    for (const name of Object.keys(after)) expect(after[name]! - (before[name] ?? 0), `requests served by ${name}`).to.be.greaterThan(clients.length);
  });
});
