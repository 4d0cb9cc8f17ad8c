/**
 * Per-server auth that works (issue 25, item 3): a person signs in to Switchboard through its
 * OAuth server at the real identity provider; a server with auth.forwardToken receives that
 * person's ID token, one with auth.tokenExchange the token a downstream identity provider
 * issued for it (RFC 8693), each checked by the upstream against the issuer's key set. Two
 * people each get their own; servers without the flag get nothing; a redirect does not carry
 * the token anywhere else; no token reaches the logs; the status says which mode is in force.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { decodeJwt } from 'jose';
import { callTool, connectHttp, eventually, freePort, meta, startSwitchboard, text, type Running } from '../support/harness.js';
import { startTestIdp, type TestIdp, type TestIdpOptions } from '../fixtures/identity-provider.js';
import { mcpClient, registerClient, signIn, startProtected, type OAuthSetup, switchboardAtIdp } from '../support/oauth-setup.js';
import { startDownstreamExchange, type DownstreamExchange } from '../fixtures/downstream-exchange.js';
import { startBearerEchoServer, type BearerEchoServer } from '../fixtures/bearer-echo-server.js';

const bearerOf = (header: string | undefined) => /^Bearer (.+)$/.exec(header ?? '')?.[1];
/** The identity provider Switchboard (on `port`) signs people in with. */
function switchboardIdp(port: number, more: Partial<TestIdpOptions> = {}): Promise<TestIdp> {
  return startTestIdp({
    ...more,
    clients: [switchboardAtIdp(`http://127.0.0.1:${port}`)],
  });
}

/** A remote identity provider that exchanges ID tokens of `issuer` (Dex with a connector trusting it). */
function exchangerTrusting(issuer: string): Promise<DownstreamExchange> {
  return startDownstreamExchange({
    upstreamIssuer: issuer,
    clientId: 'sb-remote',
    clientSecret: 'remote-secret-789',
    connectorId: 'home-idp',
    tokenSeconds: 300,
    reportedExpiresIn: 3600,
  });
}

const tools = async (c: Client) => (await meta<{ tools: { name: string }[] }>(c, 'list_tools', { limit: 200 })).tools.map((t) => t.name);

