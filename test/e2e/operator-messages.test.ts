/**
 * The messages an operator reads (issue 39, items 3, 6, 7, 8 and 10), each read word for word:
 * the ready line counts a healthy remote server, a second `serve` on a busy port stops before
 * starting anything and says what to do, a remote server that is down does not suggest a
 * restart, did-you-mean finds a tool by its upstream name or a name cut short, a tool of a
 * server that never connected says the server is down, a forgotten `arguments` wrapper is
 * named, a workflow key typo gets a suggestion, reloads and deletions are logged, and a
 * brand-new invalid file does not claim to keep a definition it never had.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  CLI,
  connectHttp,
  errorCode,
  eventually,
  freePort,
  makeConfigDir,
  metaRaw,
  startNode,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

describe('operator messages', function () {
  this.timeout(60_000);
  let remote: ChildProcess;
  let sb: Running;
  let client: Client;

  before(async () => {
    const port = await freePort();
    const nowhere = await freePort();
    remote = await startNode([TEST_SERVER, 'http', String(port), '--name', 'far'], {}, /listening \d+/);
    sb = await startSwitchboard(
      {
        'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER),
        'mcpservers/far.yaml': `name: far\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\nbackoff: {initialSeconds: 0.2, maxSeconds: 0.4}\n`,
        'mcpservers/nowhere.yaml': `name: nowhere\ntype: streamable-http\nurl: http://127.0.0.1:${nowhere}/mcp\nbackoff: {initialSeconds: 0.2, maxSeconds: 0.4}\n`,
      },
      { startTimeoutMs: 45_000 },
    );
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
    remote?.kill();
  });

  it('the ready line counts a connected remote server as serving', () => {
    const ready = /ready: .*/.exec(sb.logs())![0];
    expect(ready).to.match(/^ready: \d+ tools from 2 servers \(1 not connected: nowhere \((failed|unreachable): /);
    expect(ready).to.not.include('far');
  });

  it('a second serve on the busy port fails before starting any server, and says what to do', async () => {
    const dir = await makeConfigDir({
      'mcpservers/marker.yaml': "name: marker\ntype: stdio\ncommand: [node, -e, \"require('fs').writeFileSync('started', '')\"]\nautoStart: true\n",
    });
    const r = spawnSync(process.execPath, [CLI, 'serve', '--config-path', dir, '--port', String(sb.port)], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include(`switchboard: port ${sb.port} on localhost is already in use: is Switchboard already running?`);
    expect(r.stderr).to.include('use --port (0 picks a free one). Nothing was started');
    expect(existsSync(join(dir, 'started')), 'the upstream was started').to.equal(false);
    await rm(dir, { recursive: true, force: true });
  });

  it('did-you-mean: the upstream name without prefix, - for _, a name cut short, in call_tool, describe_tool and the CLI', async () => {
    const bare = await callTool(client, 'fail_rpc');
    // Both servers run the test server: its own name fits two tools.
    expect(text(bare)).to.include("tool not found: fail_rpc (did you mean one of 'x_far_fail_rpc', 'x_tools_fail_rpc'?)");
    const one = await callTool(client, 'x_tools_fail');
    expect(text(one)).to.include("tool not found: x_tools_fail (did you mean 'x_tools_fail_rpc'?)");
    const cut = await metaRaw(client, 'describe_tool', { name: 'x_tools_fail' });
    expect(text(cut)).to.include("tool not found: x_tools_fail (did you mean 'x_tools_fail_rpc'?)");
    const several = await metaRaw(client, 'describe_tool', { name: 'x_tools' });
    expect(text(several)).to.match(/tool not found: x_tools \(did you mean one of 'x_tools_add', '/);
    const cli = spawnSync(process.execPath, [CLI, 'call', 'fail-rpc', '--endpoint', sb.url], { encoding: 'utf8' });
    expect(cli.status).to.equal(1);
    expect(cli.stderr).to.include("switchboard: tool not found: fail-rpc (did you mean one of 'x_far_fail_rpc', 'x_tools_fail_rpc'?)");
  });

  it('a tool of a server that never connected says the server is down, not "tool not found"', async () => {
    const r = await callTool(client, 'x_nowhere_search');
    expect(r.isError).to.equal(true);
    expect(errorCode(r)).to.equal('SERVER_UNAVAILABLE');
    expect(text(r)).to.include("Server 'nowhere' is not available").and.not.include('tool not found');
  });

  it('a remote server that is down does not suggest core_service_restart', async () => {
    const r = await eventually(
      () => callTool(client, 'x_nowhere_search'),
      (x) => text(x).includes('reconnects by itself'),
      10_000,
    );
    expect(text(r)).to.include('once the remote server answers').and.not.include('core_service_restart');
  });

  it('arguments beside name are named: put them under arguments', async () => {
    const r = await metaRaw(client, 'call_tool', { name: 'x_tools_add', a: 1, b: 2 });
    expect(errorCode(r)).to.equal('INVALID_ARGUMENTS');
    expect(text(r)).to.include(
      '(arguments) has unknown property \'a\': put the tool\'s own arguments under \'arguments\', as in {"name": "<tool>", "arguments": {...}}',
    );
  });

  it('a workflow key typo gets a suggestion', () => {
    const dir = sb.configDir;
    const file = join(dir, 'workflows/typo.yaml');
    return writeFile(
      file,
      'apiVersion: switchboard.dev/v1alpha1\nkind: Workflow\nmetadata: {name: typo}\nspec:\n  steps:\n    - {id: one, tool: x_tools_add, agrs: {a: 1, b: 2}}\n',
    ).then(async () => {
      await sb.waitForLog(
        /typo\.yaml:6:\d+: spec\.steps\.0\.agrs: unknown field 'agrs' \(did you mean 'args'\?\) \(not loaded: fix the file and save it again\)/,
      );
      await rm(file);
    });
  });

  it('logs a load, a reload and a deletion; a brand-new invalid file is "not loaded", a broken known one keeps its definition', async () => {
    const file = join(sb.configDir, 'mcpservers/late.yaml');
    await writeFile(file, stdioServer('late', TEST_SERVER, [], 'autoStart: false\n').replace('autoStart: true\n', ''));
    await sb.waitForLog(/loaded mcpserver 'late' from .*late\.yaml/);
    await writeFile(file, stdioServer('late', TEST_SERVER, [], 'autoStart: false\ndescription: now described\n').replace('autoStart: true\n', ''));
    await sb.waitForLog(/reloaded mcpserver 'late' from .*late\.yaml/);
    await writeFile(file, 'name: late\ntype: stdio\ncommand: [node]\ntimeout: soon\n');
    await sb.waitForLog(/late\.yaml:4:\d+: timeout: .*\(keeping the last good definition\)/);
    await rm(file);
    await sb.waitForLog(/removed mcpserver 'late' \(.*late\.yaml is gone\)/);
    await writeFile(join(sb.configDir, 'mcpservers/fresh.yaml'), 'name: fresh\ntype: stdio\ncommand: [node]\ntimeout: soon\n');
    const line = await sb.waitForLog(/fresh\.yaml:4:\d+: timeout: .*/);
    expect(line).to.include('(not loaded: fix the file and save it again)').and.not.include('keeping');
  });
});
