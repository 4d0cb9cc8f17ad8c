/**
 * Issue 36, findings 1 and 7b: OAuth replicas started at the same instant on an empty key
 * prefix agree on the signing and cookie keys (one JWKS kid, a sign-in through a round-robin
 * balancer succeeds across them), round after round; and the authorization-server metadata
 * names the issuer's URLs whatever Host a request came with. Real redis-server, HAProxy,
 * the test identity provider and Switchboard processes, all on loopback.
 *
 * The replicas reach Redis through a proxy that holds every write of the keys record for
 * HOLD_MS: replicas starting within that time of each other all read an empty prefix before
 * any write lands, which is the finding's race made certain on a loaded machine (where the
 * processes' start times spread far wider than the few milliseconds between read and write).
 */
import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { expect } from 'chai';
import { freePort, makeConfigDir, startSwitchboard, metaRaw, errorCode, type Running } from '../support/harness.js';
import { startTestIdp, type TestIdp } from '../fixtures/identity-provider.js';
import { mcpClient, registerClient, signIn, switchboardAtIdp } from '../support/oauth-setup.js';
import { CLUSTER_STORAGE_KEY } from '../support/cluster.js';
import { ensureHaproxy, startHaproxy, type RunningHaproxy } from '../support/haproxy.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';
import { startHeldWritesProxy, type HeldWritesProxy } from '../support/held-writes-proxy.js';

/**
 * Rounds of replicas started together; each on a fresh, empty key prefix. The held writes make
 * the race certain in every round (each round asserts its keys write was held), so a second
 * round shows it again on a prefix of its own; more rounds add starts (three each), not proof.
 */
const ROUNDS = 2;
const REPLICAS = 3;
const HOLD_MS = 3000;

/** A script (create or put) writing the OAuth server's keys record (`<prefix>grant:Keys:<hashed id>`). */
const writesKeys = (chunk: Buffer): boolean => chunk.includes('grant:Keys:') && /\$(7\r\nevalsha|4\r\neval)\r\n/i.test(chunk.toString('latin1'));

