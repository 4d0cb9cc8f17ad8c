/**
 * Cluster mode when its connections to Redis die without a word (a partition, a dropped NAT
 * entry): a real redis-server behind a proxy that strands every connection open at one moment
 * (nothing passes, nothing closes) and lets new ones through. Before, ioredis kept both
 * connections `ready` for as long as TCP keep-alive takes (hours): every call needing Redis
 * failed after its 5 s timeout, /health said ok, and the subscriber heard nothing more.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
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
    await eventually(
      () => callTool(client, 'x_tools_ping'),
      (r) => !r.isError,
      20_000,
    );
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await sb?.stop();
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
});
