/**
 * A remote server that answers 401 waits in auth_required instead of being retried on the
 * backoff: it is named in list_tools' servers_requiring_auth and in list_servers, an event
 * says so, and credentials in its headers (a changed definition) connect it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { callTool, connectHttp, eventually, freePort, meta, startNode, startSwitchboard, TEST_SERVER, type Running } from '../support/harness.js';

describe('a remote server that requires sign-in', function () {
  this.timeout(30_000);
  let remote: ChildProcess;
  let sb: Running;
  let url: string;

  before(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    remote = await startNode([TEST_SERVER, 'http', String(port), '--name', 'locked', '--bearer', 'open-sesame'], {}, /listening \d+/);
    sb = await startSwitchboard({
      'mcpservers/locked.yaml': `name: locked\ntype: streamable-http\nurl: ${url}\nbackoff: {initialSeconds: 0.1, maxSeconds: 0.2}\n`,
    });
  });
  after(async () => {
    await sb?.stop();
    remote?.kill();
  });

  it('is auth_required, named where clients look, and not retried', async () => {
    const client = await connectHttp(sb.url);
    const listed = await eventually(
      () => meta<{ servers_requiring_auth: { name: string; status: string; auth_tool: string }[] }>(client, 'list_tools'),
      (r) => r.servers_requiring_auth.length > 0,
    );
    expect(listed.servers_requiring_auth).to.deep.equal([{ name: 'locked', status: 'auth_required', auth_tool: 'core_auth_login' }]);
    const servers = await meta<{ servers: { name: string; state: string; auth: { status: string } }[] }>(client, 'list_servers');
    expect(servers.servers.find((s) => s.name === 'locked')).to.deep.include({
      state: 'auth_required',
      auth: { status: 'auth_required', auth_tool: 'core_auth_login' },
    });
    const status = (await callTool(client, 'core_service_status', { name: 'locked' })).structuredContent as {
      state: string;
      error: string;
      nextRetryAfter?: string;
    };
    expect(status.state).to.equal('auth_required');
    expect(status.error).to.match(/^the server requires sign-in \(WWW-Authenticate: Bearer resource_metadata=".*"\)/);
    expect(status.nextRetryAfter).to.equal(undefined);
    await new Promise((r) => setTimeout(r, 600));
    const events = (await callTool(client, 'core_events', { resource_name: 'locked' })).structuredContent as { events: { reason: string }[] };
    expect(events.events.filter((e) => e.reason === 'MCPServerStarting')).to.have.length(1, 'tried once, not on the backoff');
    expect(events.events[0]!.reason).to.equal('MCPServerAuthRequired');
    await client.close();
  });

  it('connects once its definition carries credentials', async () => {
    await writeFile(
      join(sb.configDir, 'mcpservers/locked.yaml'),
      `name: locked\ntype: streamable-http\nurl: ${url}\nheaders: {Authorization: Bearer open-sesame}\n`,
    );
    const client = await connectHttp(sb.url);
    const r = await eventually(
      () => callTool(client, 'x_locked_ping', {}),
      (res) => !res.isError,
      10_000,
      200,
    );
    expect((r.content as { text: string }[])[0]!.text).to.match(/^pong from locked/);
    expect((await meta<{ servers_requiring_auth: unknown[] }>(client, 'list_tools')).servers_requiring_auth).to.deep.equal([]);
    await client.close();
  });
});