describe('per-server auth: forwarded and exchanged tokens, per person', function () {
  this.timeout(90_000);
  let setup: OAuthSetup;
  let downstream: DownstreamExchange;
  let forwarded: BearerEchoServer;
  let exchanged: BearerEchoServer;
  let plain: BearerEchoServer;
  let catcher: BearerEchoServer;
  let bouncer: BearerEchoServer;
  let bobs: BearerEchoServer;
  let alice: Client;
  let bob: Client;

  before(async () => {
    // The identity provider exists before the upstreams that trust its keys, and Switchboard comes last.
    const port = await freePort();
    const idp = await switchboardIdp(port);
    downstream = await exchangerTrusting(idp.issuer);
    forwarded = await startBearerEchoServer({ name: 'forwarded', trust: { jwksUrl: `${idp.issuer}/jwks`, issuer: idp.issuer } });
    exchanged = await startBearerEchoServer({ name: 'exchanged', trust: { jwksUrl: downstream.jwksUrl, issuer: downstream.issuer } });
    plain = await startBearerEchoServer({ name: 'plain', open: true });
    catcher = await startBearerEchoServer({ name: 'catcher', open: true });
    bouncer = await startBearerEchoServer({ name: 'bouncer', redirectTo: catcher.url });
    bobs = await startBearerEchoServer({ name: 'bobs', open: true });
    setup = await startProtected({
      again: { idp, base: `http://127.0.0.1:${port}` } as OAuthSetup,
      // bobs's URL counts as chosen by bob (registeredBy), so it obeys the outbound policy.
      serverYaml: '  network:\n    allow: ["127.0.0.1"]\nmcpClient:\n  tokenExchange:\n    allowPrivateIP: true',
      files: {
        'remote-secret': 'remote-secret-789\n',
        'mcpservers/forwarded.yaml': `name: forwarded\ntype: streamable-http\nurl: ${forwarded.url}\nauth:\n  type: oauth\n  forwardToken: true\n  requiredAudiences: [k8s-authenticator]\n`,
        'mcpservers/exchanged.yaml': [
          'name: exchanged',
          'type: streamable-http',
          `url: ${exchanged.url}`,
          'auth:',
          '  type: oauth',
          '  forwardToken: true',
          '  tokenExchange:',
          '    enabled: true',
          `    dexTokenEndpoint: ${downstream.url}`,
          '    connectorId: home-idp',
          '    scopes: openid groups',
          '    clientId: sb-remote',
          '    clientSecretFile: remote-secret',
          '',
        ].join('\n'),
        'mcpservers/plain.yaml': `name: plain\ntype: streamable-http\nurl: ${plain.url}\n`,
        // As if bob had registered it through core_mcpserver_create: his URL, so only his token may go there.
        'mcpservers/bobs.yaml': `name: bobs\ntype: streamable-http\nurl: ${bobs.url}\nregisteredBy: person:bob\nauth:\n  type: oauth\n  forwardToken: true\n`,
        'mcpservers/bouncer.yaml': `name: bouncer\ntype: streamable-http\nurl: ${bouncer.url}\nauth:\n  type: oauth\n  forwardToken: true\n`,
      },
    });
    const clientId = await registerClient(setup.base);
    setup.idp.signInAs('alice');
    const aliceTokens = await signIn(setup.base, clientId);
    setup.idp.signInAs('bob');
    const bobTokens = await signIn(setup.base, clientId);
    alice = await mcpClient(setup.sb.url, aliceTokens.access_token);
    bob = await mcpClient(setup.sb.url, bobTokens.access_token);
  });
  after(async () => {
    await alice?.close();
    await bob?.close();
    await setup?.sb.stop();
    await setup?.idp.close();
    for (const s of [forwarded, exchanged, plain, catcher, bouncer, bobs]) await s?.close();
    await downstream?.close();
  });

  it("forwardToken: the upstream receives the signed-in person's own ID token, checked against the identity provider's keys; two people get their own", async () => {
    await eventually(
      () => tools(alice),
      (t) => t.includes('x_forwarded_whoami'),
      20_000,
    );
    const a = await callTool(alice, 'x_forwarded_whoami');
    expect(a.isError, text(a)).to.not.equal(true);
    expect(a.structuredContent).to.deep.include({ server: 'forwarded', sub: 'alice', iss: setup.idp.issuer });
    const b = await callTool(bob, 'x_forwarded_whoami');
    expect(b.structuredContent, text(b)).to.deep.include({ server: 'forwarded', sub: 'bob' });
    const subjects = forwarded.authorizations.map((h) => decodeJwt(bearerOf(h)!).sub);
    expect(subjects).to.include.members(['alice', 'bob']);
    // The ID token Switchboard got at sign-in, for Switchboard as its audience.
    expect(decodeJwt(bearerOf(forwarded.authorizations.at(-1))!).aud).to.equal('switchboard');
  });

  it('asks the identity provider at sign-in for the audiences forwarding servers require', () => {
    expect(setup.idp.authorizeScopes.some((s) => s.split(' ').includes('audience:server:client_id:k8s-authenticator'))).to.equal(true);
  });

  it("tokenExchange (winning over forwardToken): the upstream receives the downstream provider's token for that person, exchanged once and then reused", async () => {
    await eventually(
      () => tools(bob),
      (t) => t.includes('x_exchanged_whoami'),
      20_000,
    );
    const a = await callTool(alice, 'x_exchanged_whoami');
    expect(a.structuredContent, text(a)).to.deep.include({ server: 'exchanged', sub: 'alice', iss: downstream.issuer, aud: 'kubernetes' });
    const b = await callTool(bob, 'x_exchanged_whoami');
    expect(b.structuredContent, text(b)).to.deep.include({ sub: 'bob', iss: downstream.issuer });
    const asked = downstream.requests.at(-1)!;
    expect(asked.get('connector_id')).to.equal('home-idp');
    expect(asked.get('scope')).to.equal('openid groups');
    expect(asked.get('subject_token_type')).to.equal('urn:ietf:params:oauth:token-type:id_token');
    const exchanges = downstream.requests.length;
    await callTool(alice, 'x_exchanged_whoami');
    await callTool(bob, 'x_exchanged_whoami');
    expect(downstream.requests.length, 'kept until shortly before it expires').to.equal(exchanges);
    // Never the identity provider's own token: only the exchanged one reached the server.
    for (const h of exchanged.authorizations.filter(Boolean)) expect(decodeJwt(bearerOf(h)!).iss).to.equal(downstream.issuer);
  });

  it('sends no token to a server without the flag', async () => {
    await eventually(
      () => tools(alice),
      (t) => t.includes('x_plain_whoami'),
    );
    const r = await callTool(alice, 'x_plain_whoami');
    expect(r.isError, text(r)).to.not.equal(true);
    expect(plain.authorizations.length).to.be.greaterThan(0);
    expect(plain.authorizations.every((h) => h === undefined)).to.equal(true);
  });

  it('does not follow a redirect with the token: the server it points to never sees a bearer', async () => {
    // Alice's first use makes her connection to the bouncer: it answers 307, which is not followed.
    await eventually(
      async () => bouncer.authorizations.filter(Boolean).length,
      (n) => n > 0,
      20_000,
    );
    const r = await callTool(alice, 'x_bouncer_whoami');
    expect(r.isError).to.equal(true);
    expect(catcher.authorizations.filter(Boolean)).to.deep.equal([]);
  });

  it("never sends a person's token to a server whose URL someone else chose: refused with the server and the reason", async () => {
    await eventually(
      () => tools(bob),
      (t) => t.includes('x_bobs_whoami'),
      20_000,
    );
    const mine = await callTool(bob, 'x_bobs_whoami');
    expect(mine.isError, text(mine)).to.not.equal(true);
    const r = await callTool(alice, 'x_bobs_whoami');
    expect(r.isError).to.equal(true);
    expect(text(r)).to.contain("Server 'bobs' is called with the signed-in person's token, and its URL was chosen by person:bob");
    const subjects = bobs.authorizations.filter(Boolean).map((h) => decodeJwt(bearerOf(h)!).sub);
    expect(subjects).to.include('bob').and.not.include('alice');
  });

  it('shows the mode in force in core_service_status', async () => {
    const f = await meta<{ metadata: { auth: unknown } }>(alice, 'call_tool', { name: 'core_service_status', arguments: { name: 'forwarded' } });
    expect(f.metadata.auth).to.deep.equal({ mode: 'forwardToken', active: true });
    const e = await meta<{ metadata: { auth: unknown } }>(alice, 'call_tool', { name: 'core_service_status', arguments: { name: 'exchanged' } });
    expect(e.metadata.auth).to.deep.equal({ mode: 'tokenExchange', active: true });
  });

  it('never writes a token or the client secret to the log', () => {
    const logs = setup.sb.logs();
    const seen = [...forwarded.authorizations, ...exchanged.authorizations, ...bouncer.authorizations].map(bearerOf).filter((t): t is string => !!t);
    expect(seen.length).to.be.greaterThan(3);
    for (const token of seen) expect(logs).to.not.contain(token);
    expect(logs).to.not.contain('remote-secret-789');
  });
});

