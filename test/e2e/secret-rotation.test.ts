/**
 * A credential renewed where it is kept takes effect without anyone touching Switchboard
 * (plugins/upstreams/secret-rotation.ts): the remote server here accepts only the token its
 * own file holds at each request, as a server behind a rotating credential does, and the
 * definition reads its Authorization header from a file, as a Vault agent or a Kubernetes
 * Secret volume keeps it. The references are read again every second (option
 * `secretPollSeconds`).
 */
import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../lib/files/atomic-write.js';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  callTool,
  connectHttp,
  eventually,
  freePort,
  loggedAfter,
  makeConfigDir,
  startNode,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

type Status = { state: string; error?: string; metadata: { pid?: number }; lastRestartedAt?: string };

describe('secrets renewed where they are kept', function () {
  this.timeout(120_000);
  let remote: ChildProcess;
  let sb: Running;
  let client: Client;
  let serverToken: string;
  const kept = (name: string) => join(sb.configDir, 'secrets', name);
  const status = async (name: string) => (await callTool(client, 'core_service_status', { name })).structuredContent as Status;

  before(async () => {
    const port = await freePort();
    const dir = await makeConfigDir({
      'config.yaml': 'plugins:\n  upstreams:\n    options: { secretPollSeconds: 1 }\n',
      'server-token': 't1\n',
      // A bare token, as a projected service-account token's file holds it.
      'secrets/authorization': 't1\n',
      'mcpservers/locked.yaml': [
        'name: locked',
        'type: streamable-http',
        `url: http://127.0.0.1:${port}/mcp`,
        'headers:',
        "  Authorization: { fromFile: secrets/authorization, prefix: 'Bearer ' }",
        'backoff: {initialSeconds: 0.1, maxSeconds: 0.2}',
        '',
      ].join('\n'),
      'mcpservers/keyed.yaml': stdioServer('keyed', TEST_SERVER, [], 'env:\n  API_TOKEN: { fromFile: secrets/api-token }\nstderrLogLevel: info\n'),
    });
    serverToken = join(dir, 'server-token');
    remote = await startNode([TEST_SERVER, 'http', String(port), '--name', 'locked', '--bearer-file', serverToken], {}, /listening \d+/);
    sb = await startSwitchboard({}, { configDir: dir });
    client = await connectHttp(sb.url);
    await eventually(
      () => status('locked'),
      (s) => s.state === 'connected',
      30_000,
    );
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
    remote?.kill();
  });

  it('sends a renewed header from the next request on, on the same connection', async () => {
    await loggedAfter(sb, /\[switchboard:upstreams:locked\] headers\.Authorization changed where it is kept: the next requests carry the new value/, () =>
      writeFileAtomic(kept('authorization'), 't2\n'),
    );
    await writeFileAtomic(serverToken, 't2\n');
    const r = await callTool(client, 'x_locked_ping');
    expect(r.isError ?? false, text(r)).to.equal(false);
    // Updated in place: not connected again.
    expect((await status('locked')).lastRestartedAt).to.equal(undefined);
    expect(sb.logs().match(/\[switchboard:upstreams:locked\] connected/g)).to.have.length(1);
    // The renewed token is a secret like the first: never in a log line.
    expect(sb.logs()).not.to.include('t2');
    // The definition shows the reference as written, prefix included.
    const shown = (await callTool(client, 'core_mcpserver_get', { name: 'locked' })).structuredContent as { headers: Record<string, unknown> };
    expect(shown.headers.Authorization).to.deep.equal({ fromFile: 'secrets/authorization', prefix: 'Bearer ' });
  });

  it('connects again a server that refused the old credential (auth_required) once the new one is kept', async () => {
    await writeFileAtomic(serverToken, 't3\n');
    const refused = await callTool(client, 'x_locked_ping');
    expect(refused.isError).to.equal(true);
    // Connected again with the old credential, the server is waiting for sign-in.
    await callTool(client, 'core_service_restart', { name: 'locked' });
    await eventually(
      () => status('locked'),
      (s) => s.state === 'auth_required',
      30_000,
    );
    await loggedAfter(sb, /\[switchboard:upstreams:locked\] headers\.Authorization changed where it is kept: connecting again/, () =>
      writeFileAtomic(kept('authorization'), 't3\n'),
    );
    await eventually(
      () => status('locked'),
      (s) => s.state === 'connected',
      30_000,
    );
    const r = await callTool(client, 'x_locked_ping');
    expect(r.isError ?? false, text(r)).to.equal(false);
  });

  it('starts a server whose referenced file is created after it failed for want of it, and restarts it when the file is renewed', async () => {
    const failed = await eventually(
      () => status('keyed'),
      (s) => s.state === 'failed',
      30_000,
    );
    expect(failed.error).to.match(/env\.API_TOKEN: cannot read the referenced file 'secrets\/api-token'/);
    await writeFileAtomic(kept('api-token'), 'key-one\n');
    const first = await eventually(
      () => status('keyed'),
      (s) => s.state === 'running' && s.metadata.pid !== undefined,
      30_000,
    );
    // A process's environment is fixed when it starts: a renewed value starts it again.
    await loggedAfter(sb, /\[switchboard:upstreams:keyed\] env\.API_TOKEN changed where it is kept: connecting again/, () =>
      writeFileAtomic(kept('api-token'), 'key-two\n'),
    );
    const second = await eventually(
      () => status('keyed'),
      (s) => s.state === 'running' && s.metadata.pid !== undefined && s.metadata.pid !== first.metadata.pid,
      30_000,
    );
    expect(second.lastRestartedAt).to.be.a('string');
    expect(sb.logs()).not.to.match(/key-one|key-two/);
  });

  it('leaves a value that turned empty alone, saying so once (a file caught halfway through a save)', async () => {
    const before = await status('keyed');
    await loggedAfter(
      sb,
      /WARN {2}\[switchboard:upstreams:keyed\] env\.API_TOKEN reads empty where it is kept: the value in use stays until it is renewed/,
      () => writeFile(kept('api-token'), ''),
    );
    expect((await status('keyed')).metadata.pid).to.equal(before.metadata.pid);
    await loggedAfter(sb, /\[switchboard:upstreams:keyed\] env\.API_TOKEN changed where it is kept: connecting again/, () =>
      writeFileAtomic(kept('api-token'), 'key-three\n'),
    );
    expect(sb.logs().match(/env\.API_TOKEN reads empty/g)).to.have.length(1);
  });

  it('lets the calls in flight end before it starts the server again, and holds the calls that come meanwhile for the new process', async () => {
    const before = await eventually(
      () => status('keyed'),
      (s) => s.state === 'running' && s.metadata.pid !== undefined,
      30_000,
    );
    let slow: Promise<CallToolResult> | undefined;
    await loggedAfter(sb, /slow 6000: started/, async () => {
      slow = callTool(client, 'x_keyed_slow', { ms: 6000 });
    });
    await loggedAfter(sb, /\[switchboard:upstreams:keyed\] waiting for 1 request in flight to end \(at most 30 s\)/, () =>
      writeFileAtomic(kept('api-token'), 'key-four\n'),
    );
    // Sent while the slow call runs on the old process: answered by the new one.
    const ping = text(await callTool(client, 'x_keyed_ping'));
    const pid = Number(/pong from \S+ pid (\d+)/.exec(ping)?.[1]);
    expect(pid, ping).to.be.above(0).and.not.equal(before.metadata.pid);
    const finished = await slow!;
    expect(finished.isError ?? false, text(finished)).to.equal(false);
    expect(text(finished)).to.equal('waited 6000');
    expect((await status('keyed')).metadata.pid).to.equal(pid);
  });
});
