/**
 * core_auth_login offers its link as a URL-mode elicitation to a client that declared
 * `elicitation.url`, and tells that client (notifications/elicitation/complete) when the
 * sign-in comes back; the result says what the person answered. A client without URL mode
 * gets the link as text, as before. Real parts: an oidc-provider authorization server, an
 * OAuth-protected MCP server, a browser (fetch following redirects).
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema, type ElicitRequestURLParams } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, eventually, meta, startSwitchboard, text, type Running } from '../support/harness.js';
import { Browser } from '../support/oauth-browser.js';
import { startTestIdp, type TestIdp } from '../fixtures/identity-provider.js';
import { startProtectedMcpServer, type ProtectedServer } from '../fixtures/protected-mcp-server.js';
import { RESOURCE_SERVER, resourceServerAtIdp } from '../support/oauth-setup.js';

interface Login {
  server: string;
  status: string;
  sign_in_url: string;
  expires_in: number;
  elicitation?: string;
  elicitation_id?: string;
  message: string;
}

describe('core_auth_login as a URL-mode elicitation', function () {
  this.timeout(60_000);
  let idp: TestIdp;
  let vault: ProtectedServer;
  let sb: Running;
  const clients: Client[] = [];

  /** A client whose person answers `answer` to every page offered, and who hears completions. */
  const connect = async (elicitation: Record<string, object> | undefined, answer: 'accept' | 'decline' = 'accept') => {
    const client = new Client({ name: 'ide', version: '1' }, { capabilities: elicitation ? { elicitation } : {} });
    const offered: ElicitRequestURLParams[] = [];
    let heard: (id: string) => void = () => undefined;
    const completion = new Promise<string>((resolve) => (heard = resolve));
    if (elicitation) {
      client.setRequestHandler(ElicitRequestSchema, async (req) => {
        offered.push(req.params as ElicitRequestURLParams);
        return { action: answer };
      });
    }
    if (elicitation?.url) client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => heard(n.params.elicitationId));
    await client.connect(new StreamableHTTPClientTransport(new URL(sb.url)));
    clients.push(client);
    return { client, offered, completion };
  };
  const login = (c: Client) => meta<Login>(c, 'call_tool', { name: 'core_auth_login', arguments: { server: 'vault' } });

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
    const watcher = await connectHttp(sb.url);
    clients.push(watcher);
    await eventually(
      () => meta<{ servers_requiring_auth: { name: string }[] }>(watcher, 'list_tools'),
      (l) => l.servers_requiring_auth.some((s) => s.name === 'vault'),
    );
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await sb?.stop();
    await vault?.close();
    await idp?.close();
  });

  it('offers the link as a page to open, and tells the client when the sign-in came back', async () => {
    const alice = await connect({ url: {} });
    const r = await login(alice.client);
    expect(r).to.include({ server: 'vault', status: 'auth_required', elicitation: 'accept' });
    expect(r.message).to.equal(
      "The sign-in page for 'vault' was opened for you: finish signing in there within 10 minutes; its tools appear in your list once you have.",
    );
    expect(alice.offered).to.have.length(1);
    const page = alice.offered[0]!;
    expect(page.mode).to.equal('url');
    expect(page.url).to.equal(r.sign_in_url);
    expect(page.elicitationId).to.equal(r.elicitation_id);
    expect(page.message).to.equal(`Sign in to 'vault' through Switchboard at ${new URL(r.sign_in_url).host}`);

    // The client opened the page; the person signs in.
    idp.signInAs('alice');
    const done = await new Browser().visit(page.url);
    expect(done.status, done.body).to.equal(200);
    expect(await alice.completion).to.equal(page.elicitationId);
    const whoami = await callTool(alice.client, 'x_vault_whoami');
    expect(whoami.structuredContent, text(whoami)).to.deep.equal({ server: 'vault', subject: 'alice' });
  });

  it('says so when the person declines, and the link still works from the result', async () => {
    const bob = await connect({ url: {} }, 'decline');
    const r = await login(bob.client);
    expect(r).to.include({ status: 'auth_required', elicitation: 'decline' });
    expect(r.message).to.equal("You declined the sign-in page for 'vault'; to sign in later, open sign_in_url in a browser within 10 minutes.");
    idp.signInAs('bob');
    expect((await new Browser().visit(r.sign_in_url)).status).to.equal(200);
    const whoami = await callTool(bob.client, 'x_vault_whoami');
    expect(whoami.structuredContent, text(whoami)).to.deep.equal({ server: 'vault', subject: 'bob' });
  });

  it('gives the link as text to a client with form elicitation only, or none', async () => {
    for (const declared of [{}, undefined]) {
      const c = await connect(declared);
      const r = await login(c.client);
      expect(r.status).to.equal('auth_required');
      expect(r.sign_in_url).to.match(/\/oauth\/proxy\/start\?ticket=/);
      expect(r).to.not.have.property('elicitation');
      expect(r.message).to.match(/^Open sign_in_url in a browser within 10 minutes/);
      expect(c.offered).to.deep.equal([]);
    }
  });
});