describe('per-server auth: token forwarding where nobody signs in', function () {
  this.timeout(60_000);
  let sb: Running;
  let echo: BearerEchoServer;
  let c: Client;

  before(async () => {
    echo = await startBearerEchoServer({ name: 'echo', open: true });
    sb = await startSwitchboard({
      'config.yaml': 'aggregator: {}\n',
      'mcpservers/echo.yaml': `name: echo\ntype: streamable-http\nurl: ${echo.url}\nauth:\n  type: oauth\n  forwardToken: true\n`,
    });
    c = await connectHttp(sb.url);
  });
  after(async () => {
    await c?.close();
    await sb?.stop();
    await echo?.close();
  });

  it('says in the status that forwardToken cannot work without the OAuth server, and never connects without a token', async () => {
    const s = await meta<{ state: string; error: string; metadata: { auth: { mode: string; active: boolean; reason: string } } }>(c, 'call_tool', {
      name: 'core_service_status',
      arguments: { name: 'echo' },
    });
    expect(s.metadata.auth).to.deep.include({ mode: 'forwardToken', active: false });
    expect(s.metadata.auth.reason).to.contain('the OAuth server is off (aggregator.oauth.server.enabled)');
    expect(s.state).to.equal('auth_required');
    expect(s.error).to.contain("calls carry each signed-in person's own token (auth.forwardToken)");
    expect(echo.authorizations).to.deep.equal([]);
  });
});

