/**
 * Cluster mode's cost and its failure, through real processes: two Switchboards on one real
 * redis-server, one without a rate limit and one with. A call_tool on a cached session costs
 * Redis nothing without a rate limit and one script with it (INFO commandstats). Redis
 * stopped under load: no crash, /health degraded with the reason, calls that need nothing
 * shared keep working, calls that need the shared rate limit answer SHARED_STATE_UNAVAILABLE;
 * Redis back: /health ok and every call works again.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, errorCode, eventually, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';
import { clusterYaml, commandCounts, commandsBetween, TIMER_COMMANDS } from '../support/cluster.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';

interface Load {
  outcomes: Map<string, number>;
  stop(): Promise<void>;
}

/**
 * Calls `tool` over and over on `client` until stopped, counting outcomes by error code ('ok' for
 * success): at most one call per PACE_MS (a call always near in flight, up to 100 a second), since
 * the load lasts as long as the outage takes and, unpaced, only burns CPU.
 */
const PACE_MS = 10;
function load(client: Client, tool: string): Load {
  const outcomes = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const paced = new Promise((resolve) => setTimeout(resolve, PACE_MS));
      const code = errorCode(await callTool(client, tool)) ?? 'ok';
      outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
      await paced;
    }
  })();
  return {
    outcomes,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

async function health(sb: Running): Promise<{ status: string; reason?: string }> {
  return (await (await fetch(new URL('/health', sb.url))).json()) as { status: string; reason?: string };
}

describe('cluster mode: Redis operations per call, and Redis stopped under load', function () {
  this.timeout(180_000);
  let redis: RedisServer;
  let plain: Running;
  let limited: Running;
  let plainClient: Client;
  let limitedClient: Client;

  before(async function () {
    redis = await startRedisOrSkip(this);
    const tools = stdioServer('tools', TEST_SERVER);
    plain = await startSwitchboard({ 'config.yaml': `aggregator:\n${clusterYaml(redis)}\n`, 'mcpservers/tools.yaml': tools });
    limited = await startSwitchboard({
      'config.yaml': `aggregator:\n${clusterYaml(redis)}\n  limits:\n    rateLimit: {callsPerSecond: 100000, burst: 100000}\n`,
      'mcpservers/tools.yaml': tools,
    });
    plainClient = await connectHttp(plain.url);
    limitedClient = await connectHttp(limited.url);
    for (const client of [plainClient, limitedClient])
      await eventually(
        () => callTool(client, 'x_tools_ping'),
        (r) => !r.isError,
        20_000,
      );
  });

  after(async () => {
    await plainClient?.close().catch(() => undefined);
    await limitedClient?.close().catch(() => undefined);
    await plain?.stop();
    await limited?.stop();
    await redis?.stop();
  });

  it('a call_tool on a cached session costs Redis nothing without a rate limit, and one script with one', async () => {
    const calls = 100;
    const before = commandCounts(redis);
    for (let i = 0; i < calls; i++) expect(errorCode(await callTool(plainClient, 'x_tools_ping'))).to.equal(undefined);
    // The replicas' timers (liveness, the look for ended replicas' runs) run whatever the calls do.
    const none = commandsBetween(before, commandCounts(redis), TIMER_COMMANDS);
    const middle = commandCounts(redis);
    for (let i = 0; i < calls; i++) expect(errorCode(await callTool(limitedClient, 'x_tools_ping'))).to.equal(undefined);
    const limitedOps = commandsBetween(middle, commandCounts(redis), TIMER_COMMANDS);
    console.log(`      Redis commands for ${calls} call_tool: ${JSON.stringify(none)} without a rate limit, ${JSON.stringify(limitedOps)} with one`);
    expect(none).to.deep.equal({});
    // One round trip per call: EVALSHA (EVAL the first time the script is not loaded yet). Redis
    // also counts the commands the script runs inside, which cost no round trip.
    expect((limitedOps.evalsha ?? 0) + (limitedOps.eval ?? 0)).to.equal(calls);
    const insideScript = ['time', 'hmget', 'hset', 'pexpire'];
    const sent = Object.keys(limitedOps).filter((k) => !insideScript.includes(k));
    expect(sent.filter((k) => k !== 'evalsha' && k !== 'eval')).to.deep.equal([]);
  });

  it('Redis stopped under load: no crash, /health degraded, shared calls refused with SHARED_STATE_UNAVAILABLE, the rest go on; back: healthy', async () => {
    const plainLoad = load(plainClient, 'x_tools_ping');
    const limitedLoad = load(limitedClient, 'x_tools_ping');
    try {
      await eventually(
        async () => (plainLoad.outcomes.get('ok') ?? 0) + (limitedLoad.outcomes.get('ok') ?? 0),
        (n) => n > 20,
        20_000,
      );
      await redis.stop();
      for (const sb of [plain, limited]) {
        const h = await eventually(
          () => health(sb),
          (x) => x.status === 'degraded',
          30_000,
        );
        expect(h.reason).to.match(/^cluster-redis: Redis at redis:\/\/127\.0\.0\.1:\d+ unreachable: /);
      }
      await eventually(
        async () => limitedLoad.outcomes.get('SHARED_STATE_UNAVAILABLE') ?? 0,
        (n) => n > 0,
        30_000,
      );
      // The plain replica needs nothing shared for a call on a session it holds: it goes on.
      const plainOkDuringOutage = plainLoad.outcomes.get('ok') ?? 0;
      await eventually(
        async () => plainLoad.outcomes.get('ok') ?? 0,
        (n) => n > plainOkDuringOutage + 20,
        30_000,
      );
      const refusal = await callTool(limitedClient, 'x_tools_ping');
      expect(errorCode(refusal)).to.equal('SHARED_STATE_UNAVAILABLE');
      expect((refusal.structuredContent as { error: { message: string } }).error.message).to.match(
        /^The rate limit counted across replicas needs the state replicas share, which cannot be reached now \(Redis at redis:\/\/127\.0\.0\.1:\d+ unreachable: .*\); retry shortly$/,
      );

      await redis.restart();
      for (const sb of [plain, limited])
        await eventually(
          () => health(sb),
          (x) => x.status === 'ok',
          30_000,
        );
      const limitedOkBefore = limitedLoad.outcomes.get('ok') ?? 0;
      await eventually(
        async () => limitedLoad.outcomes.get('ok') ?? 0,
        (n) => n > limitedOkBefore + 20,
        30_000,
      );
    } finally {
      await plainLoad.stop();
      await limitedLoad.stop();
    }
    console.log(
      `      under load through the outage: plain ${JSON.stringify(Object.fromEntries(plainLoad.outcomes))}, rate-limited ${JSON.stringify(Object.fromEntries(limitedLoad.outcomes))}`,
    );
    expect([...plainLoad.outcomes.keys()]).to.deep.equal(['ok']);
    expect([...limitedLoad.outcomes.keys()].sort()).to.deep.equal(['SHARED_STATE_UNAVAILABLE', 'ok']);
    expect(plain.proc.exitCode).to.equal(null);
    expect(limited.proc.exitCode).to.equal(null);
  });
});
