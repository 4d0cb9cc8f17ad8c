/**
 * Reaching a running Switchboard, and adding servers to it, as a newcomer does it with the
 * installed command on PATH (issue 39, items 3 and 5; friction points 5, 6 and 9):
 * `serve --port 0` writes its run file, and list, call, describe and connect find the port
 * without being told; --port and --endpoint work on every client command; a stale run file is
 * ignored and said so; `add` and `import` write definitions the running Switchboard loads,
 * refuse duplicates by name, and move literal credentials to secrets.env.
 */
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort, startSwitchboard, TEST_SERVER, type Running } from '../support/harness.js';
import { installedEnv, packedInstall, type PackedInstall } from '../support/packed-install.js';

describe('operator reach: the installed command finds the running Switchboard, add and import', function () {
  // The first file to need the installed package packs and installs it (npm's cache when warm).
  this.timeout(300_000);
  let tmp: string;
  let install: PackedInstall;
  let env: NodeJS.ProcessEnv;
  let config: string;
  let sb: Running;
  const sh = (...args: string[]) => spawnSync('switchboard', args, { encoding: 'utf8', env, timeout: 60_000 });

  before(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'sb-reach-'));
    install = await packedInstall('global');
    env = installedEnv(install, join(tmp, 'home'));
    // The variable the imported server needs must come from secrets.env, not from here.
    delete env.API_TOKEN;
    await mkdir(env.HOME!);
    config = join(tmp, 'config');
    const init = sh('init', '--config-path', config);
    expect(init.status, init.stderr).to.equal(0);
    // config.yaml says 8090; the serve below listens on a free port (--port 0).
    sb = await startSwitchboard({}, { configDir: config, cli: join(install.installed, 'bin', 'switchboard.js'), env: { HOME: env.HOME! } });
  });

  after(async () => {
    await sb?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('serve writes its run file: the URL it really listens on, its pid, owner-only', () => {
    const file = join(config, 'serve.json');
    const record = JSON.parse(readFileSync(file, 'utf8')) as { url: string; pid: number; startedAt: string };
    expect(record.url).to.equal(sb.url);
    expect(record.pid).to.equal(sb.proc.pid);
    expect(Date.parse(record.startedAt)).to.be.a('number').and.not.NaN;
    expect(statSync(file).mode & 0o777).to.equal(0o600);
  });

  it('list, describe, call and connect reach it with no flag, from the run file', () => {
    const servers = sh('list', 'servers', '--config-path', config);
    expect(servers.status, servers.stderr).to.equal(0);
    expect(servers.stdout).to.match(/^NAME\s+TYPE\s+STATE/);
    const described = sh('describe', 'core_service_status', '--config-path', config);
    expect(described.status, described.stderr).to.equal(0);
    expect(described.stdout).to.match(/^core_service_status/);
    const called = sh('call', 'core_service_list', '--config-path', config, '--json');
    expect(called.status, called.stderr).to.equal(0);
    const connect = sh('connect', 'claude-code', '--print', '--config-path', config);
    expect(connect.status, connect.stderr).to.equal(0);
    expect(JSON.parse(connect.stdout)).to.deep.equal({ mcpServers: { switchboard: { type: 'http', url: sb.url } } });
  });

  it('--port and --endpoint name it on every client command, over whatever else is found', () => {
    // A directory with no run file and config.yaml's default port: only the flag can find it.
    const elsewhere = join(tmp, 'elsewhere');
    for (const args of [
      ['list', 'tools', '--port', String(sb.port)],
      ['describe', 'core_service_status', '--port', String(sb.port)],
      ['call', 'core_service_list', '--port', String(sb.port), '--json'],
      ['list', 'tools', '--endpoint', sb.url],
    ]) {
      const r = sh(...args, '--config-path', elsewhere);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).to.equal(0);
    }
    // With no config.yaml, the host is the default one (localhost), the port the flag's.
    const connect = sh('connect', 'cursor', '--print', '--port', String(sb.port), '--config-path', elsewhere);
    expect(JSON.parse(connect.stdout)).to.deep.equal({ mcpServers: { switchboard: { url: `http://localhost:${sb.port}/mcp` } } });
    const help = sh('list', '--help');
    expect(help.stdout).to.include('--port N').and.include('--endpoint URL').and.include('serve.json');
    expect(sh('--help').stdout).to.include('--endpoint URL, --port N, $SWITCHBOARD_ENDPOINT, the run file');
  });

  it('a second serve on the busy port says what to do, and starts nothing', () => {
    const r = sh('serve', '--config-path', config, '--port', String(sb.port));
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include(`is already in use: is Switchboard already running? ('switchboard list servers' talks to it); to run another, use --port`);
  });

  it('add NAME -- COMMAND: the running Switchboard loads it, and list tools shows its tools', async () => {
    const added = sh('add', 'adder', '--config-path', config, '--', 'node', TEST_SERVER);
    expect(added.status, added.stderr + added.stdout).to.equal(0);
    expect(added.stdout).to.include(`wrote ${join(config, 'mcpservers', 'adder.yaml')} (stdio: node ${TEST_SERVER})`);
    expect(added.stdout).to.include(`the Switchboard at ${sb.url} loads it now`);
    // Waited for in the running Switchboard's log, not by running list tools until it shows:
    // each run of the installed command costs a second of CPU, and a loaded machine ran dozens.
    await sb.waitForLog(/:adder\] connected \(/, 60_000);
    const tools = await eventually(
      async () => sh('list', 'tools', '--config-path', config).stdout,
      (out) => out.includes('x_adder_add'),
      60_000,
      200,
    );
    expect(tools).to.match(/x_adder_add\s+adder/);
    const sum = sh('call', 'x_adder_add', '--arg', 'a=2', '--arg', 'b=40', '--config-path', config);
    expect(sum.stdout.trim()).to.equal('42');
  });

  it('add refuses a duplicate by name (the same command line or URL) and a taken name; --force adds it anyway', async () => {
    const twin = sh('add', 'adder2', '--config-path', config, '--', 'node', TEST_SERVER);
    expect(twin.status).to.equal(1);
    expect(twin.stdout.trim()).to.equal(
      `switchboard add: adder2 was not added: it duplicates 'adder' (${join(config, 'mcpservers', 'adder.yaml')}): the same command line 'node ${TEST_SERVER}'; --force adds it anyway`,
    );
    expect(existsSync(join(config, 'mcpservers', 'adder2.yaml'))).to.equal(false);
    const taken = sh('add', 'adder', '--config-path', config, '--url', 'http://127.0.0.1:1/mcp');
    expect(taken.stdout).to.include(`adder was not added: ${join(config, 'mcpservers', 'adder.yaml')} exists (use --force to overwrite)`);
    const forced = sh('add', 'adder2', '--force', '--config-path', config, '--', 'node', TEST_SERVER);
    expect(forced.status, forced.stdout).to.equal(0);
    // Loopback, where nothing listens: the running Switchboard's retries stay on this machine.
    const port = await freePort();
    const remote = sh('add', 'far', '--config-path', config, '--url', `http://127.0.0.1:${port}/mcp/`);
    expect(remote.status, remote.stdout).to.equal(0);
    const remoteTwin = sh('add', 'far2', '--config-path', config, '--url', `HTTP://127.0.0.1:${port}/mcp`);
    expect(remoteTwin.stdout).to.include("far2 was not added: it duplicates 'far'").and.include(`the same URL HTTP://127.0.0.1:${port}/mcp`);
    const bad = sh('add', 'bad name', '--config-path', config, '--', 'node');
    expect(bad.status).to.equal(1);
    expect(bad.stdout).to.match(/^switchboard add: bad name was not added: name: /);
  });

  it('import: a duplicate is skipped by name, a literal token goes to secrets.env and the server still gets it', async () => {
    const ide = join(tmp, 'claude_desktop_config.json');
    const token = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    await writeFile(
      ide,
      JSON.stringify({
        mcpServers: {
          'adder-again': { command: 'node', args: [TEST_SERVER] },
          secretive: { command: 'node', args: [TEST_SERVER, '--name', 'secretive'], env: { API_TOKEN: token, LOG_LEVEL: 'info' } },
        },
      }),
    );
    const r = sh('import', ide, '--config-path', config);
    expect(r.status, r.stdout).to.equal(0);
    expect(r.stdout).to.include(`skipped adder-again: it duplicates 'adder' (${join(config, 'mcpservers', 'adder.yaml')}): the same command line`);
    expect(r.stdout).to.include(`credentials moved to ${join(config, 'secrets.env')}: env.API_TOKEN as \${API_TOKEN}`);
    expect(r.stdout).to.not.include(token);
    const yaml = readFileSync(join(config, 'mcpservers', 'secretive.yaml'), 'utf8');
    expect(yaml).to.include('API_TOKEN: ${API_TOKEN}').and.include('LOG_LEVEL: info').and.not.include(token);
    const secrets = join(config, 'secrets.env');
    expect(readFileSync(secrets, 'utf8')).to.include(`\nAPI_TOKEN=${token}\n`);
    expect(statSync(secrets).mode & 0o777).to.equal(0o600);
    // The test server offers `reveal` only with API_TOKEN set: the reference resolved from
    // secrets.env (serve's environment has no API_TOKEN), and the value is scrubbed as a secret.
    await sb.waitForLog(/:secretive\] connected \(/, 60_000);
    const revealed = await eventually(
      async () => sh('call', 'x_secretive_reveal', '--config-path', config),
      (res) => res.status === 0,
      60_000,
      200,
    );
    expect(revealed.stdout.trim()).to.equal('the token is <redacted>');
  });

  it('a run file whose serve is gone is ignored, and said so; the clients fall back to config.yaml', async () => {
    // config.yaml names a port nothing listens on: what the fallback reaches is known.
    const dir = join(tmp, 'stale');
    const port = await freePort();
    await mkdir(dir);
    await writeFile(join(dir, 'config.yaml'), `aggregator:\n  host: 127.0.0.1\n  port: ${port}\n`);
    const gone = spawn(process.execPath, ['-e', '']);
    const pid = gone.pid!;
    await new Promise((r) => gone.once('exit', r));
    await writeFile(join(dir, 'serve.json'), JSON.stringify({ url: sb.url, pid, startedAt: '2026-11-25T10:00:00.000Z' }));
    const r = sh('list', 'tools', '--config-path', dir, '--port', '1', '--endpoint', 'http://127.0.0.1:1/mcp');
    // Flags come first: the run file is not even read.
    expect(r.stderr).to.not.include('ignoring');
    const stale = sh('list', 'tools', '--config-path', dir);
    expect(stale.status).to.equal(1);
    expect(stale.stderr).to.include(
      `switchboard: ignoring ${join(dir, 'serve.json')}: the Switchboard that wrote it (pid ${pid}, started 2026-11-25T10:00:00.000Z) is not running; using http://127.0.0.1:${port}/mcp from config.yaml`,
    );
    // Nothing listens at config.yaml's port: the error says where that address came from.
    expect(stale.stderr).to.include(
      `switchboard: cannot reach http://127.0.0.1:${port}/mcp: nothing is listening there (is Switchboard running?); the address came from config.yaml: --endpoint URL or --port N names another`,
    );
  });

  it('nothing listening at a given address: the error names it', async () => {
    const port = await freePort();
    const given = sh('list', 'tools', '--config-path', join(tmp, 'nowhere'), '--port', String(port));
    expect(given.status).to.equal(1);
    // No config.yaml there: the host is the default one, the port the flag's; a given address needs no origin.
    expect(given.stderr.trim()).to.equal(`switchboard: cannot reach http://localhost:${port}/mcp: nothing is listening there (is Switchboard running?)`);
  });

  it('a clean shutdown removes the run file', async () => {
    await sb.stop();
    expect(existsSync(join(config, 'serve.json'))).to.equal(false);
  });
});
