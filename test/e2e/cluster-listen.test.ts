/**
 * Cluster mode and `subscriptions/listen` (issue 40, item 7): two replicas on one
 * redis-server. A 2026-07-28 client listens on replica B while another client changes the
 * catalogue through replica A; B reloads from the store it watches and its listen hears the
 * change. No listen costs Redis anything: opening one and hearing changes on it sends no
 * command (the replicas' own reload of the definitions aside, which reads nothing there).
 */
import { expect } from 'chai';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { commandCounts, commandsBetween, TIMER_COMMANDS } from '../support/cluster.js';
import { eventually, makeConfigDir, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { redisServerMissing, startRedis, type RedisServer } from '../support/redis-server.js';

const IGNORED = [...TIMER_COMMANDS, 'ping'];

async function modernClient(url: string): Promise<ModernClient> {
  const client = new ModernClient({ name: 'cluster-listen', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernTransport(new URL(url)));
  return client;
}

describe('cluster mode: a subscriptions/listen on one replica hears a change made through another', function () {
  this.timeout(120_000);
  let redis: RedisServer;
  let replicas: Running[] = [];

  before(async function () {
    const missing = redisServerMissing();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
    redis = await startRedis();
    const configDir = await makeConfigDir({
      'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n`,
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
    });
    replicas = await Promise.all([0, 1].map(() => startSwitchboard({}, { configDir, startTimeoutMs: 60_000 })));
  });

  after(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await redis?.stop();
  });

  it('a workflow created through replica A reaches the listen held by replica B; the listen sends no Redis command', async () => {
    const [a, b] = replicas.map((r) => r.url) as [string, string];
    const writer = await modernClient(a);
    const listener = await modernClient(b);
    const call = (name: string, args: Record<string, unknown>) =>
      writer.callTool({ name: 'call_tool', arguments: { name, arguments: args } }) as Promise<CallToolResult>;
    // The upstream is connected on A before anything is written.
    await eventually(
      () => call('x_t_ping', {}),
      (r) => !r.isError,
      30_000,
    );
    let heard = 0;
    listener.setNotificationHandler('notifications/tools/list_changed', () => void heard++);
    const before = commandCounts(redis);
    const sub = await listener.listen({ toolsListChanged: true });
    expect(sub.honoredFilter).to.deep.equal({ toolsListChanged: true });
    const opened = commandsBetween(before, commandCounts(redis), IGNORED);
    expect(opened, JSON.stringify(opened)).to.deep.equal({});

    const created = await call('core_workflow_create', { name: 'made-on-a', steps: [{ id: 'p', tool: 'x_t_ping' }] });
    expect(created.isError, text(created)).to.not.equal(true);
    await eventually(
      async () => heard,
      (n) => n >= 1,
      20_000,
    );
    // B's catalogue has it: the listener calls the new workflow through B.
    const ran = (await listener.callTool({ name: 'call_tool', arguments: { name: 'workflow_made-on-a', arguments: {} } })) as CallToolResult;
    expect(ran.isError, text(ran)).to.not.equal(true);
    await sub.close();
    await writer.close();
    await listener.close();
  });
});
