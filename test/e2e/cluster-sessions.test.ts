/**
 * Cluster mode's MCP sessions with real processes: a redis-server, three Switchboard
 * replicas sharing one configuration directory, and HAProxy round-robin in front of them
 * with no stickiness. A session initialized through any replica is served by all three
 * without a new initialize; what must reach its GET stream travels to the replica that
 * holds it; it ends everywhere at once.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LATEST_PROTOCOL_VERSION,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  callTool,
  eventually,
  freePort,
  makeConfigDir,
  meta,
  ROOT,
  startNode,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';
import { TIMER_COMMANDS } from '../support/cluster.js';
import { ensureHaproxy, startHaproxy, type RunningHaproxy } from '../support/haproxy.js';
import { redisServerMissing, startRedis, type RedisServer } from '../support/redis-server.js';

/**
 * A client whose POSTs (and DELETE) go round the given URLs in turn (`route` changes them)
 * and whose GET stream goes to `streamAt`.
 */
async function routedClient(
  initial: readonly string[],
  streamAt: string,
  headers: Record<string, string> = {},
): Promise<{ client: Client; sessionId: () => string; streaming: Promise<void>; route: (urls: readonly string[]) => void }> {
  let posts = initial;
  let next = 0;
  let opened!: () => void;
  const streaming = new Promise<void>((r) => (opened = r));
  const routed: typeof fetch = async (_input, init) => {
    const method = init?.method ?? 'GET';
    if (method !== 'GET') return fetch(posts[next++ % posts.length]!, init);
    const res = await fetch(streamAt, init);
    if (res.status === 200) opened();
    return res;
  };
  const client = new Client({ name: 'routed', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(streamAt), { fetch: routed, requestInit: { headers } });
  await client.connect(transport);
  return {
    client,
    sessionId: () => transport.sessionId!,
    streaming,
    route: (urls) => {
      posts = urls;
      next = 0;
    },
  };
}

async function balancedClient(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'balanced', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

/** A raw tools/call on one replica for a session, as any client could send it. */
function rawCall(url: string, sessionId: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'call_tool', arguments: { name: 'x_t_ping' } } }),
  });
}

/**
 * Who calls, for these tests: a third-party authenticator (the kernel's RequestAuthenticator
 * contract) that knows the bearer token `token-of-NAME` as person NAME, and a request without
 * a token as 'anonymous'. Every replica recognizes the same tokens, as replicas sharing the
 * OAuth server's storage do.
 */
const PEOPLE = `export default {
  name: 'people',
  provides: ['authenticator'],
  setup({ kernel }) {
    kernel.services.provide('authenticator', {
      async authenticate(req) {
        const header = req.headers.authorization;
        if (!header) return { kind: 'authenticated', identity: { subject: 'anonymous', claims: {} } };
        const m = /^Bearer token-of-(\\w+)$/.exec(header);
        if (!m) return { kind: 'refused', status: 401, headers: {}, error: 'invalid_token', description: 'unknown token' };
        return { kind: 'authenticated', identity: { subject: m[1], claims: { name: m[1] } } };
      },
    });
  },
};
`;

/** Redis commands run so far, by name (INFO commandstats), without the INFO that asks. */
async function commandCounts(redis: Redis): Promise<Map<string, number>> {
  const info = await redis.info('commandstats');
  const counts = new Map<string, number>();
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) counts.set(m[1]!, Number(m[2]));
  return counts;
}

function commandsBetween(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [name, n] of after) {
    if (name === 'info' || name === 'ping' || TIMER_COMMANDS.includes(name)) continue;
    const d = n - (before.get(name) ?? 0);
    if (d > 0) delta[name] = d;
  }
  return delta;
}

function pong(r: CallToolResult): boolean {
  return !r.isError && text(r).includes('pong');
}

