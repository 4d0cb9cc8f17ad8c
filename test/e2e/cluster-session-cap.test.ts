/**
 * The per-person session cap across replicas counts sessions, not copies: a replica that
 * lets go of its copy of a session (it stops, or the copy idled there) while the session goes
 * on through another replica frees no place; a session's real end (DELETE) does. Real
 * processes: a redis-server, two Switchboard replicas with OAuth protection, the test
 * identity provider.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, errorCode, eventually, type Running } from '../support/harness.js';
import { mcpClient, registerClient, signIn, type OAuthSetup } from '../support/oauth-setup.js';
import { startProtectedCluster, initializeAt } from '../support/cluster.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';

const PER_PERSON = 2;

/** A ping for `sessionId` sent to `replica`: the replica takes up a copy of the session. */
function pingAt(replica: Running, sessionId: string, token: string): Promise<Response> {
  return fetch(replica.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
  });
}

describe('cluster mode: the per-person session cap counts sessions, not the replicas holding them', function () {
  this.timeout(180_000);
  let redis: RedisServer;
  let setup: OAuthSetup;
  let a: Running;
  let b: Running | undefined;
  const clients: Client[] = [];

  before(async function () {
    redis = await startRedisOrSkip(this);
    let replicas: Running[];
    ({ setup, replicas } = await startProtectedCluster(redis, 1, ['  limits:', `    maxSessionsPerPrincipal: ${PER_PERSON}`]));
    [a, b] = replicas as [Running, Running];
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await b?.stop();
    await a?.stop();
    await setup?.idp.close();
    await redis?.stop();
  });

  it(`${PER_PERSON} sessions on A, one also served by B; B stops: still ${PER_PERSON} counted (a third is refused); one DELETEd frees a place`, async () => {
    const tokens = await signIn(setup.base, await registerClient(setup.base));
    for (let i = 0; i < PER_PERSON; i++) clients.push(await mcpClient(a.url, tokens.access_token));
    const [first, second] = clients as [Client, Client];
    const firstId = (first.transport as StreamableHTTPClientTransport).sessionId!;
    expect((await pingAt(b!, firstId, tokens.access_token)).status).to.equal(200);

    // B lets go of its copy as it stops; the session goes on through A.
    await b!.stop();
    b = undefined;
    expect(errorCode(await callTool(first, 'x_tools_ping'))).to.equal(undefined);
    const third = await initializeAt(a.port, `127.0.0.1:${a.port}`, { authorization: `Bearer ${tokens.access_token}` });
    expect(third.status, third.body).to.equal(503);
    expect(third.body).to.include(`already holds ${PER_PERSON} sessions`);

    // A real end frees the place.
    await (second.transport as StreamableHTTPClientTransport).terminateSession();
    const again = await eventually(
      () => initializeAt(a.port, `127.0.0.1:${a.port}`, { authorization: `Bearer ${tokens.access_token}` }),
      (r) => r.status === 200,
      10_000,
    );
    expect(again.status).to.equal(200);
  });
});
