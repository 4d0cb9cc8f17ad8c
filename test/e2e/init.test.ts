/**
 * A first run: `switchboard init` makes the configuration directory (never touching a file
 * already there) and says what to do next; `serve` names the directory it read and, when
 * there is nothing to serve, the next step; the ready line counts servers that could not
 * connect apart from those that serve.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, connectHttp, meta, startSwitchboard, stdioServer, TEST_SERVER } from '../support/harness.js';

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('first run: switchboard init and the ready line', function () {
  this.timeout(60_000);
  let tmp: string;
  beforeEach(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'sb-init-'));
  });
  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('init creates the directory, a commented config.yaml and a suspended example server, owner-only, and says what next', async () => {
    const dir = join(tmp, 'nested', 'switchboard');
    const r = run('init', '--config-path', dir);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.include(`Created the Switchboard configuration in ${dir}:`);
    expect(r.stdout).to.include(`switchboard import FILE --config-path ${dir}`);
    expect(r.stdout).to.include(`switchboard serve --config-path ${dir}`);
    expect(r.stdout).to.include('switchboard connect claude-desktop|claude-code|cursor|vscode');
    expect(r.stdout).to.include('npx @modelcontextprotocol/inspector --cli http://127.0.0.1:8090/mcp --transport http --method tools/list');
    expect(readFileSync(join(dir, 'config.yaml'), 'utf8'))
      .to.match(/^# Switchboard's settings/)
      .and.include('port: 8090');
    expect(readFileSync(join(dir, 'mcpservers/everything.yaml'), 'utf8')).to.include('suspended: true');
    expect(statSync(join(dir, 'workflows')).isDirectory()).to.equal(true);
    expect(statSync(dir).mode & 0o777).to.equal(0o700);
    expect(statSync(join(dir, 'config.yaml')).mode & 0o777).to.equal(0o600);

    // What init wrote is valid, and serves: the example is known but not started (no network).
    const checked = run('check', '--config-path', dir);
    expect(checked.status, checked.stderr + checked.stdout).to.equal(0);
    const sb = await startSwitchboard({}, { configDir: dir });
    try {
      const ready = await sb.waitForLog(/ready: .*/);
      expect(ready)
        .to.match(
          /^ready: \d+ tools from 0 servers \(1 suspended: everything \(resume with core_mcpserver_update \{"name":"everything","suspended":false\}, or remove 'suspended: true' from its file\)\); config /,
        )
        .and.include(dir);
      const client = await connectHttp(sb.url);
      const servers = await meta<{ servers: { name: string; state: string }[] }>(client, 'list_servers');
      expect(servers.servers.map((s) => [s.name, s.state])).to.deep.include(['everything', 'stopped']);
      await client.close();
    } finally {
      await sb.stop();
    }
  });

  it('init never overwrites: an existing config.yaml is kept byte for byte and the missing files are added', () => {
    const dir = join(tmp, 'mine');
    mkdirSync(dir);
    writeFileSync(join(dir, 'config.yaml'), '# my own\naggregator:\n  port: 9911\n');
    const r = run('init', '--config-path', dir);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout)
      .to.include(`Completed the Switchboard configuration in ${dir}:`)
      .and.match(/config\.yaml\s+kept: it was already there/);
    expect(readFileSync(join(dir, 'config.yaml'), 'utf8')).to.equal('# my own\naggregator:\n  port: 9911\n');
    expect(readFileSync(join(dir, 'mcpservers/everything.yaml'), 'utf8')).to.include('name: everything');
    // The next steps use the port this config.yaml serves.
    expect(r.stdout).to.include('http://localhost:9911/mcp').and.include('--endpoint http://localhost:9911/mcp');
  });

  it('init refuses a path that is a file', () => {
    writeFileSync(join(tmp, 'file'), 'x');
    const r = run('init', '--config-path', join(tmp, 'file'));
    expect(r.status).to.equal(1);
    expect(r.stdout).to.include(`${join(tmp, 'file')} exists and is not a directory`);
  });

  it('serve with no directory names it and the command that creates it', async () => {
    const dir = join(tmp, 'not-yet');
    const sb = await startSwitchboard({}, { configDir: dir });
    try {
      const ready = await sb.waitForLog(/ready: .*/);
      expect(ready).to.include(`config ${dir} does not exist yet: 'switchboard init --config-path ${dir}' creates it`);
    } finally {
      await sb.stop();
    }
  });

  it('the ready line counts a server that failed apart from those serving, in the singular when it is one', async () => {
    const sb = await startSwitchboard({
      'mcpservers/ok.yaml': stdioServer('ok', TEST_SERVER),
      'mcpservers/broken.yaml': 'name: broken\ntype: stdio\ncommand: [node, -e, "process.exit(3)"]\nautoStart: true\n',
    });
    try {
      const ready = await sb.waitForLog(/ready: .*/);
      // With its reason when it has one (a process that exited says how).
      expect(ready).to.match(
        /^ready: \d+ tools from 1 server \(1 not connected: broken \((failed: the process exited with code 3|unreachable: .*|starting(: .*)?)\)\); config /,
      );
    } finally {
      await sb.stop();
    }
  });
});