/** GET `path` from `port` as if addressed to `host` (a replica reached by its own address). */
function getAs(port: number, host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('cluster mode: shared keys are created once, whoever starts first', function () {
  this.timeout(15 * 60_000);
  let redis: RedisServer;
  let idp: TestIdp;
  let base: string;
  let balancerPort: number;
  let ports: number[];
  let replicas: Running[] = [];
  let balancer: RunningHaproxy | undefined;
  let proxy: HeldWritesProxy;

  before(async function () {
    const missing = ensureHaproxy();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
    redis = await startRedisOrSkip(this);
    proxy = await startHeldWritesProxy(redis.port, HOLD_MS, writesKeys);
    balancerPort = await freePort();
    base = `http://127.0.0.1:${balancerPort}`;
    ports = [];
    for (let i = 0; i < REPLICAS; i++) ports.push(await freePort());
    idp = await startTestIdp({ clients: [switchboardAtIdp(base)] });
  });

  const stopRound = async (): Promise<void> => {
    await balancer?.stop();
    balancer = undefined;
    await Promise.all(replicas.map((r) => r.stop()));
    await Promise.all(replicas.map((r) => rm(r.configDir, { recursive: true, force: true })));
    replicas = [];
  };

  // A failed round leaves its replicas and balancer running: stopped before anything else starts on their ports.
  afterEach(stopRound);

  after(async () => {
    await idp?.close();
    await proxy?.close();
    await redis?.stop();
  });

  /** `count` Switchboards with OAuth on, started together on `prefix`, public at the balancer's URL. */
  const startTogether = async (prefix: string, count = REPLICAS): Promise<Running[]> => {
    const config = [
      'aggregator:',
      '  oauth:',
      '    server:',
      '      enabled: true',
      `      baseUrl: ${base}`,
      '      idp:',
      `        issuer: ${idp.issuer}`,
      '        clientId: switchboard',
      '        clientSecret: ${IDP_CLIENT_SECRET}',
      '      storage:',
      '        persistent: true',
      '        encryptionKey: ${STORAGE_KEY}',
      '  cluster:',
      '    redis:',
      `      url: redis://127.0.0.1:${proxy.port}`,
      `      keyPrefix: "${prefix}"`,
      'idp:',
      '  allowPrivateIPOIDC: true',
    ].join('\n');
    // No upstream server: what crosses the balancer is the sign-in and a meta-tool call with its
    // token, and an upstream would be one more process per replica for nothing.
    const files = { 'config.yaml': config };
    // Directories made first, so the processes are spawned back to back.
    const chosen = ports.slice(0, count);
    const dirs = await Promise.all(chosen.map(() => makeConfigDir(files)));
    const env = { IDP_CLIENT_SECRET: 'switchboard-idp-secret', STORAGE_KEY: CLUSTER_STORAGE_KEY };
    const started = await Promise.allSettled(
      chosen.map((port, i) => startSwitchboard({}, { configDir: dirs[i]!, env, args: ['--port', String(port)], startTimeoutMs: 120_000 })),
    );
    replicas = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    return replicas;
  };

  const kidsOf = async (running: Running[]): Promise<string[]> =>
    Promise.all(
      running.map(async (r) => {
        const res = await fetch(`http://127.0.0.1:${r.port}/.well-known/jwks.json`);
        const body = (await res.json()) as { keys: { kid: string }[] };
        expect(body.keys).to.have.length(1);
        return body.keys[0]!.kid;
      }),
    );

  it(`${REPLICAS} replicas started together on an empty prefix publish one key and sign a person in through a round-robin balancer, ${ROUNDS} rounds out of ${ROUNDS}`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const prefix = `keys-${round}-${Date.now()}:`;
      expect(redis.cli('--scan', '--pattern', `${prefix}*`).trim(), 'the prefix starts empty').to.equal('');
      const heldBefore = proxy.held();
      const running = await startTogether(prefix);
      expect(proxy.held(), 'the keys were written (and held) in this round').to.be.greaterThan(heldBefore);
      const kids = await kidsOf(running);
      expect(new Set(kids).size, `round ${round}: kids ${kids.join(', ')}`).to.equal(1);

      balancer = await startHaproxy(ports, '/mcp', { port: balancerPort });
      // Every hop of the browser's flow (authorize, interaction, callback, resume, token) goes to the next replica.
      const clientId = await registerClient(base);
      const tokens = await signIn(base, clientId);
      const client = await mcpClient(balancer.url, tokens.access_token);
      try {
        // Answered by whichever replica the balancer picks, with the token the shared keys signed.
        const listed = await metaRaw(client, 'list_tools', { limit: 1 });
        expect(errorCode(listed), `round ${round}: ${JSON.stringify(listed.content)}`).to.equal(undefined);
        expect(listed.isError, `round ${round}`).to.not.equal(true);
        expect((listed.structuredContent as { total: number }).total, `round ${round}`).to.be.greaterThan(0);
      } finally {
        await client.close();
      }
      const served = await balancer.served();
      expect(
        Object.values(served).filter((n) => n > 0),
        `round ${round}: requests per replica ${JSON.stringify(served)}`,
      ).to.have.length(REPLICAS);
      await stopRound();
    }
  });

  it("the authorization-server metadata names the issuer's URLs, not the Host a replica was reached by", async () => {
    // One replica answers for itself: the others would be two more OAuth start-ups for nothing.
    const [replica] = await startTogether(`metadata-${Date.now()}:`, 1);
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const res = await getAs(replica!.port, `127.0.0.1:${replica!.port}`, path);
      expect(res.status, res.body).to.equal(200);
      const metadata = JSON.parse(res.body) as Record<string, unknown>;
      expect(metadata.issuer).to.equal(base);
      expect(metadata.jwks_uri).to.equal(`${base}/.well-known/jwks.json`);
      const urls = Object.entries(metadata).filter(([, v]) => typeof v === 'string' && /^https?:\/\//.test(v));
      expect(urls.length, path).to.be.greaterThan(5);
      for (const [key, url] of urls) expect(url, `${path} ${key}`).to.satisfy((u: string) => u.startsWith(`${base}/`) || u === base);
    }
    // A forged X-Forwarded-Host from an untrusted peer changes nothing either.
    const forged = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: replica!.port,
          path: '/.well-known/oauth-authorization-server',
          headers: { host: `127.0.0.1:${replica!.port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve(body));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect((JSON.parse(forged) as { token_endpoint: string }).token_endpoint).to.equal(`${base}/oauth/token`);
  });
});
