/**
 * Mix-up attacks on Switchboard's OAuth client (RFC 9207, MCP 2026-07-28 authorization):
 * an authorization response that names another authorization server than the one the
 * sign-in was sent to is dropped whole (its code never redeemed, its error never shown); a
 * response without `iss` from a server that announced it is dropped too; and a server whose
 * metadata claims another server's issuer is refused before anything is sent to it. The
 * authorization server is a real one (oidc-provider, which sends `iss`); the attacker's part
 * is played on the response as it reaches the callback, and by an impostor metadata host.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectHttp, eventually, meta, startSwitchboard, type Running } from '../support/harness.js';
import { Browser } from '../support/oauth-browser.js';
import { startTestIdp, type TestIdp } from '../fixtures/identity-provider.js';
import { startProtectedMcpServer, type ProtectedServer } from '../fixtures/protected-mcp-server.js';
import { RESOURCE_SERVER, resourceServerAtIdp } from '../support/oauth-setup.js';

interface ListTools {
  tools: { name: string }[];
  servers_requiring_auth: { name: string }[];
}

describe('OAuth client: mix-up attacks (RFC 9207)', function () {
  this.timeout(60_000);
  let idp: TestIdp;
  let vault: ProtectedServer;
  let lookalike: ProtectedServer;
  let impostor: Server;
  let impostorHits: string[];
  let sb: Running;
  let callback: string;
  const registered: Record<string, unknown>[] = [];
  const clients: Client[] = [];

  before(async () => {
    idp = await startTestIdp({ authorizationServer: true, clients: [resourceServerAtIdp()] });
    idp.provider.on('registration_create.success', (_ctx: unknown, client: { metadata(): Record<string, unknown> }) => registered.push(client.metadata()));
    // An authorization server that serves the honest one's metadata as its own: it claims the honest issuer.
    impostorHits = [];
    impostor = createServer((req, res) => {
      impostorHits.push(`${req.method} ${req.url}`);
      void fetch(`${idp.issuer}/.well-known/openid-configuration`)
        .then((r) => r.text())
        .then((body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const impostorUrl = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
    vault = await startProtectedMcpServer({ name: 'vault', issuer: idp.issuer, introspection: RESOURCE_SERVER });
    lookalike = await startProtectedMcpServer({ name: 'lookalike', issuer: idp.issuer, introspection: RESOURCE_SERVER, authorizationServer: impostorUrl });
    sb = await startSwitchboard({
      'config.yaml': 'oauth:\n  mcpClient:\n    enabled: true\n    allowPrivateIP: true\n',
      'mcpservers/vault.yaml': `name: vault\ntype: streamable-http\nurl: ${vault.url}\n`,
      'mcpservers/lookalike.yaml': `name: lookalike\ntype: streamable-http\nurl: ${lookalike.url}\n`,
    });
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await sb?.stop();
    await vault?.close();
    await lookalike?.close();
    await new Promise((r) => impostor?.close(r));
    await idp?.close();
  });

  const session = async (): Promise<Client> => {
    const c = await connectHttp(sb.url);
    clients.push(c);
    await eventually(
      () => meta<ListTools>(c, 'list_tools'),
      (l) => l.servers_requiring_auth.some((s) => s.name === 'vault'),
    );
    return c;
  };
  const link = async (c: Client, server = 'vault'): Promise<string> =>
    (await meta<{ sign_in_url: string }>(c, 'call_tool', { name: 'core_auth_login', arguments: { server } })).sign_in_url;
  /** The authorization response as it reaches the callback, not yet delivered. */
  const response = async (c: Client): Promise<URL> => {
    const start = await link(c);
    // The callback is on the host the link names (the base URL Switchboard chose for itself).
    callback = `${new URL(start).origin}/oauth/proxy/callback`;
    return new Browser().follow(start, callback);
  };
  const deliver = async (url: URL): Promise<{ status: number; body: string }> => {
    const res = await fetch(url);
    return { status: res.status, body: await res.text() };
  };
  const signedIn = async (c: Client) => !(await meta<ListTools>(c, 'list_tools')).servers_requiring_auth.some((s) => s.name === 'vault');

  it('the honest response carries the issuer exactly as its metadata names it, and signs in', async () => {
    const c = await session();
    const back = await response(c);
    expect(back.searchParams.get('iss')).to.equal(idp.issuer);
    const page = await deliver(back);
    expect(page.status, page.body).to.equal(200);
    expect(await signedIn(c)).to.equal(true);
  });

  it('a response naming another issuer is refused (ISSUER_MISMATCH) and its code is never redeemed', async () => {
    const c = await session();
    const back = await response(c);
    back.searchParams.set('iss', 'https://evil.example');
    const page = await deliver(back);
    expect(page.status).to.equal(400);
    expect(page.body).to.contain('ISSUER_MISMATCH').and.contain('evil.example');
    expect(await signedIn(c)).to.equal(false);
  });

  it('the comparison is exact: the right issuer with a trailing slash is another issuer', async () => {
    const c = await session();
    const back = await response(c);
    back.searchParams.set('iss', `${idp.issuer}/`);
    const page = await deliver(back);
    expect(page.status).to.equal(400);
    expect(page.body).to.contain('ISSUER_MISMATCH');
    expect(await signedIn(c)).to.equal(false);
  });

  it("an error response naming another issuer: the attacker's error text is never shown", async () => {
    const c = await session();
    const back = await response(c);
    const forged = new URL(callback);
    forged.search = new URLSearchParams({
      state: back.searchParams.get('state')!,
      error: 'access_denied',
      error_description: 'Your account is locked; call +1-555-PHISH',
      iss: 'https://evil.example',
    }).toString();
    const page = await deliver(forged);
    expect(page.status).to.equal(400);
    expect(page.body).to.contain('ISSUER_MISMATCH').and.not.contain('PHISH').and.not.contain('access_denied');
  });

  it('a response without iss from a server that announces it is refused (ISSUER_MISSING)', async () => {
    const c = await session();
    const back = await response(c);
    back.searchParams.delete('iss');
    const page = await deliver(back);
    expect(page.status).to.equal(400);
    expect(page.body).to.contain('ISSUER_MISSING');
    expect(await signedIn(c)).to.equal(false);
  });

  it("a server whose metadata claims another server's issuer is refused before registration (METADATA_ISSUER_MISMATCH)", async () => {
    const c = await session();
    await eventually(
      () => meta<ListTools>(c, 'list_tools'),
      (l) => l.servers_requiring_auth.some((s) => s.name === 'lookalike'),
    );
    const before = registered.length;
    const page = await new Browser().visit(await link(c, 'lookalike'));
    expect(page.status).to.equal(502);
    expect(page.body).to.contain('METADATA_ISSUER_MISMATCH').and.contain(idp.issuer);
    expect(impostorHits.length).to.be.greaterThan(0);
    expect(registered.length, 'nothing registered at the honest server on the impostor’s word').to.equal(before);
  });

  it('registers with application_type native (its callback is on loopback)', () => {
    expect(registered.length).to.be.greaterThan(0);
    expect(registered[0]).to.include({ application_type: 'native' });
  });
});
