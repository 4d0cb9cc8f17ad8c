/**
 * The `auth` block of an MCP server definition (reference-behaviour.md §11): advertised
 * property by property in the core tools' input schemas, checked with the reference's
 * phrases, stored and returned as written; and `auth.authorizationServer` pins the sign-in
 * of core_auth_login to one authorization server, whatever the server's own resource
 * metadata says (or whether it has any).
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, eventually, meta, metaRaw, startSwitchboard, text, type Running } from '../support/harness.js';
import { Browser } from '../support/oauth-browser.js';
import { startTestIdp, type TestIdp } from '../fixtures/identity-provider.js';
import { startProtectedMcpServer, type ProtectedServer } from '../fixtures/protected-mcp-server.js';
import { RESOURCE_SERVER, resourceServerAtIdp } from '../support/oauth-setup.js';

const REMOTE_ONLY = 'auth configuration is only supported for remote server types (streamable-http or sse)';

const FULL_AUTH = {
  type: 'oauth',
  forwardToken: false,
  requiredAudiences: ['k8s-authenticator'],
  tokenExchange: {
    enabled: true,
    dexTokenEndpoint: 'https://idp.remote.example/token',
    expectedIssuer: 'https://idp.remote.example',
    connectorId: 'home-idp',
    scopes: 'openid profile email groups',
    clientCredentialsSecretRef: { name: 'x-creds', namespace: 'ops', clientIdKey: 'client-id', clientSecretKey: 'client-secret' },
  },
};

const manage = (c: Client, tool: string, args: Record<string, unknown>): Promise<CallToolResult> => metaRaw(c, 'call_tool', { name: tool, arguments: args });
/** All a result says, text and structured, for phrase checks that hold whichever way the result is shaped. */
const said = (r: CallToolResult): string => `${text(r)} ${JSON.stringify(r.structuredContent ?? {})}`;

