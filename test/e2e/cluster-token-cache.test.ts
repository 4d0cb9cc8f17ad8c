/**
 * Each replica keeps the access tokens it verified lately (plugins/auth-server/verified-tokens.ts):
 * a cached session with OAuth on costs Redis nothing per call, and a revocation on one replica
 * (one token, or the client's logout: its refresh token revoked, and with it the grant's every
 * access token) is refused on every replica at once, cached copies included. Real processes:
 * a redis-server, two Switchboard replicas, the test identity provider.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, errorCode, eventually, type Running } from '../support/harness.js';
import { postForm } from '../support/oauth-browser.js';
import { mcpClient, registerClient, signIn, type OAuthSetup } from '../support/oauth-setup.js';
import { startProtectedCluster, commandCounts, commandsBetween, health, initializeAt, TIMER_COMMANDS } from '../support/cluster.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';

describe('cluster mode: verified access tokens cached per replica', function () {
  this.timeout(180_000);
  let redis: RedisServer;
  let setup: OAuthSetup;
  let a: Running;
  let b: Running;
  let clientId: string;
  const clients: Client[] = [];

  before(async function () {
    redis = await startRedisOrSkip(this);
    let replicas: Running[];
    ({ setup, replicas } = await startProtectedCluster(redis, 1));
    [a, b] = replicas as [Running, Running];
    clientId = await registerClient(setup.base);
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await b?.stop();
    await a?.stop();
    await setup?.idp.close();
    await redis?.stop();
  });

  const connect = async (replica: Running, token: string): Promise<Client> => {
    const client = await mcpClient(replica.url, token);
    clients.push(client);
    await eventually(
      () => callTool(client, 'x_tools_ping'),
      (r) => !r.isError,
      20_000,
    );
    return client;
  };

  const status = async (replica: Running, token: string): Promise<number> =>
    (await initializeAt(replica.port, `127.0.0.1:${replica.port}`, { authorization: `Bearer ${token}` })).status;

  it('a call_tool on a cached session with a bearer token costs Redis no command (timers apart)', async () => {
    const tokens = await signIn(setup.base, clientId);
    const client = await connect(a, tokens.access_token);
    const calls = 100;
    const before = commandCounts(redis);
    for (let i = 0; i < calls; i++) expect(errorCode(await callTool(client, 'x_tools_ping'))).to.equal(undefined);
    const after = commandCounts(redis);
    const ran = commandsBetween(before, after, TIMER_COMMANDS);
    const timers = commandsBetween(before, after);
    console.log(`      Redis commands for ${calls} call_tool with OAuth on: ${JSON.stringify(ran)} (replicas' timers meanwhile: ${JSON.stringify(timers)})`);
    expect(ran).to.deep.equal({});
  });

  it('a token revoked on B is refused at once on A, where it was cached', async () => {
    const tokens = await signIn(setup.base, clientId);
    const onA = await connect(a, tokens.access_token);
    await connect(b, tokens.access_token);
    const revoked = await postForm(`http://127.0.0.1:${b.port}/oauth/revoke`, { token: tokens.access_token, client_id: clientId });
    expect(revoked.status).to.equal(200);
    // No waiting: B answers the revocation only after every replica was told.
    expect(await status(a, tokens.access_token)).to.equal(401);
    expect(await status(b, tokens.access_token)).to.equal(401);
    const call = await callTool(onA, 'x_tools_ping').then(
      () => 'answered',
      (err: unknown) => String(err),
    );
    expect(call).to.match(/401|nauthorized|invalid_token/);
  });

  it("the client's logout on B (its refresh token revoked) ends the grant's access tokens everywhere, refreshed and cached ones included", async () => {
    const tokens = await signIn(setup.base, clientId);
    const refreshed = await postForm(`http://127.0.0.1:${a.port}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: clientId,
      resource: setup.base,
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
    const fresh = String(refreshed.body.access_token);
    for (const replica of [a, b]) {
      await connect(replica, tokens.access_token);
      await connect(replica, fresh);
    }
    const logout = await postForm(`http://127.0.0.1:${b.port}/oauth/revoke`, {
      token: String(refreshed.body.refresh_token),
      token_type_hint: 'refresh_token',
      client_id: clientId,
    });
    expect(logout.status).to.equal(200);
    for (const replica of [a, b])
      for (const token of [tokens.access_token, fresh]) expect(await status(replica, token), `replica on ${replica.port}`).to.equal(401);
  });

  it('while Redis is unreachable a cached token is not trusted (a revocation may be missed): 503, then judged again', async () => {
    const tokens = await signIn(setup.base, clientId);
    await connect(a, tokens.access_token);
    expect(await status(a, tokens.access_token)).to.equal(200);
    await redis.stop();
    try {
      await eventually(
        () => health(a),
        (h) => h.status === 'degraded',
        30_000,
      );
      await eventually(
        () => status(a, tokens.access_token),
        (s) => s === 503,
        30_000,
      );
    } finally {
      await redis.restart();
    }
    // The test's Redis keeps nothing across a restart: the token is unknown now.
    const back = await eventually(
      () => status(a, tokens.access_token),
      (s) => s !== 503,
      30_000,
    );
    expect(back).to.equal(401);
  });
});
