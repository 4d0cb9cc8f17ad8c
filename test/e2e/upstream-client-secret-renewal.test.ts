/**
 * Switchboard's pre-registered client at a remote MCP server's authorization server
 * (`oauth.mcpClient.clients`), its secret rotated there and renewed where the operator keeps it
 * (a file here; `${NAME}` from secrets.env works the same): people's grants keep refreshing, with
 * no restart and no new sign-in. The refresh the server refuses with `invalid_client` is sent
 * once more with the secret read again (plugins/auth-client/flow.ts, clients.ts).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { writeFileAtomic } from '../../lib/files/atomic-write.js';
import { startTestIdp, type TestIdp } from '../fixtures/identity-provider.js';
import { startProtectedMcpServer, type ProtectedServer } from '../fixtures/protected-mcp-server.js';
import { Browser } from '../support/oauth-browser.js';
import { callTool, connectHttp, eventually, freePort, meta, startSwitchboard, text, type Running } from '../support/harness.js';
import { RESOURCE_SERVER, resourceServerAtIdp } from '../support/oauth-setup.js';

const CLIENT_ID = 'switchboard-upstream';
const FIRST = 'upstream-secret-first-0123';
const RENEWED = `upstream-secret-renewed-${Math.random().toString(36).slice(2)}`;

describe('a pre-registered upstream client secret, renewed where it is kept', function () {
  this.timeout(120_000);
  let idp: TestIdp;
  let vault: ProtectedServer;
  let sb: Running;
  const clients: Client[] = [];

  before(async () => {
    // The redirect URI is registered with the provider before Switchboard starts: its port is chosen first.
    const port = await freePort();
    idp = await startTestIdp({
      authorizationServer: true,
      accessTokenSeconds: 4,
      clients: [
        resourceServerAtIdp(),
        {
          client_id: CLIENT_ID,
          client_secret: FIRST,
          redirect_uris: [`http://localhost:${port}/oauth/proxy/callback`],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        },
      ],
    });
    vault = await startProtectedMcpServer({ name: 'vault', issuer: idp.issuer, introspection: RESOURCE_SERVER });
    sb = await startSwitchboard(
      {
        'config.yaml': [
          'oauth:',
          '  mcpClient:',
          '    enabled: true',
          '    allowPrivateIP: true',
          '    clients:',
          `      - {issuer: '${idp.issuer}', clientId: ${CLIENT_ID}, clientSecret: {fromFile: upstream-secret}}`,
          '',
        ].join('\n'),
        'upstream-secret': `${FIRST}\n`,
        'mcpservers/vault.yaml': `name: vault\ntype: streamable-http\nurl: ${vault.url}\n`,
      },
      { args: ['--port', String(port)] },
    );
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await sb?.stop();
    await vault?.close();
    await idp?.close();
  });

  /** A session signed in to vault as `person` through the browser flow, its first call answered. */
  async function signedIn(person: string): Promise<Client> {
    const c = await connectHttp(sb.url);
    clients.push(c);
    const login = await meta<{ status: string; sign_in_url?: string }>(c, 'call_tool', { name: 'core_auth_login', arguments: { server: 'vault' } });
    expect(login.status).to.equal('auth_required');
    idp.signInAs(person);
    const page = await new Browser().visit(login.sign_in_url!);
    expect(page.status, page.body).to.equal(200);
    expect(text(await callTool(c, 'x_vault_echo', { message: 'first' }))).to.equal('first');
    return c;
  }

  it('rotated at the authorization server and renewed in its file, every grant refreshes with the new secret', async () => {
    const [alice, bob] = [await signedIn('alice'), await signedIn('bob')];
    const tokensBefore = vault.tokensSeen.length;

    idp.rotateClientSecret(CLIENT_ID, RENEWED);
    await writeFileAtomic(join(sb.configDir, 'upstream-secret'), `${RENEWED}\n`);

    // The access tokens live 4 s and are refreshed past half of that: calls made then go out with
    // tokens the provider issued to the renewed secret, never an AUTH_REQUIRED. Both tokens are
    // let pass half their life first (a token's lifetime is the condition here), and the two calls
    // go together, so both refreshes are refused with the old secret before either is retried:
    // the file is read once (at most once a second), and both retry with what it holds.
    await new Promise((r) => setTimeout(r, 2500));
    const answered = await eventually(
      async () => {
        const rs = await Promise.all([alice, bob].map((c) => callTool(c, 'x_vault_echo', { message: 'after' })));
        return { texts: rs.map(text), failed: rs.some((r) => r.isError === true), tokens: vault.tokensSeen.length };
      },
      (r) => r.failed || r.tokens >= tokensBefore + 2,
      20_000,
      250,
    );
    expect(answered.failed, answered.texts.join(' | ')).to.equal(false);
    expect(answered.texts).to.deep.equal(['after', 'after']);
    expect(sb.logs()).to.not.include(RENEWED);
  });
});
