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
  let client: Client | undefined;

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
    await client?.close().catch(() => undefined);
    await sb?.stop();
    await vault?.close();
    await idp?.close();
  });

  it('rotated at the authorization server and renewed in its file, the grant refreshes with the new secret', async () => {
    client = await connectHttp(sb.url);
    const login = await meta<{ status: string; sign_in_url?: string }>(client, 'call_tool', { name: 'core_auth_login', arguments: { server: 'vault' } });
    expect(login.status).to.equal('auth_required');
    idp.signInAs('alice');
    const page = await new Browser().visit(login.sign_in_url!);
    expect(page.status, page.body).to.equal(200);
    expect(text(await callTool(client, 'x_vault_echo', { message: 'first' }))).to.equal('first');
    const tokensBefore = vault.tokensSeen.length;

    idp.rotateClientSecret(CLIENT_ID, RENEWED);
    await writeFileAtomic(join(sb.configDir, 'upstream-secret'), `${RENEWED}\n`);

    // The access token lives 4 s and is refreshed past half of that: a call made then goes out
    // with a token the provider issued to the renewed secret, never an AUTH_REQUIRED.
    const c = client;
    const answered = await eventually(
      async () => {
        const r = await callTool(c, 'x_vault_echo', { message: 'after' });
        return { text: text(r), isError: r.isError === true, tokens: vault.tokensSeen.length };
      },
      (r) => r.isError || r.tokens > tokensBefore,
      20_000,
      250,
    );
    expect(answered.isError, answered.text).to.equal(false);
    expect(answered.text).to.equal('after');
    expect(sb.logs()).to.not.include(RENEWED);
  });
});
