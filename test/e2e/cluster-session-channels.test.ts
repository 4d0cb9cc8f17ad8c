/**
 * Session channels cost Redis nothing per session: sessions opened through a balancer (round
 * robin, so every replica comes to hold each one) leave one pub/sub channel for all of them,
 * not one per session and replica. Real processes: a redis-server, three Switchboard replicas
 * behind HAProxy. Also prints Redis memory per open session (INFO memory), the figure
 * docs/scale-out.md gives; SESSIONS (environment) sets how many are opened. The default, 30,
 * is what the assertion needs (one channel where a channel per session would make 30, each
 * replica serving every session); measure the per-session figure with SESSIONS=1000.
 */
import { expect } from 'chai';
import { makeConfigDir, startSwitchboard, type Running } from '../support/harness.js';
import { addReplicas, clusterYaml } from '../support/cluster.js';
import { ensureHaproxy, startHaproxy, type RunningHaproxy } from '../support/haproxy.js';
import { redisServerMissing, startRedis, type RedisServer } from '../support/redis-server.js';

const SESSIONS = Number(process.env.SESSIONS ?? 30);
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** One JSON-RPC POST through the balancer; the session id it was answered with. */
async function post(url: string, body: unknown, session?: string): Promise<string | undefined> {
  const res = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...(session ? { 'mcp-session-id': session } : {}) }, body: JSON.stringify(body) });
  await res.text();
  if (res.status >= 300) throw new Error(`${(body as { method: string }).method}: HTTP ${res.status}`);
  return res.headers.get('mcp-session-id') ?? undefined;
}

/** A session opened through the balancer and then used on every replica (round robin: four requests reach all three). */
async function openSession(url: string): Promise<void> {
  const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'channels', version: '1' } };
  const id = await post(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: init });
  if (!id) throw new Error('initialize answered no session id');
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, id);
  for (let i = 2; i < 5; i++) await post(url, { jsonrpc: '2.0', id: i, method: 'ping' }, id);
}

const usedMemory = (redis: RedisServer): number => Number(/^used_memory:(\d+)/m.exec(redis.cli('INFO', 'memory'))![1]);

describe('cluster mode: session channels', function () {
  this.timeout(600_000);
  let redis: RedisServer;
  let replicas: Running[] = [];
  let lb: RunningHaproxy;

  before(async function () {
    const missing = redisServerMissing() ?? ensureHaproxy();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
    redis = await startRedis();
    const configDir = await makeConfigDir({
      // Every session comes from 127.0.0.1: the per-address cap must not be what is measured.
      'config.yaml': `aggregator:\n  network:\n    allow: [127.0.0.1]\n  limits:\n    maxSessionsPerPrincipal: 0\n${clusterYaml(redis)}\n`,
      // No upstream server: sessions are opened and pinged, no tool is called.
    });
    const first = await startSwitchboard({}, { configDir });
    replicas = [first, ...(await addReplicas(first, 2))];
    lb = await startHaproxy(replicas.map((r) => r.port));
  });

  after(async () => {
    await lb?.stop();
    for (const r of replicas.reverse()) await r.stop();
    await redis?.stop();
  });

  it(`${SESSIONS} sessions held by three replicas: one pub/sub channel for all of them`, async () => {
    const before = usedMemory(redis);
    const served = await lb.served();
    for (let i = 0; i < SESSIONS; i += 10) await Promise.all(Array.from({ length: Math.min(10, SESSIONS - i) }, () => openSession(lb.url)));
    const after = usedMemory(redis);
    const servedNow = await lb.served();
    for (const name of ['r0', 'r1', 'r2']) expect(servedNow[name]! - served[name]!, `requests served by ${name}`).to.be.above(SESSIONS);
    const channels = redis.cli('PUBSUB', 'CHANNELS', 'test:session-channel*').split('\n').filter(Boolean);
    console.log(
      `      ${SESSIONS} sessions: ${channels.length} session channel(s); Redis used_memory ${before} -> ${after} bytes, ${Math.round((after - before) / SESSIONS)} bytes per session`,
    );
    expect(channels).to.deep.equal(['test:session-channel']);
    expect(redis.cli('PUBSUB', 'NUMSUB', 'test:session-channel').split('\n')[1]).to.equal('3');
  });
});