describe('MCP server auth block: schema, rules, round trip', function () {
  this.timeout(60_000);
  let sb: Running;
  let c: Client;

  before(async () => {
    sb = await startSwitchboard({ 'config.yaml': 'aggregator:\n  network:\n    allow: ["127.0.0.1"]\n' });
    c = await connectHttp(sb.url);
  });
  after(async () => {
    await c?.close();
    await sb?.stop();
  });

  it('spells the block out property by property in describe_tool of create, update and validate', async () => {
    for (const tool of ['core_mcpserver_create', 'core_mcpserver_update', 'core_mcpserver_validate']) {
      const d = await meta<{ inputSchema: { properties: Record<string, { properties: Record<string, { properties?: Record<string, unknown> }> }> } }>(
        c,
        'describe_tool',
        { name: tool },
      );
      const auth = d.inputSchema.properties.auth!;
      expect(Object.keys(auth.properties), tool).to.have.members(['type', 'forwardToken', 'requiredAudiences', 'authorizationServer', 'tokenExchange']);
      expect(Object.keys(auth.properties.authorizationServer!.properties!)).to.have.members(['issuer', 'scopes', 'grantScope']);
      expect(Object.keys(auth.properties.tokenExchange!.properties!)).to.include.members([
        'enabled',
        'dexTokenEndpoint',
        'idpTokenEndpoint',
        'expectedIssuer',
        'connectorId',
        'scopes',
        'clientCredentialsSecretRef',
        'clientId',
        'clientSecretFile',
      ]);
    }
  });

  it('stores the block and core_mcpserver_get returns it unchanged', async () => {
    const created = await manage(c, 'core_mcpserver_create', { name: 'k8s', type: 'streamable-http', url: 'http://127.0.0.1:9/mcp', auth: FULL_AUTH });
    expect(created.isError, text(created)).to.not.equal(true);
    const got = await meta<{ auth: unknown }>(c, 'call_tool', { name: 'core_mcpserver_get', arguments: { name: 'k8s' } });
    expect(got.auth).to.deep.equal(FULL_AUTH);
    const pinned = { type: 'oauth', authorizationServer: { issuer: 'https://as.example.net', scopes: 'openid offline_access', grantScope: 'subject' } };
    const updated = await manage(c, 'core_mcpserver_update', { name: 'k8s', auth: pinned });
    expect(updated.isError, text(updated)).to.not.equal(true);
    expect((await meta<{ auth: unknown }>(c, 'call_tool', { name: 'core_mcpserver_get', arguments: { name: 'k8s' } })).auth).to.deep.equal(pinned);
  });

  it('refuses auth on stdio with the reference phrase (create and validate); type none stays allowed', async () => {
    const created = await manage(c, 'core_mcpserver_create', { name: 'local', type: 'stdio', command: 'true', auth: { type: 'oauth' } });
    expect(created.isError).to.equal(true);
    expect(said(created)).to.contain(REMOTE_ONLY);
    const validated = await manage(c, 'core_mcpserver_validate', { name: 'local', type: 'stdio', command: 'true', auth: { type: 'oauth' } });
    expect(said(validated)).to.contain(REMOTE_ONLY);
    const none = await manage(c, 'core_mcpserver_create', { name: 'local-none', type: 'stdio', command: 'true', auth: { type: 'none' } });
    expect(none.isError, text(none)).to.not.equal(true);
  });

  it('authorizationServer needs type oauth and excludes forwardToken: true and tokenExchange.enabled: true', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ authorizationServer: { issuer: 'https://as.example.net' } }, 'auth.authorizationServer requires auth.type: oauth'],
      [
        { type: 'oauth', forwardToken: true, authorizationServer: { issuer: 'https://as.example.net' } },
        'auth.authorizationServer cannot be combined with auth.forwardToken: true',
      ],
      [
        { type: 'oauth', tokenExchange: FULL_AUTH.tokenExchange, authorizationServer: { issuer: 'https://as.example.net' } },
        'auth.authorizationServer cannot be combined with auth.tokenExchange.enabled: true',
      ],
      // Shape errors are caught by the input schema (its own wording, §13): they name the field.
      [{ type: 'oauth', authorizationServer: {} }, 'issuer'],
      [{ type: 'oauth', authorizationServer: { issuer: 'https://as.example.net', grantScope: 'everyone' } }, 'grantScope'],
      [
        { type: 'oauth', tokenExchange: { enabled: true, connectorId: 'x', clientCredentialsSecretRef: { name: 'x' } } },
        'tokenExchange needs dexTokenEndpoint (or idpTokenEndpoint)',
      ],
      [
        { type: 'oauth', tokenExchange: { enabled: true, idpTokenEndpoint: 'https://idp.example/token', connectorId: 'x' } },
        'tokenExchange needs clientCredentialsSecretRef, or clientId and clientSecretFile',
      ],
      [{ type: 'oauth', tokenExchange: { clientCredentialsSecretRef: {} } }, 'name'],
      [{ type: 'bearer' }, 'oauth'],
    ];
    for (const [auth, phrase] of cases) {
      const r = await manage(c, 'core_mcpserver_create', { name: 'bad', type: 'streamable-http', url: 'http://127.0.0.1:9/mcp', auth });
      expect(r.isError, JSON.stringify(auth)).to.equal(true);
      expect(said(r), JSON.stringify(auth)).to.contain(phrase);
    }
    // The neutral spelling is taken beside the reference's, and the file-mode credentials are accepted.
    const ok = await manage(c, 'core_mcpserver_validate', {
      name: 'fine',
      type: 'sse',
      url: 'http://127.0.0.1:9/sse',
      auth: {
        type: 'oauth',
        tokenExchange: { enabled: true, idpTokenEndpoint: 'https://idp.example/token', connectorId: 'x', clientId: 'a', clientSecretFile: 'f' },
      },
    });
    expect(said(ok)).to.match(/"valid":true/);
  });

  it("refuses a tokenExchange clientSecretFile outside secrets.allowedDirs, as it refuses {fromFile}: the file would be sent to the caller's endpoint", async () => {
    const r = await manage(c, 'core_mcpserver_create', {
      name: 'steal',
      type: 'streamable-http',
      url: 'http://127.0.0.1:9/mcp',
      auth: {
        type: 'oauth',
        tokenExchange: { enabled: true, idpTokenEndpoint: 'https://idp.example/token', connectorId: 'x', clientId: 'a', clientSecretFile: '/etc/passwd' },
      },
    });
    expect(r.isError).to.equal(true);
    expect(said(r)).to.contain('auth.tokenExchange.clientSecretFile');
    expect(said(r)).to.contain('FORBIDDEN');
  });

  it('checks files with the same rules: a stdio file with auth is refused at reload, naming the phrase', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${sb.configDir}/mcpservers/fileauth.yaml`, 'name: fileauth\ntype: stdio\ncommand: "true"\nauth:\n  type: oauth\n');
    await sb.waitForLog(new RegExp(`fileauth\\.yaml.*${REMOTE_ONLY.replace(/[()]/g, '\\$&')}`));
  });
});

describe('MCP server auth block: authorizationServer pins the sign-in', function () {
  this.timeout(60_000);
  let idp: TestIdp;
  let absent: ProtectedServer;
  let elsewhere: ProtectedServer;
  let unpinned: ProtectedServer;
  let sb: Running;
  const clients: Client[] = [];

  /** Each sign-in from a session of its own: grants are per session here, so no single sign-on carries over. */
  const signIn = async (server: string): Promise<{ status: number; body: string; c: Client }> => {
    const c = await connectHttp(sb.url);
    clients.push(c);
    const login = await meta<{ status: string; sign_in_url?: string }>(c, 'call_tool', { name: 'core_auth_login', arguments: { server } });
    expect(login.status).to.equal('auth_required');
    idp.signInAs('alice');
    return { ...(await new Browser().visit(login.sign_in_url!)), c };
  };

  before(async () => {
    idp = await startTestIdp({
      authorizationServer: true,
      clients: [resourceServerAtIdp()],
    });
    const introspection = RESOURCE_SERVER;
    absent = await startProtectedMcpServer({ name: 'absent', issuer: idp.issuer, introspection, resourceMetadata: 'absent' });
    elsewhere = await startProtectedMcpServer({ name: 'elsewhere', issuer: idp.issuer, introspection, resourceMetadata: 'elsewhere' });
    unpinned = await startProtectedMcpServer({ name: 'unpinned', issuer: idp.issuer, introspection, resourceMetadata: 'elsewhere' });
    const pin = `auth:\n  type: oauth\n  authorizationServer:\n    issuer: ${idp.issuer}\n    scopes: openid\n    grantScope: subject\n`;
    sb = await startSwitchboard({
      'config.yaml': 'oauth:\n  mcpClient:\n    enabled: true\n    allowPrivateIP: true\n',
      'mcpservers/absent.yaml': `name: absent\ntype: streamable-http\nurl: ${absent.url}\n${pin}`,
      'mcpservers/elsewhere.yaml': `name: elsewhere\ntype: streamable-http\nurl: ${elsewhere.url}\n${pin}`,
      'mcpservers/unpinned.yaml': `name: unpinned\ntype: streamable-http\nurl: ${unpinned.url}\n`,
    });
    const c = await connectHttp(sb.url);
    clients.push(c);
    await eventually(
      () => meta<{ servers_requiring_auth: unknown[] }>(c, 'list_tools'),
      (l) => l.servers_requiring_auth.length === 3,
    );
  });
  after(async () => {
    for (const c of clients) await c.close();
    await sb?.stop();
    for (const s of [absent, elsewhere, unpinned]) await s?.close();
    await idp?.close();
  });

  for (const server of ['absent', 'elsewhere'] as const) {
    it(`signs in to a server whose resource metadata is ${server} at the pinned issuer, asking its scopes, for the server's URL as resource`, async () => {
      const page = await signIn(server);
      expect(page.status, page.body).to.equal(200);
      expect(page.body).to.contain(`signed in to ${server}`);
      const r = await callTool(page.c, `x_${server}_whoami`);
      expect(r.structuredContent, text(r)).to.deep.equal({ server, subject: 'alice' });
      const fixture = server === 'absent' ? absent : elsewhere;
      expect(fixture.introspected.at(-1)).to.deep.include({ sub: 'alice', scope: 'openid', aud: fixture.url });
    });
  }

  it('without the pin, the server whose metadata names another authorization server cannot be signed in to', async () => {
    const page = await signIn('unpinned');
    expect(page.status).to.equal(502);
    expect(page.body).to.match(/Signing in to (&#39;|')unpinned(&#39;|') failed before the authorization server/);
    expect(unpinned.tokensSeen).to.deep.equal([]);
  });
});
