/**
 * Issue 40's cluster acceptance: two replicas on one redis-server behind a real HAProxy, round
 * robin per request with no stickiness, and a 2026-07-28 SDK client (v2
 * `@modelcontextprotocol/client`) making 1,000 `call_tool` calls through to a real upstream.
 * Each replica runs its own copy of the stdio upstream, whose `ping` answers with its process
 * id: every answer says which replica served that call, so the test sees the calls alternate
 * and counts each replica's share from the answers themselves. Redis is read with
 * `INFO commandstats` before and after: a modern call has no session, so no command runs
 * for it; the replicas' own timers (liveness, sweeps) run on a clock, and their count over
 * the calls is bounded by the time the calls took, far below one per call.
 */
import { expect } from 'chai';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { clusterYaml, commandCounts, commandsBetween, TIMER_COMMANDS } from '../support/cluster.js';
import { ensureHaproxy, startHaproxy, type RunningHaproxy } from '../support/haproxy.js';
import { connectHttp, makeConfigDir, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';
import { redisServerMissing, startRedis, type RedisServer } from '../support/redis-server.js';

const CALLS = 1000;
/** Sent by each replica on a timer, never on a request's path (test/support/cluster.ts), and the Redis client's keep-alive. */
const CLOCKED = TIMER_COMMANDS;
/**
 * The most clocked commands one replica sends per 5 s tick: PSETEX and EXISTS (liveness),
 * HGETALL twice (runs, tasks), a PING on each of its two connections (lib/redis/silent-connection-probe.ts),
 * and one to spare.
 */
const CLOCKED_PER_TICK = 7;
const TICK_MS = 5_000;

type Modern = InstanceType<typeof ModernClient>;

/** The upstream process that answered a `ping` through call_tool ("pong from test-server pid 1234"), or why it is not one. */
async function pingPid(client: Modern): Promise<number | string> {
  const r = await client.callTool({ name: 'call_tool', arguments: { name: 'x_t_ping', arguments: {} } });
  const text = JSON.stringify(r.content);
  const m = /pong from \S+ pid (\d+)/.exec(text);
  return !r.isError && m ? Number(m[1]) : `not a pong: ${text.slice(0, 200)}`;
}

async function modernClient(url: string): Promise<Modern> {
  const client = new ModernClient({ name: 'modern-balanced', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernTransport(new URL(url)));
  return client;
}

describe('cluster acceptance (issue 40): 1,000 modern calls through HAProxy without stickiness', function () {
  this.timeout(300_000);
  let redis: RedisServer;
  let replicas: Running[] = [];
  let lb: RunningHaproxy | undefined;

  before(async function () {
    const missing = redisServerMissing() ?? ensureHaproxy();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
    redis = await startRedis();
    const configDir = await makeConfigDir({
      'config.yaml': `aggregator:\n${clusterYaml(redis)}\n`,
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
    });
    replicas = await Promise.all([0, 1].map(() => startSwitchboard({}, { configDir, startTimeoutMs: 60_000 })));
    lb = await startHaproxy(replicas.map((r) => r.port));
  });

  after(async () => {
    await lb?.stop();
    await Promise.all(replicas.map((r) => r.stop()));
    await redis?.stop();
  });

  it('alternate the two replicas, 500 each, none fails, and no Redis command runs for any of them', async () => {
    // Which upstream process is whose: one modern call straight to each replica (this also
    // waits for each replica's upstream to be connected before anything is counted).
    const owner = new Map<number, number>();
    for (const [i, r] of replicas.entries()) {
      const direct = await modernClient(r.url);
      const pid = await pingPid(direct);
      expect(pid, `replica ${i}'s upstream`).to.be.a('number');
      owner.set(pid as number, i);
      await direct.close();
    }
    expect(owner.size, 'each replica runs its own upstream process').to.equal(2);

    const client = await modernClient(lb!.url);
    const servedBefore = await lb!.served();
    const before = commandCounts(redis);
    const started = Date.now();
    const byReplica = [0, 0];
    const failures: string[] = [];
    let alternations = 0;
    let previous: number | undefined;
    for (let i = 0; i < CALLS; i++) {
      const pid = await pingPid(client).catch((err: unknown) => `threw: ${(err as Error).message}`);
      const replica = typeof pid === 'number' ? owner.get(pid) : undefined;
      if (replica === undefined) {
        failures.push(`call ${i}: ${String(pid)}`);
        continue;
      }
      byReplica[replica]!++;
      if (previous !== undefined && replica !== previous) alternations++;
      previous = replica;
    }
    const elapsedMs = Date.now() - started;
    const after = commandCounts(redis);
    const servedAfter = await lb!.served();
    await client.close();

    expect(failures, failures.slice(0, 5).join('\n')).to.deep.equal([]);
    // Round robin per request, nothing sticky: every call went to the other replica than the one before.
    expect(byReplica).to.deep.equal([CALLS / 2, CALLS / 2]);
    expect(alternations).to.equal(CALLS - 1);
    // HAProxy agrees: it forwarded the calls (and nothing else the client sent) half to each.
    const forwarded = Object.keys(servedAfter).map((name) => servedAfter[name]! - (servedBefore[name] ?? 0));
    expect(forwarded).to.deep.equal([CALLS / 2, CALLS / 2]);

    // Nothing but the replicas' clocks ran in Redis while the calls did ...
    expect(commandsBetween(before, after, CLOCKED), 'commands other than the timers').to.deep.equal({});
    // ... and the clocks ran no more than their ticks over that time: not one command per call.
    const clocked = Object.values(commandsBetween(before, after)).reduce((a, b) => a + b, 0);
    const ticks = Math.ceil(elapsedMs / TICK_MS) + 1;
    expect(clocked, `${clocked} clocked commands in ${elapsedMs} ms`).to.be.at.most(replicas.length * ticks * CLOCKED_PER_TICK);
    console.log(`      ${CALLS} calls in ${elapsedMs} ms; Redis meanwhile: ${JSON.stringify(commandsBetween(before, after))}`);
  });

  it('and the same count sees what a legacy session costs: its initialize through the balancer is recorded in Redis', async () => {
    const before = commandCounts(redis);
    const legacy = await connectHttp(lb!.url);
    const recorded = commandsBetween(before, commandCounts(redis), CLOCKED);
    await legacy.close();
    expect(Object.keys(recorded), 'commands a legacy initialize sent').to.not.be.empty;
  });
});