describe('cluster mode: MCP sessions any replica serves (redis-server, HAProxy, three replicas)', function () {
  this.timeout(120_000);
  let redis: RedisServer;
  let probe: Redis;
  let replicas: Running[] = [];
  let lb: RunningHaproxy;
  let configDir: string;
  /** A remote MCP server the list_changed test adds: connecting to it is quick on every replica. */
  let remote: ChildProcess;
  let remotePort: number;

  before(async function () {
    const missing = redisServerMissing() ?? ensureHaproxy();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
    remotePort = await freePort();
    remote = await startNode([TEST_SERVER, 'http', String(remotePort), '--name', 'remote'], {}, /listening \d+/);
    redis = await startRedis();
    probe = new Redis(redis.url);
    configDir = await makeConfigDir({
      'config.yaml': `aggregator:\n  network:\n    allow: [127.0.0.1]\n  cluster:\n    redis:\n      url: ${redis.url}\nauthorization:\n  admins: [anonymous]\nplugins:\n  auth-server: false\n  people:\n    module: ./people.js\n`,
      'people.js': PEOPLE,
      // Its stderr at info: a call's start and its cancellation, as the fixture says them, are in the replica's log.
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER, [], 'stderrLogLevel: info\n'),
      'mcpservers/ask.yaml': stdioServer('ask', join(ROOT, 'dist/test/fixtures/asking-server.js')),
    });
    replicas = await Promise.all([0, 1, 2].map(() => startSwitchboard({}, { configDir })));
    lb = await startHaproxy(replicas.map((r) => r.port));
  });
  after(async () => {
    await lb?.stop();
    await Promise.all(replicas.map((r) => r.stop()));
    probe?.disconnect();
    await redis?.stop();
    remote?.kill();
  });

  it('serves 1,000 calls of one session, initialized through the balancer, on all three replicas: none fails, no Redis round trip once cached', async () => {
    const { client } = await balancedClient(lb.url);
    // A few calls first: each replica meets the session once and keeps it.
    for (let i = 0; i < 6; i++) expect(pong(await callTool(client, 'x_t_ping'))).to.equal(true);
    const servedBefore = await lb.served();
    const commandsBefore = await commandCounts(probe);
    let failed = 0;
    const worker = async (n: number) => {
      for (let i = 0; i < n; i++) if (!pong(await callTool(client, 'x_t_ping'))) failed++;
    };
    await Promise.all([worker(250), worker(250), worker(250), worker(250)]);
    const commands = commandsBetween(commandsBefore, await commandCounts(probe));
    const servedAfter = await lb.served();
    expect(failed).to.equal(0);
    for (const name of ['r0', 'r1', 'r2']) expect(servedAfter[name]! - servedBefore[name]!, `calls served by ${name}`).to.be.above(200);
    // Sessions cached on every replica: the calls cost Redis nothing (an expiry push-back at most).
    const total = Object.values(commands).reduce((a, b) => a + b, 0);
    expect(total, JSON.stringify(commands)).to.be.at.most(3);
    await client.close();
  });

  it('a core_mcpserver_create through replica B: tools/list_changed reaches the session whose stream replica A holds, within 1 s, once', async () => {
    const [a, b, c] = replicas.map((r) => r.url) as [string, string, string];
    // The session is known to all three (POSTs go round them); its GET stream is on A.
    const { client, streaming } = await routedClient([a, b, c], a);
    let heard = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard++);
    for (let i = 0; i < 3; i++) await meta(client, 'list_tools');
    await streaming;
    const admin = await balancedClient(b);
    const created = await callTool(admin.client, 'core_mcpserver_create', {
      name: 'added',
      type: 'streamable-http',
      url: `http://127.0.0.1:${remotePort}/mcp`,
    });
    expect(created.isError, text(created)).to.not.equal(true);
    const t0 = Date.now();
    await eventually(
      async () => heard,
      (n) => n >= 1,
      5000,
      10,
    );
    expect(Date.now() - t0, 'tools/list_changed after the create').to.be.below(1000);
    // Every replica sees the new server; a second change (a create through C) is the second
    // notification, and no copy of the first arrives in between or after.
    for (const url of [a, b, c]) {
      const other = await balancedClient(url);
      await eventually(
        () => meta<{ tools: { name: string }[] }>(other.client, 'list_tools', { limit: 1000 }),
        (r) => r.tools.some((t) => t.name === 'x_added_ping'),
        10_000,
      );
      await other.client.close();
    }
    const again = await balancedClient(c);
    const second = await callTool(again.client, 'core_mcpserver_create', {
      name: 'added2',
      type: 'streamable-http',
      url: `http://127.0.0.1:${remotePort}/mcp`,
    });
    expect(second.isError, text(second)).to.not.equal(true);
    await eventually(
      async () => heard,
      (n) => n >= 2,
      5000,
      10,
    );
    await meta(client, 'list_tools');
    expect(heard).to.equal(2);
    await again.client.close();
    await admin.client.close();
    await client.close();
  });

  it('a resource update from the replica holding the upstream subscription reaches the stream on another replica; an unsubscribe through a third stops it', async () => {
    const [a, b, c] = replicas.map((r) => r.url) as [string, string, string];
    const s = await routedClient([a], a);
    await s.streaming;
    const updates: string[] = [];
    s.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    // Subscribed through B: B's connection to the server holds the upstream subscription.
    s.route([b]);
    await s.client.subscribeResource({ uri: 'ask://counter' });
    const bumper = await balancedClient(b);
    await callTool(bumper.client, 'x_ask_bump');
    await eventually(
      async () => updates.length,
      (n) => n === 1,
      5000,
      10,
    );
    // Unsubscribed through C: B hears it (the session's record changed) and stops.
    s.route([c]);
    await s.client.unsubscribeResource({ uri: 'ask://counter' });
    await callTool(bumper.client, 'x_ask_bump');
    // Subscribed again and bumped: the next update is the second, none came between.
    s.route([b]);
    await s.client.subscribeResource({ uri: 'ask://counter' });
    await callTool(bumper.client, 'x_ask_bump');
    await eventually(
      async () => updates.length,
      (n) => n >= 2,
      5000,
      10,
    );
    await meta(s.client, 'list_tools');
    expect(updates).to.deep.equal(['ask://counter', 'ask://counter']);
    await bumper.client.close();
    await s.client.close();
  });

  it("a client's cancellation sent through another replica than the one running the call cancels it there: the server hears it, the call's POST ends unanswered", async () => {
    const [a, b] = replicas as [Running, Running];
    const { client, sessionId } = await routedClient([a.url], a.url);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId(),
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
    };
    const post = (url: string, message: object) => fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...message }) });
    // Raw: the SDK's client reads a cancelled request's stream to its end, so this one reads it.
    const call = post(a.url, {
      id: 'across-1',
      method: 'tools/call',
      params: { name: 'call_tool', arguments: { name: 'x_t_slow', arguments: { ms: 60_001 } } },
    });
    await a.waitForLog(/slow 60001: started/);
    const cancelled = await post(b.url, { method: 'notifications/cancelled', params: { requestId: 'across-1', reason: 'changed my mind' } });
    expect(cancelled.status).to.equal(202);
    expect(await (await call).text(), "the cancelled call's stream").not.to.include('"result"');
    await a.waitForLog(/slow 60001: cancelled by the client/);
    await client.close();
  });

  it('DELETE on one replica ends the session on all: each answers 404 for it', async () => {
    const urls = replicas.map((r) => r.url);
    const { client, sessionId } = await routedClient(urls, urls[0]!);
    for (let i = 0; i < 3; i++) await meta(client, 'list_tools');
    const id = sessionId();
    const ended = await fetch(urls[1]!, { method: 'DELETE', headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' } });
    expect(ended.status).to.equal(200);
    for (const url of urls) {
      await eventually(
        async () => {
          const r = await rawCall(url, id);
          await r.text();
          return r.status;
        },
        (s) => s === 404,
        5000,
      );
    }
    expect(await probe.exists(`switchboard:session:${id}`)).to.equal(0);
    await client.close().catch(() => undefined);
  });

  it('a session record in Redis holds the identity and what the client declared, never a token', async () => {
    const { client, transport } = await balancedClient(lb.url);
    await meta(client, 'list_tools');
    const raw = await probe.get(`switchboard:session:${transport.sessionId!}`);
    const record = JSON.parse(raw!) as Record<string, unknown>;
    expect(record).to.include({ id: transport.sessionId, transport: 'streamable-http', protocolVersion: LATEST_PROTOCOL_VERSION });
    expect(record.clientInfo).to.deep.equal({ name: 'balanced', version: '1.0.0' });
    expect(await probe.ttl(`switchboard:session:${transport.sessionId!}`)).to.be.within(3500, 3600);
    await client.close();
  });

  it("another person's token cannot resume someone's session on any replica (403); its owner can", async () => {
    const urls = replicas.map((r) => r.url);
    // Alice's session is known only to replica 0 until someone asks another replica for it.
    const alice = await routedClient([urls[0]!], urls[0]!, { authorization: 'Bearer token-of-alice' });
    await meta(alice.client, 'list_tools');
    const id = alice.sessionId();
    for (const url of [urls[1]!, urls[2]!, urls[0]!]) {
      const hijack = await rawCall(url, id, { authorization: 'Bearer token-of-bob' });
      expect(hijack.status, url).to.equal(403);
      expect(((await hijack.json()) as { error: { message: string } }).error.message).to.equal(
        `Forbidden: Session '${id}' belongs to another caller; initialize a session of your own`,
      );
      const anonymous = await rawCall(url, id);
      expect(anonymous.status, `${url} without a token`).to.equal(403);
      await anonymous.text();
    }
    // The refusals left nothing behind that serves Bob; Alice resumes on replica 2.
    expect((await rawCall(urls[2]!, id, { authorization: 'Bearer token-of-bob' })).status).to.equal(403);
    const own = await rawCall(urls[2]!, id, { authorization: 'Bearer token-of-alice' });
    expect(own.status).to.equal(200);
    expect(JSON.stringify(await own.json())).to.include('pong');
    // The record names Alice, and holds no token.
    const raw = (await probe.get(`switchboard:session:${id}`))!;
    expect((JSON.parse(raw) as { identity: unknown }).identity).to.deep.equal({ subject: 'alice', claims: { name: 'alice' } });
    expect(raw).to.not.include('token-of-alice');
    await alice.client.close();
  });

  it('kill -9 of one replica under 16 clients: every call not in flight on it succeeds, sessions go on without initialize', async () => {
    const clients = await Promise.all(Array.from({ length: 16 }, () => balancedClient(lb.url)));
    const ids = clients.map((c) => c.transport.sessionId);
    let done = 0;
    let killedAt = 0;
    const afterKill: boolean[] = [];
    const beforeKill: boolean[] = [];
    const victim = replicas[2]!;
    const run = async (client: Client) => {
      for (let i = 0; i < 40; i++) {
        const started = Date.now();
        const ok = await callTool(client, 'x_t_ping').then(pong, () => false);
        done++;
        (killedAt && started >= killedAt ? afterKill : beforeKill).push(ok);
        if (done === 120) {
          // Calls started once the process is gone must all succeed; before, they may be in flight on it.
          victim.proc.once('exit', () => (killedAt = Date.now()));
          victim.proc.kill('SIGKILL');
        }
      }
    };
    await Promise.all(clients.map((c) => run(c.client)));
    expect(killedAt, 'the replica was killed during the load').to.be.above(0);
    expect(afterKill.length, 'calls started after the kill').to.be.above(300);
    expect(afterKill.filter((ok) => !ok).length, 'failed calls started after the kill').to.equal(0);
    // Each client has one call in flight at a time: at most one per client was on the replica when it died.
    expect(beforeKill.filter((ok) => !ok).length, 'failed calls in flight when the replica died').to.be.at.most(clients.length);
    expect(clients.map((c) => c.transport.sessionId)).to.deep.equal(ids);
    await Promise.all(clients.map((c) => c.client.close()));
  });
});
