/**
 * Three replicas on one real redis-server, with OAuth protection: a token issued by one
 * replica works on the others, a refresh on another, a revocation anywhere ends it
 * everywhere; a DPoP proof used on one replica is refused on another; and a per-person rate
 * limit holds across the three together. Real processes on loopback throughout.
 */
import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, errorCode, eventually, type Running } from '../support/harness.js';
import { Browser, pkce, postForm } from '../support/oauth-browser.js';
import { CLIENT_REDIRECT, mcpClient, registerClient, signIn, type OAuthSetup } from '../support/oauth-setup.js';
import { startProtectedCluster, health, initializeAt } from '../support/cluster.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';

const RATE = 20;
const BURST = 10;
const PER_PERSON = 5;

async function dpopKey(): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: await exportJWK(publicKey) };
}

function dpopProof(key: { privateKey: CryptoKey; jwk: JWK }, htm: string, htu: string, accessToken?: string): Promise<string> {
  return new SignJWT({ htm, htu, jti: randomUUID(), ...(accessToken ? { ath: createHash('sha256').update(accessToken).digest('base64url') } : {}) })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.jwk })
    .setIssuedAt()
    .sign(key.privateKey);
}

describe('cluster mode: OAuth and limits across three replicas', function () {
  this.timeout(180_000);
  let redis: RedisServer;
  let setup: OAuthSetup;
  let replicas: Running[];
  let clientId: string;
  const clients: Client[] = [];

  before(async function () {
    redis = await startRedisOrSkip(this);
    ({ setup, replicas } = await startProtectedCluster(redis, 2, [
      '  limits:',
      `    maxSessionsPerPrincipal: ${PER_PERSON}`,
      `    rateLimit: {callsPerSecond: ${RATE}, burst: ${BURST}}`,
    ]));
    clientId = await registerClient(setup.base);
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    // The first replica last: its configuration directory is the others' too.
    for (const r of [...(replicas ?? [])].reverse()) await r.stop();
    await setup?.idp.close();
    await redis?.stop();
  });

  const connect = async (replica: Running, token: string): Promise<Client> => {
    const client = await mcpClient(replica.url, token);
    clients.push(client);
    return client;
  };

  it('a token issued by replica A works on B and C; refreshed on C it works on A; revoked on B it works nowhere', async () => {
    const [a, b, c] = replicas as [Running, Running, Running];
    const tokens = await signIn(setup.base, clientId);
    for (const replica of [b, c]) {
      const client = await connect(replica, tokens.access_token);
      const result = await eventually(
        () => callTool(client, 'x_tools_ping'),
        (r) => !r.isError,
        20_000,
      );
      expect(errorCode(result)).to.equal(undefined);
    }
    const refreshed = await postForm(`http://127.0.0.1:${c.port}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: clientId,
      resource: setup.base,
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
    const fresh = String(refreshed.body.access_token);
    expect(errorCode(await callTool(await connect(a, fresh), 'x_tools_ping'))).to.equal(undefined);

    const revoked = await postForm(`http://127.0.0.1:${b.port}/oauth/revoke`, { token: fresh, client_id: clientId });
    expect(revoked.status).to.equal(200);
    for (const replica of replicas) {
      const res = await initializeAt(replica.port, `127.0.0.1:${replica.port}`, { authorization: `Bearer ${fresh}` });
      expect(res.status, `replica on ${replica.port}: ${res.body}`).to.equal(401);
    }
  });

  it('a DPoP proof used on one replica is refused as a replay on another', async () => {
    const [a, b] = replicas as [Running, Running];
    // Carol's: two sessions here and three in the rate limit's test stay within PER_PERSON.
    setup.idp.signInAs('carol');
    const key = await dpopKey();
    const { verifier, challenge } = pkce();
    const authorize = new URL(`${setup.base}/oauth/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: CLIENT_REDIRECT,
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'mcp',
    }).toString();
    const back = await new Browser().follow(authorize.href, CLIENT_REDIRECT);
    const token = await postForm(
      `${setup.base}/oauth/token`,
      { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: CLIENT_REDIRECT, code_verifier: verifier, client_id: clientId },
      { dpop: await dpopProof(key, 'POST', `${setup.base}/oauth/token`) },
    );
    expect(token.status, JSON.stringify(token.body)).to.equal(200);
    const accessToken = String(token.body.access_token);
    // Both replicas addressed as B, as behind one balancer: the proof's htu is the same URL.
    const asB = `127.0.0.1:${b.port}`;
    const htu = `http://${asB}/mcp`;
    const proof = await dpopProof(key, 'POST', htu, accessToken);
    const first = await initializeAt(b.port, asB, { authorization: `DPoP ${accessToken}`, dpop: proof });
    expect(first.status, first.body).to.equal(200);
    const replayed = await initializeAt(a.port, asB, { authorization: `DPoP ${accessToken}`, dpop: proof });
    expect(replayed.status, replayed.body).to.equal(401);
    expect((JSON.parse(replayed.body) as { error_description: string }).error_description).to.equal('DPoP proof replayed (jti already used)');
    // A fresh proof to the same replica, addressed the same way, passes: it was the replay that was refused.
    const fresh = await initializeAt(a.port, asB, { authorization: `DPoP ${accessToken}`, dpop: await dpopProof(key, 'POST', htu, accessToken) });
    expect(fresh.status, fresh.body).to.equal(200);
  });

  it(`a rate limit of ${RATE} calls/s per person holds across the three replicas together (±10 %)`, async () => {
    const tokens = await signIn(setup.base, clientId);
    const sessions = await Promise.all(replicas.map((r) => connect(r, tokens.access_token)));
    // Each session's upstream is up before the clock starts (a refusal now would be the limit's, too early).
    for (const s of sessions)
      await eventually(
        () => callTool(s, 'x_tools_ping'),
        (r) => !r.isError || errorCode(r) === 'RATE_LIMITED',
        20_000,
      );
    // Drain what is left of the burst, then count from an empty bucket: accepted ≈ RATE × elapsed.
    const drain = sessions[0]!;
    while (errorCode(await callTool(drain, 'x_tools_ping')) !== 'RATE_LIMITED');
    const accepted = [0, 0, 0];
    let refused = 0;
    const started = Date.now();
    // Bounded: three seconds of calls, three sessions at once, each as fast as it is answered.
    const windowMs = 3000;
    await Promise.all(
      sessions.map(async (s, i) => {
        while (Date.now() - started < windowMs) {
          const r = await callTool(s, 'x_tools_ping');
          const code = errorCode(r);
          if (code === undefined) accepted[i]!++;
          else if (code === 'RATE_LIMITED') refused++;
          else throw new Error(`unexpected ${code}: ${JSON.stringify(r.structuredContent)}`);
        }
      }),
    );
    const elapsed = (Date.now() - started) / 1000;
    const total = accepted.reduce((x, y) => x + y, 0);
    const expected = RATE * elapsed;
    console.log(
      `      per-person rate limit over ${elapsed.toFixed(2)} s: ${total} accepted (${accepted.join('/')} per replica), ${refused} refused; expected ${expected.toFixed(1)}`,
    );
    // The limit was the constraint (calls were refused), every replica took part, and together they held it.
    expect(refused).to.be.greaterThan(0);
    for (const n of accepted) expect(n).to.be.greaterThan(0);
    // One call of slack: the bucket refills continuously and the window's edges cut a call in two.
    expect(total).to.be.at.most(Math.ceil(expected * 1.1) + 1);
    expect(total).to.be.at.least(Math.floor(expected * 0.9) - 1);
  });

  it(`a person's sessions are capped at ${PER_PERSON} across the replicas together; one closed frees a place on any replica`, async () => {
    setup.idp.signInAs('bob');
    const tokens = await signIn(setup.base, clientId);
    const [a, b, c] = replicas as [Running, Running, Running];
    const held: Client[] = [];
    for (const replica of [a, b, c, a, b]) held.push(await connect(replica, tokens.access_token));
    // One more, on a replica that holds two of them, is refused like a single process refuses it.
    const refused = await initializeAt(b.port, `127.0.0.1:${b.port}`, { authorization: `Bearer ${tokens.access_token}` });
    expect(refused.status, refused.body).to.equal(503);
    expect(refused.body).to.include(`caller 'bob' already holds ${PER_PERSON} sessions, the most one caller may open`);
    // Closing one on C frees a place, taken on B.
    await (held[2]!.transport as StreamableHTTPClientTransport).terminateSession();
    const again = await eventually(
      () => initializeAt(b.port, `127.0.0.1:${b.port}`, { authorization: `Bearer ${tokens.access_token}` }),
      (r) => r.status === 200,
      10_000,
    );
    expect(again.status).to.equal(200);
    const sixth = await initializeAt(c.port, `127.0.0.1:${c.port}`, { authorization: `Bearer ${tokens.access_token}` });
    expect(sixth.status, sixth.body).to.equal(503);
  });

  it('Redis stopped: a request with a token answers 503 SHARED_STATE_UNAVAILABLE (the token is not judged); Redis back but empty (no persistence): judged again, unknown', async () => {
    setup.idp.signInAs('alice');
    const tokens = await signIn(setup.base, clientId);
    const [, b] = replicas as [Running, Running];
    const at = (): Promise<{ status: number; body: string }> => initializeAt(b.port, `127.0.0.1:${b.port}`, { authorization: `Bearer ${tokens.access_token}` });
    await redis.stop();
    try {
      // The replica's connection must have noticed first: a command failing on a connection
      // that still looks ready fails with ioredis' own words, not the reason /health gives.
      await eventually(
        () => health(b),
        (h) => h.status === 'degraded',
        30_000,
      );
      const refused = await eventually(at, (r) => r.status === 503, 30_000);
      const error = (JSON.parse(refused.body) as { error: { message: string; data: { code: string } } }).error;
      expect(error.data.code).to.equal('SHARED_STATE_UNAVAILABLE');
      expect(error.message).to.match(/needs the state replicas share, which cannot be reached now \(Redis at redis:\/\/127\.0\.0\.1:\d+ unreachable/);
    } finally {
      await redis.restart();
    }
    await eventually(
      () => health(b),
      (h) => h.status === 'ok',
      30_000,
    );
    // The records were in memory only (no persistence in the test's Redis): the token is now unknown, a 401, no longer a 503.
    const back = await eventually(at, (r) => r.status !== 503, 30_000);
    expect(back.status, back.body).to.equal(401);
  });
});
