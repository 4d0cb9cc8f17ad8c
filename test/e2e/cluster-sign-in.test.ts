/**
 * The OAuth client across replicas (real processes, a real redis-server): a session on
 * replica A asks core_auth_login for a link, the browser's start lands on replica B (as a
 * balancer may send it), the authorization server sends it back to A's callback, and A
 * finishes the flow B started: the session on A then sees and calls the server's tools. The
 * ticket is single use across both replicas.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, eventually, freePort, meta, startSwitchboard, text, type Running } from '../support/harness.js';
import { Browser } from '../support/oauth-browser.js';
import { startTestIdp, type TestIdp } from '../fixtures/identity-provider.js';
import { startProtectedMcpServer, type ProtectedServer } from '../fixtures/protected-mcp-server.js';
import { addReplicas, clusterYaml } from '../support/cluster.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';
import { RESOURCE_SERVER, resourceServerAtIdp } from '../support/oauth-setup.js';

interface ListTools {
  tools: { name: string }[];
  servers_requiring_auth: { name: string }[];
}

describe('cluster mode: a sign-in to a remote server started on one replica and finished on another', function () {
  this.timeout(120_000);
  let redis: RedisServer;
  let idp: TestIdp;
  let vault: ProtectedServer;
  let a: Running;
  let b: Running;
  let client: Client | undefined;

  before(async function () {
    redis = await startRedisOrSkip(this);
    idp = await startTestIdp({
      authorizationServer: true,
      clients: [resourceServerAtIdp()],
    });
    vault = await startProtectedMcpServer({ name: 'vault', issuer: idp.issuer, introspection: RESOURCE_SERVER });
    const port = await freePort();
    // The public URL is A's (a balancer's in production): the authorization server returns there.
    a = await startSwitchboard(
      {
        'config.yaml': `aggregator:\n${clusterYaml(redis)}\noauth:\n  mcpClient:\n    enabled: true\n    allowPrivateIP: true\n    baseUrl: http://127.0.0.1:${port}\n`,
        'mcpservers/vault.yaml': `name: vault\ntype: streamable-http\nurl: ${vault.url}\n`,
      },
      { args: ['--port', String(port)] },
    );
    [b] = (await addReplicas(a, 1)) as [Running];
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await b?.stop();
    await a?.stop();
    await vault?.close();
    await idp?.close();
    await redis?.stop();
  });

  it("B takes A's ticket and starts the flow, A finishes it; the session on A gets the tools; the ticket works once", async () => {
    client = await connectHttp(a.url);
    const c = client;
    await eventually(
      () => meta<ListTools>(c, 'list_tools'),
      (l) => l.servers_requiring_auth.some((s) => s.name === 'vault'),
      20_000,
    );
    // B's own connection to vault must have met its 401 too, or it has no sign-in to start.
    const onB = await connectHttp(b.url);
    try {
      await eventually(
        () => meta<ListTools>(onB, 'list_tools'),
        (l) => l.servers_requiring_auth.some((s) => s.name === 'vault'),
        20_000,
      );
    } finally {
      await onB.close();
    }
    const login = await meta<{ status: string; sign_in_url: string }>(c, 'call_tool', { name: 'core_auth_login', arguments: { server: 'vault' } });
    expect(login.status).to.equal('auth_required');
    const started = new URL(login.sign_in_url);
    expect(started.port).to.equal(String(a.port));
    started.port = String(b.port);
    idp.signInAs('alice');
    const page = await new Browser().visit(started.href);
    expect(page.status, page.body).to.equal(200);
    expect(page.body).to.contain('signed in to vault');

    const tools = await eventually(
      () => meta<ListTools>(c, 'list_tools', { limit: 200 }),
      (l) => l.tools.some((t) => t.name === 'x_vault_whoami'),
      20_000,
    );
    expect(tools.tools.map((t) => t.name)).to.include('x_vault_whoami');
    const r = await callTool(c, 'x_vault_whoami');
    expect(r.isError, text(r)).to.not.equal(true);
    expect(r.structuredContent).to.deep.equal({ server: 'vault', subject: 'alice' });

    // Used on B: unknown on A as well.
    const again = await new Browser().visit(login.sign_in_url);
    expect(again.status).to.equal(400);
    expect(again.body).to.contain('This sign-in link is unknown, used or expired');
  });
});
