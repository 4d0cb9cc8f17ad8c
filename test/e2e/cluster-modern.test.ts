/**
 * Cluster mode with a 2026-07-28 client: two replicas on one redis-server, the client's
 * requests alternating between them with nothing sticky. A modern request has no session, so
 * no replica reads or writes the session directory for it: the calls cost Redis nothing,
 * where a legacy client's initialize records its session there. A `subscriptions/listen` on
 * replica B hears a change made through replica A (B reloads from the store it watches), and
 * opening it costs Redis nothing either (issue 40, item 7). A 2026-07-28 upstream's resource,
 * watched by both replicas (each its own listen to the upstream), reaches a legacy session and
 * a modern listen once each. One pair of replicas serves all of it.
 */
import { expect } from 'chai';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { commandCounts, commandsBetween, TIMER_COMMANDS } from '../support/cluster.js';
import type { ChildProcess } from 'node:child_process';
import {
  connectHttp,
  eventually,
  freePort,
  makeConfigDir,
  MODERN_SERVER,
  startNode,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';
import { redisServerMissing, startRedis, type RedisServer } from '../support/redis-server.js';
import { watcher } from '../support/steered-watcher.js';

const COUNTER = 'modern://http/counter';

const IGNORED = TIMER_COMMANDS;

async function modernClient(url: string): Promise<ModernClient> {
  const client = new ModernClient({ name: 'cluster-listen', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernTransport(new URL(url)));
  return client;
}

describe('cluster mode: 2026-07-28 requests served by any replica with no session directory', function () {
  this.timeout(120_000);
  let redis: RedisServer;
  let replicas: Running[] = [];
  let web: ChildProcess;

  before(async function () {
    const missing = redisServerMissing();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
    redis = await startRedis();
    const port = await freePort();
    web = await startNode([MODERN_SERVER, 'http', String(port)], {}, /listening \d+/);
    const configDir = await makeConfigDir({
      'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n`,
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
      'mcpservers/mweb.yaml': `name: mweb\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\nautoStart: true\n`,
    });
    replicas = await Promise.all([0, 1].map(() => startSwitchboard({}, { configDir, startTimeoutMs: 60_000 })));
  });

  after(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await redis?.stop();
    web?.kill();
  });

  it('300 modern calls alternate two replicas: none fails, 0 Redis commands; a legacy initialize does write its session', async () => {
    const urls = replicas.map((r) => r.url);
    const served = urls.map(() => 0);
    let next = 0;
    const alternate: typeof fetch = (_input, init) => {
      const i = next++ % urls.length;
      served[i]!++;
      return fetch(urls[i]!, init);
    };
    const client = new ModernClient({ name: 'modern-cluster', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new ModernTransport(new URL(urls[0]!), { fetch: alternate }));
    const ping = () => client.callTool({ name: 'call_tool', arguments: { name: 'x_t_ping', arguments: {} } });
    // The upstream is connected on both replicas before counting.
    for (let i = 0; i < 4; i++) expect(JSON.stringify((await ping()).content)).to.include('pong');
    const before = commandCounts(redis);
    let failed = 0;
    for (let i = 0; i < 300; i++) {
      const r = await ping();
      if (r.isError || !JSON.stringify(r.content).includes('pong')) failed++;
    }
    const during = commandsBetween(before, commandCounts(redis), IGNORED);
    expect(failed).to.equal(0);
    expect(served[0]! - served[1]!).to.be.within(-1, 1);
    expect(during, JSON.stringify(during)).to.deep.equal({});
    await client.close();

    // The measure sees session writes: a legacy client's initialize records its session.
    const legacyBefore = commandCounts(redis);
    const legacy = await connectHttp(urls[1]!);
    const recorded = commandsBetween(legacyBefore, commandCounts(redis), IGNORED);
    expect(Object.keys(recorded)).to.not.be.empty;
    await legacy.close();
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

  it("a 2026-07-28 upstream's resource watched on both replicas: a legacy session (stream on A, a copy on B) and a modern listen on B each hear a change once", async () => {
    const [a, b] = replicas.map((r) => r.url) as [string, string];
    const toucher = await modernClient(a);
    const touch = () => toucher.callTool({ name: 'call_tool', arguments: { name: 'x_mweb_touch', arguments: {} } }) as Promise<CallToolResult>;
    // The upstream is connected on both replicas before anything watches it.
    for (const url of [a, b]) {
      const probe = await modernClient(url);
      await eventually(
        () => probe.callTool({ name: 'describe_tool', arguments: { name: 'x_mweb_touch' } }) as Promise<CallToolResult>,
        (r) => !r.isError,
        30_000,
      );
      await probe.close();
    }
    // Subscribed on A, which holds the stream; B resumes a copy, and watches with it, before it answers.
    const session = await watcher([a], () => a);
    await session.client.subscribeResource({ uri: COUNTER });
    session.postTo([b]);
    await session.client.listTools();
    const listener = await modernClient(b);
    let listened = 0;
    listener.setNotificationHandler('notifications/resources/updated', () => void listened++);
    const sub = await listener.listen({ resourceSubscriptions: [COUNTER] });
    expect(sub.honoredFilter).to.deep.equal({ resourceSubscriptions: [COUNTER] });

    // Each replica hears every change from its own listen upstream; only the one holding a stream writes to it.
    for (let n = 1; n <= 3; n++) {
      expect(text(await touch())).to.match(/^touched \d+$/);
      await eventually(
        async () => [session.heard.get(COUNTER) ?? 0, listened] as const,
        ([heard, got]) => heard >= n && got >= n,
        10_000,
      );
    }
    expect([session.heard.get(COUNTER), listened], 'changes heard by the session and the listen').to.deep.equal([3, 3]);
    await sub.close();
    await listener.close();
    await session.end();
    await toucher.close();
  });
});
