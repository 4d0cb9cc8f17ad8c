/**
 * Cluster mode when its connections to Redis die without a word (a partition, a dropped NAT
 * entry): a real redis-server behind a proxy that strands every connection open at one moment
 * (nothing passes, nothing closes) and lets new ones through. Before, ioredis kept both
 * connections `ready` for as long as TCP keep-alive takes (hours): every call needing Redis
 * failed after its 5 s timeout, /health said ok, and the subscriber heard nothing more.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, errorCode, eventually, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';
import { startStrandingProxy, type StrandingProxy } from '../support/stranding-proxy.js';

/** Subscriptions per channel under the test's key prefix, as Redis counts them (one per connection). */
function subscriptions(redis: RedisServer): Map<string, number> {
  const channels = redis.cli('PUBSUB', 'CHANNELS', 'stranded:*').split('\n').filter(Boolean);
  if (channels.length === 0) return new Map();
  const counted = redis
    .cli('PUBSUB', 'NUMSUB', ...channels)
    .split('\n')
    .filter(Boolean);
  const out = new Map<string, number>();
  for (let i = 0; i + 1 < counted.length; i += 2) out.set(counted[i]!, Number(counted[i + 1]));
  return out;
}

describe('cluster mode: connections to Redis that die without a word', function () {
  this.timeout(120_000);
  let redis: RedisServer;
  let proxy: StrandingProxy;
  let sb: Running;
  let client: Client;
  /** Another replica on the same Redis, reached directly: what it records, the stranded one must hear. */
  let other: Running;
  let otherClient: Client;

  before(async function () {
    redis = await startRedisOrSkip(this);
    proxy = await startStrandingProxy(redis.port);
    // A rate limit: every call runs a script on Redis, so a call needs the commands connection.
    sb = await startSwitchboard({
      'config.yaml': [
        'aggregator:',
        '  cluster:',
        '    redis:',
        `      url: redis://127.0.0.1:${proxy.port}`,
        '      keyPrefix: "stranded:"',
        '  limits:',
        '    rateLimit: {callsPerSecond: 100000, burst: 100000}',
        '',
      ].join('\n'),
      'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER),
    });
    client = await connectHttp(sb.url);
    other = await startSwitchboard({
      'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n      keyPrefix: "stranded:"\n`,
      'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER),
    });
    otherClient = await connectHttp(other.url);
    await eventually(
      () => callTool(client, 'x_tools_ping'),
      (r) => !r.isError,
      20_000,
    );
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await otherClient?.close().catch(() => undefined);
    await sb?.stop();
    await other?.stop();
    await proxy?.close();
  });

  it('are found within seconds by a PING with no answer, closed and made again: calls work again, the channels are subscribed again', async () => {
    const subscribed = subscriptions(redis);
    expect(subscribed.size, 'channels the replica listens on').to.be.above(0);
    const accepted = proxy.accepted();
    proxy.strand();
    const during = await callTool(client, 'x_tools_ping');
    expect(errorCode(during), text(during)).to.equal('SHARED_STATE_UNAVAILABLE');
    // The probe finds both connections within its 5 s interval and the 5 s command timeout,
    // closes them and connects again: before, every call failed like the one above, for hours.
    const r = await eventually(
      () => callTool(client, 'x_tools_ping'),
      (c) => !c.isError,
      30_000,
    );
    expect(errorCode(r)).to.equal(undefined);
    // The log names the first connection found (both are probed on the same tick), and the return.
    expect(sb.logs()).to.match(/unreachable: the (commands|subscriber) connection answered no PING in time: taken for dead, connecting again/);
    await sb.waitForLog(/Redis at \S+ reachable again/);
    expect(proxy.accepted() - accepted, 'connections made again').to.be.at.least(2);
    // The stranded subscriber still counts at Redis (its end of the connection is alive): one more each.
    const again = await eventually(
      async () => subscriptions(redis),
      (now) => [...subscribed].every(([channel, n]) => (now.get(channel) ?? 0) === n + 1),
      15_000,
    );
    expect([...again.keys()].sort()).to.deep.equal([...subscribed.keys()].sort());
  });

  it('a follow of events on it hears again what another replica records: its blocking read, unanswered, is made again on a new connection', async () => {
    const follower = await connectHttp(sb.url);
    const seen: string[] = [];
    follower.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      if (n.params.logger === 'switchboard.events') seen.push(JSON.stringify(n.params.data));
    });
    const name = 'heard-after-stranding';
    const answer = await callTool(follower, 'core_events', { follow: true, resourceType: 'Workflow', resourceName: name });
    expect(answer.structuredContent).to.deep.include({ following: 'session' });
    const record = () => callTool(otherClient, 'core_workflow_validate', { name, steps: [{ id: 'p', tool: 'x_tools_ping' }] });
    // The follow reads the shared stream once its session's stream is open: the other replica records until one arrives.
    await eventually(
      async () => {
        await record();
        return seen.length;
      },
      (n) => n > 0,
      30_000,
      500,
    );
    proxy.strand();
    await eventually(
      () => callTool(client, 'x_tools_ping'),
      (c) => !c.isError,
      30_000,
    );
    const before = seen.length;
    await record();
    await eventually(
      async () => seen.length,
      (n) => n > before,
      20_000,
      100,
    );
    await follower.close();
  });
});
