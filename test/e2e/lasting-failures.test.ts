/**
 * Retry what can heal, stop what cannot (issue 39, item 4): a command that is not installed,
 * an unset `${VAR}`, a package npm does not have and a server that refuses the credentials
 * stop in `failed` with a reason that says what to change, are not retried, and are said once;
 * a crash keeps backing off, one WARN for its reason however often it retries. The ready line,
 * list_servers and `switchboard list servers` show the reasons, a suspended server says how to
 * resume it, `switchboard check` warns about the unset variable, and an edit of a definition
 * tries again.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, CLI, connectHttp, eventually, meta, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';

const MISSING = 'SB_TEST_39_MISSING_TOKEN';
/** What `npx some-package-that-does-not-exist` prints on stderr before it exits 1. */
const FAKE_NPX = `process.stderr.write('npm error code E404\\nnpm error 404 Not Found - GET https://registry.npmjs.org/@nobody%2fmcp-server-nope - Not found\\nnpm error 404\\n'); process.exit(1);`;
const CRASHER = `process.stderr.write('boom: the database is not up yet\\n'); process.exit(3);`;

interface Row {
  name: string;
  state: string;
  reason?: string;
}

describe('failures that cannot heal are not retried', function () {
  this.timeout(60_000);
  let refuser: Server;
  let sb: Running;
  let client: Client;
  const fast = 'backoff: {initialSeconds: 0.05, maxSeconds: 0.1}\n';
  const warnings = (name: string) =>
    sb
      .logs()
      .split('\n')
      .filter((l) => / WARN /.test(l) && l.includes(`:${name}]`));

  before(async () => {
    refuser = createServer((_req, res) => res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden'));
    await new Promise<void>((r) => refuser.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(refuser.address() as AddressInfo).port}/mcp`;
    sb = await startSwitchboard(
      {
        'mcpservers/ghost.yaml': `name: ghost\ntype: stdio\ncommand: [mcp-server-nonexistent]\nautoStart: true\n${fast}`,
        'mcpservers/tokenless.yaml': stdioServer('tokenless', TEST_SERVER, [], `env:\n  API_TOKEN: \${${MISSING}}\n${fast}`),
        'mcpservers/nopkg.yaml': stdioServer('nopkg', 'fake-npx.js', [], fast),
        'mcpservers/refused.yaml': `name: refused\ntype: streamable-http\nurl: ${url}\nheaders:\n  Authorization: Bearer wrong-token-123\n${fast}`,
        'mcpservers/crasher.yaml': stdioServer('crasher', 'crasher.js', [], fast),
        'mcpservers/resting.yaml': stdioServer('resting', TEST_SERVER, [], 'suspended: true\n'),
        'fake-npx.js': FAKE_NPX,
        'crasher.js': CRASHER,
      },
      { env: { SWITCHBOARD_LOG_LEVEL: 'debug' } },
    );
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
    refuser?.close();
  });

  it('the ready line gives each reason and says how to resume the suspended server', () => {
    const ready = /ready: .*/.exec(sb.logs())![0];
    expect(ready).to.include(
      '1 suspended: resting (resume with core_mcpserver_update {"name":"resting","suspended":false}, or remove \'suspended: true\' from its file)',
    );
    expect(ready).to.include("ghost (failed: command 'mcp-server-nonexistent' is not found on Switchboard's PATH");
    expect(ready).to.include(
      `tokenless (failed: env.API_TOKEN: \${${MISSING}} is not set in Switchboard's environment: set ${MISSING} in secrets.env (config directory) or in Switchboard's environment`,
    );
  });

  it('stops each lasting failure in failed with what to change, and says it once while a crash keeps backing off', async () => {
    // The crasher retries on its backoff: once it has failed a few times, the lasting ones had every chance to be retried too.
    await eventually(
      async () =>
        sb
          .logs()
          .split('\n')
          .filter((l) => l.includes('boom: the database is not up yet') && l.includes('(again)')).length,
      (n) => n >= 3,
      20_000,
    );
    const { servers } = await meta<{ servers: Row[] }>(client, 'list_servers');
    const by = (name: string) => servers.find((s) => s.name === name)!;
    expect(by('ghost')).to.deep.include({ state: 'failed' });
    expect(by('ghost').reason).to.match(
      /command 'mcp-server-nonexistent' is not found .*: install it, or change 'command' in the definition; not retried until its definition changes/,
    );
    expect(by('tokenless').reason).to.include(
      `set ${MISSING} in secrets.env (config directory) or in Switchboard's environment, or change env.API_TOKEN in the definition`,
    );
    expect(by('nopkg').reason).to.match(
      /^npm has no such package \(npm error 404 Not Found - GET https:\/\/registry\.npmjs\.org\/@nobody%2fmcp-server-nope - Not found\): check the package name in 'args'/,
    );
    expect(by('refused')).to.deep.include({ state: 'failed' });
    expect(by('refused').reason).to.include("the server refused Switchboard's credentials (HTTP 403): change its 'headers' (or 'auth') in the definition");
    expect(by('resting').reason).to.equal(
      'suspended (resume with core_mcpserver_update {"name":"resting","suspended":false}, or remove \'suspended: true\' from its file)',
    );
    // Not retried: no next retry time, one WARN each, one attempt each.
    const status = await meta<{ services: { name: string; nextRetryAfter?: string }[] }>(client, 'call_tool', { name: 'core_service_list', arguments: {} });
    for (const name of ['ghost', 'tokenless', 'nopkg', 'refused']) {
      expect(status.services.find((s) => s.name === name)!.nextRetryAfter, name).to.equal(undefined);
      expect(warnings(name), name).to.have.length(1);
    }
    expect(sb.logs().match(/GET https:\/\/registry\.npmjs\.org\/@nobody%2fmcp-server-nope - Not found$/gm), 'npm stderr logged once').to.have.length(1);
    // The crash may heal: it keeps retrying (a next retry time), yet its reason was said at WARN once.
    const again = () =>
      sb
        .logs()
        .split('\n')
        .filter((l) => l.includes('boom: the database is not up yet') && l.includes('(again)')).length;
    const sofar = again();
    await eventually(
      async () => again(),
      (n) => n > sofar,
      20_000,
    );
    expect(by('crasher').reason).to.not.include('not retried');
    expect(warnings('crasher').filter((l) => l.includes('boom'))).to.have.length(1);
    // Shown: the crasher goes, rather than restarting every 0.1 s (a node process each time) while the tests below run.
    await rm(join(sb.configDir, 'mcpservers/crasher.yaml'));
    await sb.waitForLog(/removed mcpserver 'crasher'/, 20_000);
  });

  it('`switchboard list servers` shows why each server is down', () => {
    const r = spawnSync(process.execPath, [CLI, 'list', 'servers', '--endpoint', sb.url], { encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^NAME\s+TYPE\s+STATE\s+HEALTH\s+TOOLS\s+AUTH\s+WHY$/m);
    expect(r.stdout).to.match(/^ghost\s+stdio\s+failed\s+unhealthy\s+0\s+\S+\s+command 'mcp-server-nonexistent' is not found .*install it/m);
    expect(r.stdout).to.match(/^resting\s+stdio\s+stopped\s+unknown\s+0\s+\S+\s+suspended \(resume with core_mcpserver_update/m);
  });

  it('`switchboard check` warns about the unset variable, and not once it is set', () => {
    const unset = spawnSync(process.execPath, [CLI, 'check', '--config-path', sb.configDir], { encoding: 'utf8' });
    expect(unset.status, unset.stderr).to.equal(0);
    expect(unset.stderr).to.include(
      `tokenless.yaml: warning: env.API_TOKEN: \${${MISSING}} is not set in Switchboard's environment; server 'tokenless' would fail to start`,
    );
    const set = spawnSync(process.execPath, [CLI, 'check', '--config-path', sb.configDir], { encoding: 'utf8', env: { ...process.env, [MISSING]: 'x' } });
    expect(set.status, set.stderr).to.equal(0);
    expect(set.stderr).to.not.include(`\${${MISSING}} is not set`);
  });

  it('an edit of the definition tries again', async () => {
    await writeFile(join(sb.configDir, 'mcpservers/tokenless.yaml'), stdioServer('tokenless', TEST_SERVER, [], `env:\n  API_TOKEN: literal-now\n${fast}`));
    await writeFile(join(sb.configDir, 'mcpservers/ghost.yaml'), stdioServer('ghost', TEST_SERVER, [], fast));
    const up = await eventually(
      () => meta<{ servers: Row[] }>(client, 'list_servers'),
      (r) => ['tokenless', 'ghost'].every((n) => r.servers.find((s) => s.name === n)?.state === 'running'),
      20_000,
    );
    expect(up.servers.find((s) => s.name === 'ghost')!.reason).to.equal(undefined);
    expect(text(await callTool(client, 'x_ghost_ping'))).to.include('pong');
  });
});
