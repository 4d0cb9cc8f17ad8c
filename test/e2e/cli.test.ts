import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callTool, CLI, connectHttp, eventually, freePort, makeConfigDir, startSwitchboard, stdioServer, TEST_SERVER, text } from '../support/harness.js';
import { loadedModules, recordModules } from '../support/module-recorder.js';

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  // A bound for a command that hangs: `--help` alone took 29 s on a loaded two-core machine.
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 45_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the switchboard command', () => {
  it('prints usage with --help and the version with --version', () => {
    const help = run('--help');
    expect(help.status).to.equal(0);
    expect(help.stdout).to.include('switchboard <command>').and.include('--config-path');
    const version = run('--version');
    expect(version.stdout.trim()).to.match(/^\d+\.\d+\.\d+$/);
  });

  it('a client command and connect --print load neither the kernel nor the configuration pipeline', async () => {
    // Each costs a third of a command's start (the suites run a hundred commands); a module
    // recorder given through NODE_OPTIONS, as an operator could, lists what a command loaded.
    const out = join(tmpdir(), `switchboard-modules-${process.pid}-${Date.now()}.txt`);
    const noConfigYaml = await makeConfigDir({});
    try {
      for (const [args, status, entry] of [
        [['list', 'tools', '--endpoint', `http://127.0.0.1:${await freePort()}/mcp`], 1, '/dist/client/main.js'],
        [['connect', 'cursor', '--print', '--config-path', noConfigYaml], 0, '/dist/app/cli/connect/'],
      ] as const) {
        const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 45_000, env: { ...process.env, ...recordModules(out) } });
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).to.equal(status);
        const { modules } = await loadedModules(out);
        expect(
          modules.some((m) => m.includes(entry)),
          `${args[0]} ran (the recorder works)`,
        ).to.equal(true);
        for (const unused of ['/dist/kernel/index.js', '/dist/kernel/kernel.js', '/dist/kernel/config/pipeline.js', '/dist/client/agent.js'])
          expect(
            modules.filter((m) => m.includes(unused)),
            `${args[0]} loaded ${unused}`,
          ).to.deep.equal([]);
      }
    } finally {
      await rm(out, { force: true });
      await rm(noConfigYaml, { recursive: true, force: true });
    }
  });

  it('refuses an unknown option with exit 2 and usage', () => {
    const r = run('serve', '--prot', '80');
    expect(r.status).to.equal(2);
    expect(r.stderr).to.include("unknown option '--prot'");
  });

  it('check: accepts a valid configuration', async () => {
    const dir = await makeConfigDir({ 'mcpservers/a.yaml': stdioServer('a', TEST_SERVER) });
    const r = run('check', '--config-path', dir);
    expect(r.status).to.equal(0);
    expect(r.stdout).to.include('OK (1 MCP server, 0 workflows)');
  });

  it('check: names file, line and field of every problem and exits 1', async () => {
    const dir = await makeConfigDir({
      'config.yaml': 'aggregator:\n  port: "eighty"\n  colour: blue\n',
      'mcpservers/bad.yaml': 'name: bad\ntype: carrier-pigeon\n',
      'mcpservers/broken.yaml': 'name: [unclosed\n',
      'mcpservers/missing.yaml': 'name: missing\ntype: stdio\n',
    });
    const r = run('check', '--config-path', dir);
    expect(r.status).to.equal(1);
    // config.yaml problems stop the load first; they are reported with positions.
    expect(r.stderr).to.match(/config\.yaml:2:\d+: aggregator\.port: must be integer/);
    expect(r.stderr).to.match(/config\.yaml:3:\d+: aggregator\.colour: unknown field 'colour'/);
  });

  it('check: reports every invalid resource file with its line', async () => {
    const dir = await makeConfigDir({
      'mcpservers/bad.yaml': 'name: bad\ntype: carrier-pigeon\n',
      'mcpservers/broken.yaml': 'name: [unclosed\n',
      'mcpservers/missing.yaml': 'name: missing\ntype: stdio\n',
      'mcpservers/dup1.yaml': stdioServer('dup', TEST_SERVER),
      'mcpservers/dup2.yaml': stdioServer('dup', TEST_SERVER),
      'mcpservers/typo.yaml': `name: typo\ntype: stdio\ncommand: [node, ${JSON.stringify(TEST_SERVER)}]\nautostart: true\ncalTimeout: 5\nflavour: mint\n`,
    });
    const r = run('check', '--config-path', dir);
    // A near miss names the field meant; a name like no field gets no guess.
    expect(r.stderr).to.match(/typo\.yaml:4:1: autostart: unknown field 'autostart' \(did you mean 'autoStart'\?\)\n/);
    expect(r.stderr).to.match(/typo\.yaml:5:1: calTimeout: unknown field 'calTimeout' \(did you mean 'callTimeout'\?\)\n/);
    expect(r.stderr).to.match(/typo\.yaml:6:1: flavour: unknown field 'flavour'\n/);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/bad\.yaml:2:7: type: must be one of "stdio", "streamable-http", "sse"/);
    expect(r.stderr).to.match(/broken\.yaml:\d+:\d+: YAML syntax error/);
    expect(r.stderr).to.match(/missing\.yaml:1:1: command: required field 'command' is missing/);
    expect(r.stderr).to.match(/dup2\.yaml:1:1: name: duplicate mcpserver name 'dup'/);
  });

  it('serve: invalid settings stop startup with exit 1 and the problems, and nothing claims it was shutting down first', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'aggregator:\n  port: eighty\n' });
    const r = run('serve', '--config-path', dir, '--port', '0');
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/config\.yaml:2:9: aggregator\.port: must be integer\n/);
    expect(r.stderr).to.include('not starting');
    expect(r.stdout + r.stderr).to.not.include('shutting down');
  });

  it('serve: one bad server file is left out with its problem, the others start (as a reload would keep them); SIGTERM exits 0', async () => {
    const sb = await startSwitchboard({
      'mcpservers/good.yaml': stdioServer('good', TEST_SERVER),
      'mcpservers/bad.yaml': 'name: bad\ntype: stdio\ncommand: 42\n',
    });
    try {
      expect(sb.logs()).to.match(/bad\.yaml:3:10: command: must be string or array \(not loaded; it loads once the file is fixed\)/);
      const client = await connectHttp(sb.url);
      expect(text(await callTool(client, 'x_good_add', { a: 1, b: 2 }))).to.equal('3');
      // Fixed, it loads without a restart.
      await writeFile(join(sb.configDir, 'mcpservers', 'bad.yaml'), stdioServer('bad', TEST_SERVER));
      await eventually(
        () => callTool(client, 'x_bad_ping'),
        (r) => r.isError !== true,
        15_000,
      );
      await client.close();
      // The same Switchboard, with its upstreams running, rather than another start for this alone.
      expect(await sb.stop(), 'the exit code on SIGTERM').to.equal(0);
    } finally {
      await sb.stop();
    }
  });
});
