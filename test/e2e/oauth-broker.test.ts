/**
 * Brokered token exchange: a confidential broker client trades a person's Switchboard
 * access token for a token of a downstream identity provider (exchanged there with the
 * person's ID token through a connector), within its audience allowlist.
 */
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { postForm } from '../support/oauth-browser.js';
import { protectedForSuite, registerClient, signIn, startProtected, type OAuthSetup, type Tokens, switchboardAtIdp } from '../support/oauth-setup.js';
import { startTestIdp, type TestIdp } from '../fixtures/identity-provider.js';
import { startDownstreamExchange, type DownstreamExchange } from '../fixtures/downstream-exchange.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../../lib/files/atomic-write.js';
import { eventually, freePort } from '../support/harness.js';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS = 'urn:ietf:params:oauth:token-type:access_token';
const BROKER_AUTH = { authorization: `Basic ${Buffer.from('agent-gw:broker-secret-123').toString('base64')}` };

function brokerYaml(endpoint: string, allowPrivateIP: boolean): string {
  return [
    '      tokenExchangeBroker:',
    `        allowPrivateIP: ${allowPrivateIP}`,
    '        brokerClients:',
    '          agent-gw: {clientSecretFile: broker-secret}',
    '        clientAudiences:',
    '          agent-gw: [kubernetes, gitlab]',
    '        targets:',
    `          kubernetes: {idpTokenEndpoint: '${endpoint}', connectorId: upstream, clientId: switchboard-downstream, clientSecretFile: downstream-secret, scopes: 'openid groups'}`,
    "          gitlab: {grantIssuer: 'https://gitlab.example'}",
  ].join('\n');
}

const FILES = { 'broker-secret': 'broker-secret-123\n', 'downstream-secret': 'downstream-secret-456\n' };

