/**
 * How long tokens live, on an injected clock (no sleeps): Switchboard, the identity
 * provider and the test share one process whose Date is driven by fake timers, so hours
 * pass in a tick. Access tokens: 30 minutes, capped to the identity provider's. Refresh
 * tokens: sessionDuration from each rotation, never past the identity provider's session,
 * which counts from the original sign-in.
 */
import { expect } from 'chai';
import FakeTimers from '@sinonjs/fake-timers';
import { Kernel } from '../../kernel/kernel.js';
import { createLogger } from '../../kernel/log.js';
import { freePort, makeConfigDir } from '../support/harness.js';
import { postForm } from '../support/oauth-browser.js';
import { registerClient, signIn } from '../support/oauth-setup.js';
import { startTestIdp, type TestIdp, type TestIdpOptions } from '../fixtures/identity-provider.js';
import { accessTokenLifetime, refreshTokenLifetime } from '../../plugins/auth-server/lifetimes.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface InProcess {
  kernel: Kernel;
  idp: TestIdp;
  base: string;
  clientId: string;
}

async function boot(sessionDuration: string, idpOptions: Partial<TestIdpOptions> = {}): Promise<InProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const idp = await startTestIdp({
    clients: [
      {
        client_id: 'sb',
        client_secret: 'sb-secret-0123',
        redirect_uris: [`${base}/oauth/callback`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    ...idpOptions,
  });
  const dir = await makeConfigDir({
    'config.yaml': `aggregator:\n  host: 127.0.0.1\n  port: ${port}\n  oauth:\n    server:\n      enabled: true\n      baseUrl: ${base}\n      sessionDuration: ${sessionDuration}\n      idp: {issuer: '${idp.issuer}', clientId: sb, clientSecret: sb-secret-0123}\nidp:\n  allowPrivateIPOIDC: true\n`,
  });
  const kernel = await Kernel.boot({ configPath: dir, log: createLogger({ level: process.env.SWITCHBOARD_TEST_LOGS ? 'debug' : 'error' }) });
  return { kernel, idp, base, clientId: await registerClient(base) };
}

/** The status of an initialize with `token`; a refusal's description after a colon (`401: the access token has expired`). */
async function mcpStatus(base: string, token: string): Promise<number | string> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    }),
  });
  if (res.status === 200) {
    await res.body?.cancel();
    return 200;
  }
  return `${res.status}: ${((await res.json()) as { error_description: string }).error_description}`;
}

function refresh(s: InProcess, refreshToken: string) {
  return postForm(`${s.base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: s.clientId });
}

describe('OAuth server: token lifetimes on an injected clock', function () {
  this.timeout(30_000);
  let clock: ReturnType<typeof FakeTimers.install>;
  let running: InProcess | undefined;

  beforeEach(() => {
    clock = FakeTimers.install({ toFake: ['Date'], now: Date.now() });
  });
  afterEach(async () => {
    await running?.kernel.shutdown('test done');
    await running?.idp.close();
    running = undefined;
    clock.uninstall();
  });

  it('the rules themselves: 30 minutes capped to the provider; rolling sessions capped to its session', () => {
    expect(accessTokenLifetime(1000, undefined)).to.equal(1800);
    expect(accessTokenLifetime(1000, 1600)).to.equal(600);
    expect(accessTokenLifetime(1000, 9000)).to.equal(1800);
    expect(refreshTokenLifetime(1000, 7200, undefined)).to.equal(7200);
    expect(refreshTokenLifetime(1000, 7200, 4600)).to.equal(3600);
  });

  it('an access token lives 30 minutes', async () => {
    running = await boot('720h');
    const tokens = await signIn(running.base, running.clientId);
    expect(tokens.expires_in).to.equal(1800);
    clock.tick(29 * MINUTE);
    expect(await mcpStatus(running.base, tokens.access_token)).to.equal(200);
    clock.tick(2 * MINUTE);
    expect(await mcpStatus(running.base, tokens.access_token)).to.equal('401: the access token has expired');
  });

  it('refresh tokens roll: each rotation starts sessionDuration anew, and an unused one lapses after it', async () => {
    running = await boot('2h');
    const tokens = await signIn(running.base, running.clientId);
    clock.tick(HOUR + 50 * MINUTE);
    const first = await refresh(running, tokens.refresh_token!);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    clock.tick(HOUR + 10 * MINUTE); // 3 h after sign-in: past the first token's 2 h, within the rotated one's
    const second = await refresh(running, String(first.body.refresh_token));
    expect(second.status, JSON.stringify(second.body)).to.equal(200);
    expect(await mcpStatus(running.base, String(second.body.access_token))).to.equal(200);
    clock.tick(2 * HOUR + MINUTE);
    const lapsed = await refresh(running, String(second.body.refresh_token));
    expect(lapsed.body).to.include({ error: 'invalid_grant' });
  });

  it("never beyond the identity provider: its access token's lifetime caps ours, its session caps the refresh token, and its tokens are refreshed when due", async () => {
    running = await boot('720h', { accessTokenSeconds: 600, sessionSeconds: 90 * 60 });
    const tokens = await signIn(running.base, running.clientId);
    expect(tokens.expires_in).to.equal(600);
    clock.tick(11 * MINUTE);
    expect(await mcpStatus(running.base, tokens.access_token)).to.equal('401: the access token has expired');
    // The provider's access token has lapsed too; refreshing here refreshes it first, so ours gets a full 10 minutes again.
    const renewed = await refresh(running, tokens.refresh_token!);
    expect(renewed.status, JSON.stringify(renewed.body)).to.equal(200);
    expect(renewed.body.expires_in).to.equal(600);
    clock.tick(80 * MINUTE); // 91 minutes after the original sign-in: the provider's session is over
    const over = await refresh(running, String(renewed.body.refresh_token));
    expect(over.body).to.include({ error: 'invalid_grant' });
  });
});
