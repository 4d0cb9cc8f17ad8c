/**
 * Resource subscriptions in cluster mode with real processes: a redis-server, three
 * Switchboard replicas, HAProxy round-robin with no stickiness, and one upstream every
 * replica connects to over streamable HTTP (the asking server, whose counters any of its
 * clients can bump). A session's subscriptions outlive the replica that took them and the
 * replica that held its stream; each update reaches the session exactly once.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, eventually, freePort, makeConfigDir, ROOT, startNode, startSwitchboard, text, type Running } from '../support/harness.js';
import { ensureHaproxy, startHaproxy, type RunningHaproxy } from '../support/haproxy.js';
import { redisServerMissing, startRedis, type RedisServer } from '../support/redis-server.js';
import { watcher, type Watcher } from '../support/steered-watcher.js';

const ASKING = join(ROOT, 'dist/test/fixtures/asking-server.js');

describe('cluster mode: resource subscriptions outlive the replica that took them (redis-server, HAProxy, three replicas)', function () {
  this.timeout(120_000);
  let redis: RedisServer;
  let upstream: ChildProcess;
  let replicas: Running[] = [];
  let lb: RunningHaproxy;
  /** A session through the balancer that bumps the upstream's counters. */
  let bumper: Client;

  /** Bumps a counter at the upstream (through whichever replica the balancer picks). */
  const bump = async (which: 'counter' | 'marker'): Promise<void> => {
    const r = await callTool(bumper, 'x_ask_bump', { which });
    expect(r.isError, text(r)).to.not.equal(true);
  };
  /** How many client sessions (one per replica that holds the subscription) watch each counter at the upstream. */
  const upstreamWatchers = async (): Promise<{ counter: number; marker: number }> =>
    JSON.parse(text(await callTool(bumper, 'x_ask_watchers'))) as { counter: number; marker: number };
  /**
   * Bumps the marker and waits until `w` heard it `times` in all: the marker's update and any
   * update bumped before it travel the same way, so what was to arrive before it has.
   */
  const marked = async (w: Watcher, times: number): Promise<void> => {
    await bump('marker');
    await eventually(
      async () => w.heard.get('ask://marker') ?? 0,
      (n) => n >= times,
      10_000,
      10,
    );
  };

  before(async function () {
    const missing = redisServerMissing() ?? ensureHaproxy();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
    const port = await freePort();
    upstream = await startNode([ASKING, 'http', String(port)], {}, /listening \d+/);
    redis = await startRedis();
    const configDir = await makeConfigDir({
      'config.yaml': `aggregator:\n  network:\n    allow: [127.0.0.1]\n  cluster:\n    redis:\n      url: ${redis.url}\nplugins:\n  auth-server: false\n`,
      'mcpservers/ask.yaml': `name: ask\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\n`,
    });
    replicas = await Promise.all([0, 1, 2].map(() => startSwitchboard({}, { configDir })));
    // Every replica connected to the upstream (its resources listed) before a test relies on it.
    for (const r of replicas) {
      const c = new Client({ name: 'probe', version: '1.0.0' });
      await c.connect(new StreamableHTTPClientTransport(new URL(r.url)));
      await eventually(
        async () => (await c.listResources()).resources.map((x) => x.uri),
        (uris) => uris.includes('ask://counter') && uris.includes('ask://marker'),
        15_000,
      );
      await c.close();
    }
    lb = await startHaproxy(replicas.map((r) => r.port));
    bumper = new Client({ name: 'bumper', version: '1.0.0' });
    await bumper.connect(new StreamableHTTPClientTransport(new URL(lb.url)));
  });
  after(async () => {
    await bumper?.close().catch(() => undefined);
    await lb?.stop();
    await Promise.all(replicas.map((r) => r.stop()));
    await redis?.stop();
    upstream?.kill();
  });

  it('stream on A, subscribe served by B, copies on all three: one update is heard once; an unsubscribe through C stops it; no upstream subscription is left once the session ends', async () => {
    const [a, b, c] = replicas.map((r) => r.url) as [string, string, string];
    const w = await watcher([b], () => a);
    await w.client.subscribeResource({ uri: 'ask://counter' });
    await w.client.subscribeResource({ uri: 'ask://marker' });
    // Every replica holds a copy of the session now, and with it the subscriptions upstream.
    w.postTo([a, b, c]);
    for (let i = 0; i < 3; i++) await w.client.listTools();
    await eventually(upstreamWatchers, (n) => n.counter === 3 && n.marker === 3, 10_000);

    await bump('counter');
    // Three markers, one after the other: a copy of the counter's update relayed by another
    // replica would be in by the last, and a marker heard more than once would show too.
    for (let i = 1; i <= 3; i++) await marked(w, i);
    expect(w.heard.get('ask://counter'), 'updates of one bump heard by the session').to.equal(1);
    expect(w.heard.get('ask://marker')).to.equal(3);

    w.postTo([c]);
    await w.client.unsubscribeResource({ uri: 'ask://counter' });
    await eventually(upstreamWatchers, (n) => n.counter === 0 && n.marker === 3, 10_000);
    await bump('counter');
    await marked(w, 4);
    expect(w.heard.get('ask://counter'), 'updates heard after the unsubscribe').to.equal(1);
    expect(w.streams).to.deep.equal([a]);

    // DELETE through B: every replica drops its copy and, with the last session watching, its upstream subscription.
    w.postTo([b]);
    await w.end();
    await eventually(upstreamWatchers, (n) => n.counter === 0 && n.marker === 0, 10_000);
  });

  it('kill -9 of the replica that took the subscriptions and holds the stream: the stream reconnects through the balancer and the next update is heard exactly once; after an unsubscribe, none', async () => {
    const victim = replicas[0]!;
    // The victim both took the subscriptions upstream and holds the stream.
    const w = await watcher([victim.url], (attempt) => (attempt === 0 ? victim.url : lb.url));
    await w.client.subscribeResource({ uri: 'ask://counter' });
    await w.client.subscribeResource({ uri: 'ask://marker' });
    w.postTo([lb.url]);
    await bump('counter');
    await marked(w, 1);
    expect(w.heard.get('ask://counter')).to.equal(1);

    const exited = new Promise((r) => victim.proc.once('exit', r));
    victim.proc.kill('SIGKILL');
    await exited;
    const killedAt = Date.now();
    await eventually(
      async () => w.streams.length,
      (n) => n === 2,
      20_000,
      10,
    );
    const reconnectedMs = Date.now() - killedAt;
    expect(w.streams).to.deep.equal([victim.url, lb.url]);

    const bumpedAt = Date.now();
    await bump('counter');
    await eventually(
      async () => w.heard.get('ask://counter') ?? 0,
      (n) => n >= 2,
      10_000,
      5,
    );
    const heardMs = Date.now() - bumpedAt;
    for (let i = 2; i <= 4; i++) await marked(w, i);
    expect(w.heard.get('ask://counter'), 'updates of the bump after the kill').to.equal(2);

    await w.client.unsubscribeResource({ uri: 'ask://counter' });
    // The killed replica's upstream session never ended: at most that one stays a watcher.
    await eventually(upstreamWatchers, (n) => n.counter <= 1, 10_000);
    await bump('counter');
    await marked(w, 5);
    expect(w.heard.get('ask://counter'), 'updates heard after the unsubscribe').to.equal(2);
    console.log(`      stream back ${reconnectedMs} ms after the kill; update heard ${heardMs} ms after the bump`);
    await w.end();
  });

  it('a record in Redis whose subscriptions are not URIs is refused, not followed upstream', async () => {
    const live = replicas.filter((r) => r.proc.exitCode === null && r.proc.signalCode === null);
    const [first, other] = live as [Running, Running];
    const w = await watcher([first.url], () => first.url);
    const id = (w.client.transport as StreamableHTTPClientTransport).sessionId!;
    const probe = new Redis(redis.url);
    try {
      const key = `switchboard:session:${id}`;
      const record = JSON.parse((await probe.get(key))!) as Record<string, unknown>;
      await probe.set(key, JSON.stringify({ ...record, subscriptions: ['ask://counter', { uri: 'ask://marker' }] }), 'EX', 60);
      const res = await fetch(other.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': id,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).to.equal(503);
      expect(await res.text()).to.include(`the record of session '${id}' in Redis is not a session record this version understands`);
    } finally {
      probe.disconnect();
      await w.client.close();
    }
  });
});