describe('OAuth server: brokered token exchange', function () {
  this.timeout(30_000);
  let idp: TestIdp;
  let downstream: DownstreamExchange;
  let setup: OAuthSetup;
  let tokens: Tokens;

  before(async () => {
    const port = await freePort();
    idp = await startTestIdp({
      clients: [switchboardAtIdp(`http://127.0.0.1:${port}`)],
    });
    downstream = await startDownstreamExchange({
      upstreamIssuer: idp.issuer,
      clientId: 'switchboard-downstream',
      clientSecret: 'downstream-secret-456',
      connectorId: 'upstream',
      tokenSeconds: 300,
      reportedExpiresIn: 3600,
    });
    setup = await startProtected({
      upstream: false,
      serverYaml: brokerYaml(downstream.url, true),
      files: FILES,
      again: { idp, base: `http://127.0.0.1:${port}` } as OAuthSetup,
    });
    tokens = await signIn(setup.base, await registerClient(setup.base));
  });
  after(async () => {
    await setup?.sb.stop();
    await idp?.close();
    await downstream?.close();
  });

  const exchange = (form: Record<string, string>, headers: Record<string, string> = BROKER_AUTH) =>
    postForm(`${setup.base}/oauth/token`, { grant_type: EXCHANGE, subject_token: tokens.access_token, subject_token_type: ACCESS, ...form }, headers);

  it("returns the downstream token for the person: no refresh token, expires_in bounded by the downstream token, the client's scope ignored", async () => {
    const r = await exchange({ audience: 'kubernetes', scope: 'cluster-admin' });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.refresh_token).to.equal(undefined);
    expect(r.body.issued_token_type).to.equal(ACCESS);
    expect(r.body.expires_in).to.be.within(295, 300);
    const claims = decodeJwt(String(r.body.access_token));
    expect(claims).to.include({ iss: downstream.issuer, sub: 'alice', aud: 'kubernetes', scope: 'openid groups' });
    const asked = downstream.requests.at(-1)!;
    expect(asked.get('connector_id')).to.equal('upstream');
    expect(asked.get('subject_token_type')).to.equal('urn:ietf:params:oauth:token-type:id_token');
  });

  it('its secret at the downstream provider, rotated there and renewed in its file, is used without a restart', async () => {
    downstream.rotateClientSecret('downstream-secret-789');
    const refused = await exchange({ audience: 'kubernetes' });
    expect(refused.body.error, 'the old secret is refused').to.equal('invalid_grant');
    expect(String(refused.body.error_description)).to.contain('invalid_client');
    await writeFileAtomic(join(setup.sb.configDir, 'downstream-secret'), 'downstream-secret-789\n');
    // Read again at most once a second: the exchange right after the refusal above may come too soon.
    const r = await eventually(
      () => exchange({ audience: 'kubernetes' }),
      (x) => x.status === 200,
      20_000,
      500,
    );
    expect(decodeJwt(String(r.body.access_token))).to.include({ iss: downstream.issuer, sub: 'alice' });
    expect(setup.sb.logs()).to.not.include('downstream-secret-789');
  });

  it("a broker client's own secret renewed in its file is accepted without a restart, and the old one no longer", async () => {
    const renewed = { authorization: `Basic ${Buffer.from('agent-gw:broker-secret-renewed').toString('base64')}` };
    await writeFileAtomic(join(setup.sb.configDir, 'broker-secret'), 'broker-secret-renewed\n');
    // The file is read again at most once a second, as clients present their secret.
    const r = await eventually(
      () => exchange({ audience: 'kubernetes' }, renewed),
      (x) => x.status === 200,
      20_000,
      250,
    );
    expect(decodeJwt(String(r.body.access_token))).to.include({ sub: 'alice' });
    const old = await exchange({ audience: 'kubernetes' });
    expect(old.status).to.equal(401);
    expect(old.body.error).to.equal('invalid_client');
    expect(setup.sb.logs()).to.not.include('broker-secret-renewed');
    await writeFileAtomic(join(setup.sb.configDir, 'broker-secret'), 'broker-secret-123\n');
    await eventually(
      () => exchange({ audience: 'kubernetes' }),
      (x) => x.status === 200,
      20_000,
      250,
    );
  });

  it('refuses: an audience outside the allowlist, a person without a grant, DPoP, a bad secret, a foreign subject token', async () => {
    const notAllowed = await exchange({ audience: 'payroll' });
    expect(notAllowed.body).to.deep.equal({ error: 'invalid_target', error_description: "audience 'payroll' is not allowed for client 'agent-gw'" });
    const noGrant = await exchange({ audience: 'gitlab' });
    expect(noGrant.body).to.deep.equal({ error: 'invalid_target', error_description: "'alice' has no grant at https://gitlab.example" });
    const dpop = await exchange({ audience: 'kubernetes' }, { ...BROKER_AUTH, dpop: 'eyJ0eXAiOiJkcG9wK2p3dCJ9.e30.sig' });
    expect(dpop.body.error).to.equal('invalid_request');
    const badSecret = await exchange({ audience: 'kubernetes' }, { authorization: `Basic ${Buffer.from('agent-gw:wrong').toString('base64')}` });
    expect(badSecret).to.deep.include({ status: 401 });
    expect(badSecret.body.error).to.equal('invalid_client');
    const foreign = await exchange({ audience: 'kubernetes', subject_token: 'not-ours' });
    expect(foreign.body).to.deep.equal({ error: 'invalid_grant', error_description: 'subject_token is not a valid access token of this server' });
  });
});

describe('OAuth server: brokered exchange towards a private address without allowPrivateIP', function () {
  this.timeout(30_000);
  const suite = protectedForSuite({ upstream: false, serverYaml: brokerYaml('https://127.0.0.1:9443/token', false), files: FILES });

  it('fails with the DNS-rebinding error', async () => {
    const setup = suite();
    const tokens = await signIn(setup.base, await registerClient(setup.base));
    const r = await postForm(
      `${setup.base}/oauth/token`,
      { grant_type: EXCHANGE, subject_token: tokens.access_token, subject_token_type: ACCESS, audience: 'kubernetes' },
      BROKER_AUTH,
    );
    expect(r.body).to.deep.equal({
      error: 'invalid_target',
      error_description: 'downstream token endpoint: 127.0.0.1 resolves to private IP address 127.0.0.1 (DNS rebinding protection)',
    });
  });
});
