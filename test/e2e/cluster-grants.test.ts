/**
 * A person's grant for a remote server, across replicas (real processes: a redis-server, two
 * Switchboard replicas with OAuth protection and the OAuth client, the test identity provider
 * as both people's sign-in and the remote server's authorization server, a protected MCP
 * server). Alice signs in to the remote server through a session on replica A; her session
 * held by replica B, opened before, calls the server's tools at once, without B restarting;
 * her logout on A removes them on B as well.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, errorCode, eventually, freePort, makeConfigDir, meta, type Running } from '../support/harness.js';
import { Browser } from '../support/oauth-browser.js';
import { startTestIdp } from '../fixtures/identity-provider.js';
import { startProtectedMcpServer, type ProtectedServer } from '../fixtures/protected-mcp-server.js';
import {
  mcpClient,
  type OAuthSetup,
  registerClient,
  RESOURCE_SERVER,
  resourceServerAtIdp,
  signIn,
  startProtected,
  switchboardAtIdp,
} from '../support/oauth-setup.js';
import { addReplicas, clusterYaml } from '../support/cluster.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';

const GRANT_KEY = 'g'.repeat(40);

interface Login {
  status: string;
  sign_in_url?: string;
}

describe("cluster mode: a person's grant for a remote server obtained on one replica is used by the others at once", function () {
  this.timeout(180_000);
  let redis: RedisServer;
  let setup: OAuthSetup;
  let vault: ProtectedServer;
  let a: Running;
  let b: Running;
  const opened: Client[] = [];

  before(async function () {
    redis = await startRedisOrSkip(this);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const idp = await startTestIdp({
      authorizationServer: true,
      clients: [switchboardAtIdp(base), resourceServerAtIdp()],
    });
    vault = await startProtectedMcpServer({ name: 'vault', issuer: idp.issuer, introspection: RESOURCE_SERVER });
    const serverYaml = [
      '      storage:',
      '        persistent: true',
      '        encryptionKey: ${GRANT_KEY}',
      clusterYaml(redis),
      'oauth:\n  mcpClient:\n    enabled: true\n    allowPrivateIP: true',
    ].join('\n');
    setup = await startProtected({
      again: { idp, base, sb: undefined as never },
      configDir: await makeConfigDir({}),
      serverYaml,
      files: { 'mcpservers/vault.yaml': `name: vault\ntype: streamable-http\nurl: ${vault.url}\n` },
      env: { GRANT_KEY },
    });
    a = setup.sb;
    [b] = (await addReplicas(a, 1, { IDP_CLIENT_SECRET: 'switchboard-idp-secret', GRANT_KEY })) as [Running];
  });

  after(async () => {
    for (const c of opened) await c.close().catch(() => undefined);
    await b?.stop();
    await a?.stop();
    await vault?.close();
    await setup?.idp.close();
    await redis?.stop();
  });

  const sessionOn = async (replica: Running, token: string): Promise<Client> => {
    const c = await mcpClient(replica.url, token);
    opened.push(c);
    return c;
  };

  it('alice signs in to the server on A: her session on B calls its tools without B restarting; her logout on A removes them on B', async () => {
    setup.idp.signInAs('alice');
    const tokens = await signIn(setup.base, await registerClient(setup.base));
    const onB = await sessionOn(b, tokens.access_token);
    const onA = await sessionOn(a, tokens.access_token);
    // B has met the server and its 401: alice is not signed in there.
    await eventually(
      () => meta<{ servers_requiring_auth: { name: string }[] }>(onB, 'list_tools'),
      (l) => l.servers_requiring_auth.some((s) => s.name === 'vault'),
      20_000,
    );

    const login = await eventually(
      () => meta<Login>(onA, 'call_tool', { name: 'core_auth_login', arguments: { server: 'vault' } }),
      (l) => l.status === 'auth_required',
      20_000,
    );
    setup.idp.signInAs('alice');
    const signedIn = await new Browser().visit(login.sign_in_url!);
    expect(signedIn.status, signedIn.body).to.equal(200);
    expect((await callTool(onA, 'x_vault_whoami')).structuredContent).to.deep.equal({ server: 'vault', subject: 'alice' });

    // B hears the change and connects as alice: waiting on the outcome, never on time.
    const started = Date.now();
    const onBNow = await eventually(
      () => callTool(onB, 'x_vault_whoami'),
      (r) => !r.isError,
      20_000,
    );
    console.log(`      the grant made on A served a call on B after ${Date.now() - started} ms`);
    expect(onBNow.structuredContent).to.deep.equal({ server: 'vault', subject: 'alice' });

    await meta(onA, 'call_tool', { name: 'core_auth_logout', arguments: { server: 'vault' } });
    const gone = await eventually(
      () => callTool(onB, 'x_vault_whoami'),
      (r) => errorCode(r) === 'AUTH_REQUIRED',
      20_000,
    );
    expect(errorCode(gone)).to.equal('AUTH_REQUIRED');
  });
});