describe('per-server auth: token exchange towards a private address without mcpClient.tokenExchange.allowPrivateIP', function () {
  this.timeout(60_000);
  let setup: OAuthSetup;
  let downstream: DownstreamExchange;
  let echo: BearerEchoServer;

  before(async () => {
    const port = await freePort();
    const idp = await switchboardIdp(port);
    downstream = await exchangerTrusting(idp.issuer);
    echo = await startBearerEchoServer({ name: 'echo', open: true });
    setup = await startProtected({
      again: { idp, base: `http://127.0.0.1:${port}` } as OAuthSetup,
      files: {
        'remote-secret': 'remote-secret-789\n',
        'mcpservers/echo.yaml': [
          'name: echo',
          'type: streamable-http',
          `url: ${echo.url}`,
          'auth:',
          '  type: oauth',
          '  tokenExchange:',
          '    enabled: true',
          `    idpTokenEndpoint: ${downstream.url}`,
          '    connectorId: home-idp',
          '    clientId: sb-remote',
          '    clientSecretFile: remote-secret',
          '',
        ].join('\n'),
      },
    });
  });
  after(async () => {
    await setup?.sb.stop();
    await setup?.idp.close();
    await echo?.close();
    await downstream?.close();
  });

  it('refuses the endpoint (DNS rebinding protection): nothing is exchanged and the server gets no token', async () => {
    const c = await mcpClient(setup.sb.url, (await signIn(setup.base, await registerClient(setup.base))).access_token);
    try {
      await setup.sb.waitForLog(/echo.*127\.0\.0\.1 resolves to private IP address 127\.0\.0\.1 \(DNS rebinding protection\)/, 20_000);
      expect(downstream.requests).to.deep.equal([]);
      expect(echo.authorizations.filter(Boolean)).to.deep.equal([]);
    } finally {
      await c.close();
    }
  });
});

describe('per-server auth: a forwarded ID token is refreshed before it expires', function () {
  this.timeout(90_000);
  let setup: OAuthSetup;
  let echo: BearerEchoServer;
  let c: Client;

  before(async () => {
    const port = await freePort();
    // ID tokens of 40 s: Switchboard keeps one until 30 s before its exp, and the identity provider's sign-in is refreshed within 60 s of it.
    const idp = await switchboardIdp(port, { idTokenSeconds: 40 });
    echo = await startBearerEchoServer({ name: 'echo', trust: { jwksUrl: `${idp.issuer}/jwks`, issuer: idp.issuer } });
    setup = await startProtected({
      again: { idp, base: `http://127.0.0.1:${port}` } as OAuthSetup,
      files: { 'mcpservers/echo.yaml': `name: echo\ntype: streamable-http\nurl: ${echo.url}\nauth:\n  type: oauth\n  forwardToken: true\n` },
    });
    c = await mcpClient(setup.sb.url, (await signIn(setup.base, await registerClient(setup.base))).access_token);
  });
  after(async () => {
    await c?.close();
    await setup?.sb.stop();
    await setup?.idp.close();
    await echo?.close();
  });

  it('sends a new ID token of the same person once the first nears its expiry, refreshed at the identity provider', async () => {
    await eventually(
      () => tools(c),
      (t) => t.includes('x_echo_whoami'),
      20_000,
    );
    const first = bearerOf(echo.authorizations.find(Boolean))!;
    const renewed = await eventually(
      async () => {
        await callTool(c, 'x_echo_whoami');
        return bearerOf(echo.authorizations.at(-1)) ?? first;
      },
      (token) => token !== first,
      30_000,
      500,
    );
    const [before, after] = [decodeJwt(first), decodeJwt(renewed)];
    expect(after.sub).to.equal('alice');
    expect(after.exp!).to.be.greaterThan(before.exp!);
  });
});
