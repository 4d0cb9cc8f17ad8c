/**
 * Signing in to an OAuth-protected remote MCP server, per session (oauth.mcpClient): the
 * server answers 401, core_auth_login hands out a link, a browser follows it through a real
 * authorization server (oidc-provider, with dynamic registration), and from then on that
 * session, and only that one, sees the server's tools and calls them with its own token.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, errorCode, eventually, freePort, makeConfigDir, meta, startSwitchboard, text, type Running } from '../support/harness.js';
import { Browser, postForm } from '../support/oauth-browser.js';
import { startTestIdp, type TestIdp } from '../fixtures/identity-provider.js';
import { startProtectedMcpServer, type ProtectedServer } from '../fixtures/protected-mcp-server.js';
import {
  mcpClient,
  type OAuthSetup,
  registerClient,
  RESOURCE_SERVER,
  resourceServerAtIdp,
  signIn as signInToSwitchboard,
  startProtected,
  switchboardAtIdp,
} from '../support/oauth-setup.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

interface Login {
  server: string;
  status: string;
  sign_in_url?: string;
  single_sign_on?: boolean;
}

interface ListTools {
  tools: { name: string }[];
  servers_requiring_auth: { name: string; status: string; auth_tool: string }[];
}

describe('OAuth client: signing in to remote MCP servers', function () {
  this.timeout(60_000);
  let idp: TestIdp;
  let vault: ProtectedServer;
  let ledger: ProtectedServer;
  let sb: Running;
  let adminPort: number;
  const clients: Client[] = [];

  const connect = async (): Promise<Client> => {
    const c = await connectHttp(sb.url);
    clients.push(c);
    return c;
  };
  const toolNames = async (c: Client) => (await meta<ListTools>(c, 'list_tools', { limit: 200 })).tools.map((t) => t.name);
  const signIn = async (c: Client, server: string, person = 'alice') => {
    const login = await meta<Login>(c, 'call_tool', { name: 'core_auth_login', arguments: { server } });
    expect(login.status).to.equal('auth_required');
    idp.signInAs(person);
    const page = await new Browser().visit(login.sign_in_url!);
    expect(page.status, page.body).to.equal(200);
    expect(page.body).to.contain(`signed in to ${server}`);
  };

  before(async () => {
    idp = await startTestIdp({
      authorizationServer: true,
      accessTokenSeconds: 4,
      clients: [resourceServerAtIdp()],
    });
    const introspection = RESOURCE_SERVER;
    vault = await startProtectedMcpServer({ name: 'vault', issuer: idp.issuer, introspection });
    ledger = await startProtectedMcpServer({ name: 'ledger', issuer: idp.issuer, introspection });
    adminPort = await freePort();
    sb = await startSwitchboard({
      'config.yaml': `aggregator:\n  admin:\n    enabled: true\n    port: ${adminPort}\noauth:\n  mcpClient:\n    enabled: true\n    allowPrivateIP: true\npostLoginRedirectAllowlist:\n  - http://127.0.0.1:7/done/\n`,
      'mcpservers/vault.yaml': `name: vault\ntype: streamable-http\nurl: ${vault.url}\n`,
      'mcpservers/ledger.yaml': `name: ledger\ntype: streamable-http\nurl: ${ledger.url}\n`,
    });
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await sb?.stop();
    await vault?.close();
    await ledger?.close();
    await idp?.close();
  });

  it('names a server that answers 401 in servers_requiring_auth, without listing its tools', async () => {
    const c = await connect();
    const listed = await eventually(
      () => meta<ListTools>(c, 'list_tools'),
      (l) => l.servers_requiring_auth.length === 2,
    );
    expect(listed.servers_requiring_auth).to.deep.include({ name: 'vault', status: 'auth_required', auth_tool: 'core_auth_login' });
    expect(listed.tools.map((t) => t.name)).to.not.include('x_vault_whoami');
    // Its tools are unknown until someone signs in: a call says what to do, not "not found" (issue 39).
    const r = await callTool(c, 'x_vault_whoami');
    expect(errorCode(r)).to.equal('AUTH_REQUIRED');
  });

  it('signs a session in through the link core_auth_login returns; only that session sees and calls the tools', async () => {
    const mine = await connect();
    const other = await connect();
    const changed = new Promise<void>((resolve) => mine.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await signIn(mine, 'vault', 'alice');
    await changed;
    expect(await toolNames(mine)).to.include.members(['x_vault_whoami', 'x_vault_echo']);
    const r = await callTool(mine, 'x_vault_whoami');
    expect(r.isError, text(r)).to.not.equal(true);
    expect(r.structuredContent).to.deep.equal({ server: 'vault', subject: 'alice' });

    expect(await toolNames(other)).to.not.include('x_vault_whoami');
    const refused = await callTool(other, 'x_vault_whoami');
    expect(errorCode(refused)).to.equal('AUTH_REQUIRED');
    expect(text(refused)).to.contain("Server 'vault' requires sign-in").and.contain('core_auth_login');
    const otherList = await meta<ListTools>(other, 'list_tools');
    expect(otherList.servers_requiring_auth.map((s) => s.name)).to.include('vault');
    const mineList = await meta<ListTools>(mine, 'list_tools');
    expect(mineList.servers_requiring_auth.map((s) => s.name)).to.deep.equal(['ledger']);
  });

  it("shows a signed-in session the server's resources and prompts, read with its own token; not another session", async () => {
    const mine = await connect();
    const other = await connect();
    await signIn(mine, 'vault', 'alice');
    const uris = (await mine.listResources()).resources.map((r) => r.uri);
    expect(uris).to.include('vault://profile');
    const read = await mine.readResource({ uri: 'vault://profile' });
    expect((read.contents[0] as { text: string }).text).to.equal('profile of alice');
    const prompt = await mine.getPrompt({ name: 'x_vault_brief' });
    expect((prompt.messages[0]!.content as { text: string }).text).to.equal('brief for alice');
    expect((await other.listResources()).resources.map((r) => r.uri)).to.not.include('vault://profile');
    expect((await other.listPrompts()).prompts.map((p) => p.name)).to.not.include('x_vault_brief');
    const refused = await meta<{ error?: unknown }>(other, 'get_resource', { uri: 'vault://profile' }).catch((err: unknown) => (err as Error).message);
    expect(JSON.stringify(refused)).to.contain('not found');
  });

  it('reuses a grant from the same authorization server for another server (single sign-on)', async () => {
    const c = await connect();
    await signIn(c, 'vault', 'bob');
    const login = await meta<Login>(c, 'call_tool', { name: 'core_auth_login', arguments: { server: 'ledger' } });
    expect(login).to.include({ status: 'connected', single_sign_on: true });
    const r = await callTool(c, 'x_ledger_whoami');
    expect(r.structuredContent).to.deep.equal({ server: 'ledger', subject: 'bob' });
  });

  it('reports per-session status in auth://status', async () => {
    const c = await connect();
    await signIn(c, 'ledger', 'alice');
    const read = await c.readResource({ uri: 'auth://status' });
    const status = JSON.parse((read.contents[0] as { text: string }).text) as { servers: { name: string; status: string; suspended: boolean }[] };
    expect(status.servers).to.deep.include({ name: 'ledger', status: 'connected', suspended: false });
    expect(status.servers).to.deep.include({ name: 'vault', status: 'auth_required', suspended: false, auth_tool: 'core_auth_login' });
  });

  it('refreshes the token before it expires: calls keep working past the access token lifetime', async () => {
    const c = await connect();
    await signIn(c, 'vault', 'alice');
    expect((await callTool(c, 'x_vault_echo', { message: 'one' })).isError).to.not.equal(true);
    const before = vault.tokensSeen.length;
    // The access token lives 4 s; past half of that, the next call goes out with a fresh one
    // while the old one is still valid: refreshed ahead of expiry, not after a refusal.
    await new Promise((r) => setTimeout(r, 2500));
    const r = await callTool(c, 'x_vault_echo', { message: 'two' });
    expect(r.isError, text(r)).to.not.equal(true);
    expect(text(r)).to.equal('two');
    expect(vault.tokensSeen.length).to.equal(before + 1);
    await new Promise((r) => setTimeout(r, 2500));
    expect(text(await callTool(c, 'x_vault_echo', { message: 'three' }))).to.equal('three');
  });

  it('logout hides the tools again', async () => {
    const c = await connect();
    await signIn(c, 'vault', 'alice');
    expect(await toolNames(c)).to.include('x_vault_whoami');
    const out = await meta<{ signed_out: boolean; status: string }>(c, 'call_tool', { name: 'core_auth_logout', arguments: { server: 'vault' } });
    expect(out).to.deep.include({ signed_out: true, status: 'auth_required' });
    // The operator's log says it, without naming who.
    const { events } = await meta<{ events: { reason: string; message: string }[] }>(c, 'call_tool', {
      name: 'core_events',
      arguments: { resource_name: 'vault', limit: 20 },
    });
    expect(events.map((e) => e.reason)).to.include.members(['MCPServerSignedIn', 'MCPServerSignedOut', 'MCPServerAuthRequired']);
    expect(events.find((e) => e.reason === 'MCPServerSignedOut')!.message).to.equal("a session signed out of 'vault'");
    expect(await toolNames(c)).to.not.include('x_vault_whoami');
    expect(errorCode(await callTool(c, 'x_vault_whoami'))).to.equal('AUTH_REQUIRED');
  });

  it('a revoked grant moves the server back to auth_required for that session', async () => {
    const c = await connect();
    await signIn(c, 'vault', 'bob');
    expect((await callTool(c, 'x_vault_whoami')).isError).to.not.equal(true);
    await idp.revoke('bob');
    const r = await callTool(c, 'x_vault_whoami');
    expect(errorCode(r), text(r)).to.equal('AUTH_REQUIRED');
    const listed = await meta<ListTools>(c, 'list_tools');
    expect(listed.servers_requiring_auth.map((s) => s.name)).to.include('vault');
    expect(listed.tools.map((t) => t.name)).to.not.include('x_vault_whoami');
  });

  it('refuses a used link, and a redirect outside postLoginRedirectAllowlist', async () => {
    const c = await connect();
    const login = await meta<Login>(c, 'call_tool', { name: 'core_auth_login', arguments: { server: 'vault' } });
    const outside = await new Browser().visit(`${login.sign_in_url}&redirect=${encodeURIComponent('https://evil.example/')}`);
    expect(outside.status).to.equal(400);
    expect(outside.body).to.contain('postLoginRedirectAllowlist');
    idp.signInAs('alice');
    const allowed = await new Browser().follow(
      `${login.sign_in_url}&redirect=${encodeURIComponent('http://127.0.0.1:7/done/vault')}`,
      'http://127.0.0.1:7/done/',
    );
    expect(allowed.href).to.equal('http://127.0.0.1:7/done/vault');
    expect(await toolNames(c)).to.include('x_vault_whoami');
    const again = await new Browser().visit(login.sign_in_url!);
    expect(again.status).to.equal(400);
    expect(again.body).to.contain('unknown, used or expired');
  });

  it("the admin UI drops a server's grants: its tools are gone for everyone who had signed in", async () => {
    const c = await connect();
    await signIn(c, 'ledger', 'alice');
    expect(await toolNames(c)).to.include('x_ledger_whoami');
    // The admin listener takes actions only from its own origin (a tool says so with Origin).
    const res = await fetch(`http://127.0.0.1:${adminPort}/auth/ledger`, { method: 'DELETE', headers: { origin: `http://127.0.0.1:${adminPort}` } });
    expect(res.status).to.equal(200);
    expect(((await res.json()) as { dropped: number }).dropped).to.be.greaterThan(0);
    expect(await toolNames(c)).to.not.include('x_ledger_whoami');
    expect(errorCode(await callTool(c, 'x_ledger_whoami'))).to.equal('AUTH_REQUIRED');
  });

  it('serves its client metadata document', async () => {
    const res = await fetch(new URL('/.well-known/oauth-client.json', sb.url));
    const doc = (await res.json()) as { client_id: string; redirect_uris: string[] };
    const port = new URL(sb.url).port;
    expect(doc.client_id).to.match(new RegExp(`^http://(localhost|127\\.0\\.0\\.1):${port}/\\.well-known/oauth-client\\.json$`));
    expect(doc.redirect_uris).to.deep.equal([doc.client_id.replace('/.well-known/oauth-client.json', '/oauth/proxy/callback')]);
    expect(doc).to.include({ token_endpoint_auth_method: 'none', client_name: 'Switchboard' });
  });
});

describe('OAuth client: suspended servers', function () {
  this.timeout(60_000);
  let idp: TestIdp;
  let vault: ProtectedServer;
  let sb: Running;
  let c: Client;

  before(async () => {
    idp = await startTestIdp({
      authorizationServer: true,
      clients: [resourceServerAtIdp()],
    });
    vault = await startProtectedMcpServer({ name: 'vault', issuer: idp.issuer, introspection: RESOURCE_SERVER });
    sb = await startSwitchboard({
      'config.yaml': 'oauth:\n  mcpClient:\n    enabled: true\n    allowPrivateIP: true\n',
      'mcpservers/vault.yaml': `name: vault\ntype: streamable-http\nurl: ${vault.url}\n`,
    });
    c = await connectHttp(sb.url);
  });

  after(async () => {
    await c?.close().catch(() => undefined);
    await sb?.stop();
    await vault?.close();
    await idp?.close();
  });

  const update = (suspended: boolean) => meta(c, 'call_tool', { name: 'core_mcpserver_update', arguments: { name: 'vault', suspended } });
  const status = async () => {
    const read = await c.readResource({ uri: 'auth://status' });
    return (JSON.parse((read.contents[0] as { text: string }).text) as { servers: { name: string; status: string; suspended: boolean }[] }).servers.find(
      (s) => s.name === 'vault',
    );
  };

  it('refuses core_auth_login with the exact message, reports disconnected and suspended, names it nowhere; resumes without a new sign-in', async () => {
    const login = await eventually(
      () => meta<Login>(c, 'call_tool', { name: 'core_auth_login', arguments: { server: 'vault' } }),
      (l) => l.status === 'auth_required',
    );
    idp.signInAs('alice');
    expect((await new Browser().visit(login.sign_in_url!)).status).to.equal(200);
    expect((await callTool(c, 'x_vault_whoami')).structuredContent).to.deep.include({ subject: 'alice' });

    await update(true);
    await eventually(status, (s) => s?.status === 'disconnected');
    expect(await status()).to.deep.equal({ name: 'vault', status: 'disconnected', suspended: true });
    const refused = await callTool(c, 'core_auth_login', { server: 'vault' });
    expect(refused.isError).to.equal(true);
    expect(text(refused)).to.match(/^Server 'vault' is deactivated \(spec\.suspended=true\); activate it with core_service_start before signing in/);
    const listed = await meta<ListTools>(c, 'list_tools', { limit: 200 });
    expect(listed.servers_requiring_auth).to.deep.equal([]);
    expect(listed.tools.map((t) => t.name)).to.not.include('x_vault_whoami');

    await update(false);
    const back = await eventually(
      () => callTool(c, 'x_vault_whoami'),
      (r) => !r.isError,
      10_000,
    );
    expect(back.structuredContent).to.deep.include({ subject: 'alice' });
    expect(await status()).to.deep.equal({ name: 'vault', status: 'connected', suspended: false });
  });
});

describe('OAuth client behind OAuth protection: a grant belongs to the person', function () {
  this.timeout(60_000);
  let setup: OAuthSetup;
  let vault: ProtectedServer;
  const opened: Client[] = [];
  let configDir: string;
  const lastToken = new Map<string, string>();
  const sessionOf = async (person: string): Promise<Client> => {
    setup.idp.signInAs(person);
    const tokens = await signInToSwitchboard(setup.base, await registerClient(setup.base));
    lastToken.set(person, tokens.access_token);
    const c = await mcpClient(setup.sb.url, tokens.access_token);
    opened.push(c);
    return c;
  };
  // Persistent storage: the auth server's records and, with them, people's grants at remote servers.
  const serverYaml = (issuer: string) =>
    [
      '      storage:',
      '        persistent: true',
      '        encryptionKey: ${GRANT_KEY}',
      '      tokenExchangeBroker:',
      '        brokerClients: {agent-gw: {clientSecretFile: broker-secret}}',
      '        clientAudiences: {agent-gw: [vault-api]}',
      `        targets: {vault-api: {grantIssuer: '${issuer}'}}`,
      'oauth:\n  mcpClient:\n    enabled: true\n    allowPrivateIP: true',
    ].join('\n');

  before(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // One provider: people sign in to Switchboard there, and it is the remote server's authorization server.
    const idp = await startTestIdp({
      authorizationServer: true,
      clients: [switchboardAtIdp(base), resourceServerAtIdp()],
    });
    configDir = await makeConfigDir({});
    // A broker client may have a person's own grant at that authorization server released to it.
    setup = await startProtected({
      again: { idp, base, sb: undefined as never },
      configDir,
      serverYaml: serverYaml(idp.issuer),
      files: { 'broker-secret': 'broker-secret-123\n' },
      env: { GRANT_KEY: 'g'.repeat(40) },
    });
    vault = await startProtectedMcpServer({ name: 'vault', issuer: setup.idp.issuer, introspection: RESOURCE_SERVER });
    await writeFile(join(setup.sb.configDir, 'mcpservers/vault.yaml'), `name: vault\ntype: streamable-http\nurl: ${vault.url}\n`);
  });

  after(async () => {
    for (const c of opened) await c.close().catch(() => undefined);
    await setup?.sb.stop();
    await vault?.close();
    await setup?.idp.close();
  });

  it("one sign-in serves all of the person's sessions, and no one else's", async () => {
    const first = await sessionOf('alice');
    const login = await eventually(
      () => meta<Login>(first, 'call_tool', { name: 'core_auth_login', arguments: { server: 'vault' } }),
      (l) => l.status === 'auth_required',
      10_000,
    );
    setup.idp.signInAs('alice');
    expect((await new Browser().visit(login.sign_in_url!)).status).to.equal(200);

    const second = await sessionOf('alice');
    expect((await callTool(second, 'x_vault_whoami')).structuredContent).to.deep.equal({ server: 'vault', subject: 'alice' });
    const bob = await sessionOf('bob');
    expect(errorCode(await callTool(bob, 'x_vault_whoami'))).to.equal('AUTH_REQUIRED');
    expect((await meta<ListTools>(bob, 'list_tools')).servers_requiring_auth.map((s) => s.name)).to.deep.equal(['vault']);

    // The grant outlives the session it was made in.
    await first.close();
    expect((await callTool(second, 'x_vault_whoami')).isError).to.not.equal(true);
  });

  it("a broker client gets the person's own grant released (grant form): the access token, never the refresh token", async () => {
    setup.idp.signInAs('alice');
    const tokens = await signInToSwitchboard(setup.base, await registerClient(setup.base));
    const exchange = (subject: string) =>
      postForm(
        `${setup.base}/oauth/token`,
        {
          grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
          subject_token: subject,
          subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
          audience: 'vault-api',
        },
        { authorization: `Basic ${Buffer.from('agent-gw:broker-secret-123').toString('base64')}` },
      );
    const r = await exchange(tokens.access_token);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.refresh_token).to.equal(undefined);
    expect(r.body.expires_in).to.be.a('number').and.be.within(1, 3600);
    expect(vault.tokensSeen).to.include(String(r.body.access_token));
    // Bob never signed in there: nothing to release.
    setup.idp.signInAs('bob');
    const bobs = await signInToSwitchboard(setup.base, await registerClient(setup.base));
    const none = await exchange(bobs.access_token);
    expect(none.body).to.deep.equal({ error: 'invalid_target', error_description: `'bob' has no grant at ${setup.idp.issuer}` });
  });

  it("with persistent storage, a person's grant outlives a Switchboard restart: no new sign-in", async () => {
    await setup.sb.stop();
    setup = await startProtected({
      again: setup,
      configDir,
      serverYaml: serverYaml(setup.idp.issuer),
      files: { 'broker-secret': 'broker-secret-123\n' },
      env: { GRANT_KEY: 'g'.repeat(40) },
    });
    const again = await mcpClient(setup.sb.url, lastToken.get('alice')!);
    opened.push(again);
    const r = await eventually(
      () => callTool(again, 'x_vault_whoami'),
      (x) => !x.isError,
      10_000,
    );
    expect(r.structuredContent).to.deep.equal({ server: 'vault', subject: 'alice' });
    const bobs = await mcpClient(setup.sb.url, lastToken.get('bob')!);
    opened.push(bobs);
    expect(errorCode(await callTool(bobs, 'x_vault_whoami'))).to.equal('AUTH_REQUIRED');
  });
});
