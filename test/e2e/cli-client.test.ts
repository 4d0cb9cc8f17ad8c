/**
 * The command-line client as people and scripts use it, against running Switchboards: an
 * open one (tables, JSON, calls, one-line errors with non-zero exits) and a protected one
 * (login through a browser, --silent with and without the identity provider's cooperation,
 * credentials 0600), and `switchboard agent` driven by the SDK client over stdio.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, eventually, freePort, meta, ROOT, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';
import { PING_TWICE } from '../fixtures/workflows.js';
import { startProtected, type OAuthSetup } from '../support/oauth-setup.js';

const HEADLESS = `${process.execPath} ${join(ROOT, 'dist/test/fixtures/headless-browser.js')}`;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('command-line client against an open Switchboard', function () {
  // A bound for a hang: five commands took more than 30 s at a load of 20 on two cores.
  this.timeout(120_000);
  let sb: Running;
  let home: string;
  let metricsUrl: string;
  const env = () => ({ XDG_CONFIG_HOME: home, SWITCHBOARD_ENDPOINT: sb.url });

  before(async () => {
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    sb = await startSwitchboard(
      { 'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER), 'workflows/ping-twice.yaml': PING_TWICE },
      { env: { OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1', OTEL_EXPORTER_PROMETHEUS_PORT: String(metricsPort) } },
    );
    home = await mkdtemp(join(tmpdir(), 'sb-cli-'));
  });
  after(async () => {
    await sb?.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('list tools prints an aligned table; --json the structured list', async () => {
    const r = await cli(['list', 'tools'], env());
    expect(r.code, r.stderr).to.equal(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).to.match(/^NAME\s+SERVER\s+KIND\s+SUMMARY$/);
    expect(lines[1]).to.match(/^-+\s+-+\s+-+\s+-+$/);
    const ping = lines.find((l) => l.startsWith('x_tools_ping'))!;
    expect(ping).to.match(/^x_tools_ping\s+tools\s+tool\s+\S/);
    // Aligned: every column starts where its header does.
    const at = lines[0]!.indexOf('SERVER');
    for (const l of lines.slice(2)) expect(l.slice(at - 2, at), l).to.equal('  ');
    const j = await cli(['list', 'tools', '--json'], env());
    const tools = JSON.parse(j.stdout) as { name: string }[];
    expect(tools.map((t) => t.name)).to.include('x_tools_add');
  });

  it('list servers, workflows and executions; --endpoint wins over SWITCHBOARD_ENDPOINT', async () => {
    const servers = await cli(['list', 'servers', '--endpoint', sb.url], { XDG_CONFIG_HOME: home, SWITCHBOARD_ENDPOINT: 'http://127.0.0.1:9/mcp' });
    expect(servers.code, servers.stderr).to.equal(0);
    expect(servers.stdout).to.match(/^tools\s+stdio\s+running\s+\S+\s+\d+/m);
    const workflows = await cli(['list', 'workflows'], env());
    expect(workflows.stdout).to.match(/^NAME\s+AVAILABLE\s+DESCRIPTION$/m);
    expect(workflows.stdout).to.match(/^ping-twice\s+true\s*$/m);
    expect((await cli(['call', 'workflow_ping-twice'], env())).code).to.equal(0);
    const executions = await cli(['list', 'executions'], env());
    expect(executions.code, executions.stderr).to.equal(0);
    // Every column filled: the id, the workflow's name, the status, the start and the duration.
    expect(executions.stdout).to.match(/^\S+\s+ping-twice\s+completed\s+\S+\s+\d+ ms$/m);
  });

  it('ends its session on the server when a command is done, leaving no idle sessions behind', async () => {
    // One more command here; the tests above ran a dozen against this Switchboard, each of which would have left one.
    expect((await cli(['list', 'servers'], env())).code).to.equal(0);
    const active = (text: string) => Number(/^switchboard_sessions_active\{[^}]*network_transport="streamable-http"[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0);
    await eventually(
      () => fetch(metricsUrl).then((r) => r.text()),
      (t) => active(t) === 0,
      10_000,
    );
  });

  it('describe shows the arguments; call prints the result, --arg values typed by the schema', async () => {
    const d = await cli(['describe', 'x_tools_add'], env());
    expect(d.code, d.stderr).to.equal(0);
    expect(d.stdout).to.match(/^a\s+number\s+yes/m);
    const c = await cli(['call', 'x_tools_add', '--arg', 'a=2', '--arg', 'b=40'], env());
    expect(c.code, c.stderr).to.equal(0);
    expect(c.stdout.trim()).to.equal('42');
    const j = await cli(['call', 'x_tools_add', '--args', '{"a":1,"b":2}', '--json'], env());
    expect((JSON.parse(j.stdout) as { content: { text: string }[] }).content[0]!.text).to.equal('3');
  });

  it('a failed call, a bad argument, an unknown tool and an unreachable endpoint: one line on stderr, exit 1', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}/mcp`;
    const cases: [string[], RegExp][] = [
      [['call', 'x_tools_add', '--arg', 'a=2'], /^switchboard: .*b/],
      [['call', 'x_tools_add', '--arg', 'a=two', '--arg', 'b=1'], /^switchboard: --arg a: 'two' is not a valid number$/],
      [['call', 'no_such_tool'], /^switchboard: .*no_such_tool/],
      [
        ['list', 'tools', '--endpoint', nobody],
        new RegExp(`^switchboard: cannot reach ${nobody.replace(/[.?/]/g, '\\$&')}: nothing is listening there \\(is Switchboard running\\?\\)$`),
      ],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args, env());
      expect(r.code, args.join(' ')).to.equal(1);
      expect(r.stderr.trimEnd().split('\n'), args.join(' ')).to.have.length(1);
      expect(r.stderr.trimEnd(), args.join(' ')).to.match(message);
    }
    const usage = await cli(['list', 'things'], env());
    expect(usage.code).to.equal(2);
  });

  it('switchboard agent serves an IDE over stdio, forwarding to the endpoint', async () => {
    const client = new Client({ name: 'ide', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'agent', '--endpoint', sb.url],
        env: { ...(process.env as Record<string, string>), XDG_CONFIG_HOME: home },
        stderr: 'pipe',
      }),
    );
    const listed = await meta<{ tools: { name: string }[] }>(client, 'list_tools');
    expect(listed.tools.map((t) => t.name)).to.include('x_tools_ping');
    const r = await client.callTool({ name: 'call_tool', arguments: { name: 'x_tools_add', arguments: { a: 5, b: 6 } } });
    expect((r.content as { text: string }[])[0]!.text).to.equal('11');
    await client.close();
  });

  // The same Switchboard, typed at in a terminal: nothing here needs a fresh one.
  describe('in a terminal (tmux)', function () {
    this.timeout(120_000);
    const session = `sb-cli-${process.pid}`;
    const tmux = (...args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn('tmux', args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`tmux ${args.join(' ')} exited ${code}`))));
      });
    let commands = 0;
    const screenAfter = async (command: string, done: RegExp): Promise<string> => {
      // The command first prints a marker that its typed text does not contain (printf puts it
      // together), so its output is found however the screen scrolled. Finding the typed command
      // instead raced a `clear`: the terminal echoes keys as they are typed, and a clear still
      // running erased that echo (seen under load).
      const mark = `begin-${++commands}`;
      await tmux('send-keys', '-t', session, `printf 'begin-%s\\n' ${commands}; ${command}`, 'Enter');
      // Bounded only by the test's own timeout: a busy machine makes a command slow, not wrong.
      for (const until = Date.now() + 50_000; Date.now() < until;) {
        const screen = await tmux('capture-pane', '-p', '-S', '-500', '-t', session);
        const at = screen.lastIndexOf(`${mark}\n`);
        const output = at >= 0 ? screen.slice(at + mark.length + 1) : '';
        if (done.test(output)) return output;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`'${command}' did not finish: ${await tmux('capture-pane', '-p', '-t', session)}`);
    };

    before(async function () {
      if (
        await tmux('-V').then(
          () => false,
          () => true,
        )
      )
        this.skip(); // no tmux on this machine: nothing to drive
      await tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '40', '-e', `SWITCHBOARD_ENDPOINT=${sb.url}`, '-e', 'PS1=$ ', 'sh');
    });
    after(async () => {
      await tmux('kill-session', '-t', session).catch(() => undefined);
    });

    it('shows the tool table aligned, a call result, and one clear line with a non-zero status for an error', async () => {
      const sbCmd = `${process.execPath} ${CLI}`;
      const listed = await screenAfter(`${sbCmd} list tools; echo "exit=$?"`, /exit=\d/);
      const rows = listed.split('\n').filter((l) => /^(NAME|x_tools_)/.test(l));
      expect(rows.length, listed).to.be.greaterThan(3);
      expect(rows[0], listed).to.match(/^NAME\s+SERVER/);
      const serverCol = rows[0]!.indexOf('SERVER');
      for (const row of rows.slice(1)) expect(row.slice(serverCol, serverCol + 5), row).to.equal('tools');
      expect(listed).to.include('exit=0');
      const called = await screenAfter(`${sbCmd} call x_tools_add --arg a=20 --arg b=22; echo "exit=$?"`, /exit=\d/);
      expect(called).to.match(/^42$/m);
      const failed = await screenAfter(`${sbCmd} call no_such_tool; echo "exit=$?"`, /exit=\d/);
      expect(failed).to.match(/^switchboard: .*no_such_tool.*$/m);
      expect(failed).to.include('exit=1');
    });
  });
});

describe('command-line client against a protected Switchboard', function () {
  this.timeout(60_000);
  let setup: OAuthSetup;
  let home: string;
  const env = (extra: Record<string, string> = {}) => ({ XDG_CONFIG_HOME: home, SWITCHBOARD_ENDPOINT: setup.sb.url, BROWSER: HEADLESS, ...extra });

  before(async () => {
    setup = await startProtected({ idp: { refuseSilentSignIn: true } });
    home = await mkdtemp(join(tmpdir(), 'sb-cli-'));
  });
  after(async () => {
    await setup?.sb.stop();
    await setup?.idp.close();
    await rm(home, { recursive: true, force: true });
  });

  it('before login: one line saying to log in', async () => {
    const r = await cli(['list', 'tools'], env());
    expect(r.code).to.equal(1);
    expect(r.stderr.trim()).to.equal(
      `switchboard: not signed in to ${setup.sb.url} (or the sign-in has lapsed): run switchboard login --endpoint ${setup.sb.url}`,
    );
  });

  it('login --silent falls back to the interactive sign-in when the identity provider refuses prompt=none; credentials are 0600', async () => {
    const r = await cli(['login', '--silent'], env());
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr, r.stderr).to.include('Silent sign-in did not work (login_required');
    expect(r.stderr).to.include(`Signed in to ${setup.sb.url}.`);
    const dir = join(home, 'switchboard', 'credentials');
    const [file] = await readdir(dir);
    expect((await stat(join(dir, file!))).mode & 0o777).to.equal(0o600);
    const listed = await cli(['list', 'tools'], env());
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.stdout).to.match(/^x_tools_ping\s/m);
  });

  it('the agent uses the stored sign-in', async () => {
    const client = new Client({ name: 'ide', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'agent'],
        env: { ...(process.env as Record<string, string>), ...env() },
        stderr: 'pipe',
      }),
    );
    await meta(client, 'list_tools');
    await client.close();
  });

  it('logout forgets the credentials', async () => {
    expect((await cli(['logout'], env())).stderr).to.include(`Signed out of ${setup.sb.url}.`);
    expect((await cli(['list', 'tools'], env())).code).to.equal(1);
  });

  // The same provider, now as one that still knows the person (prompt=none answered), instead
  // of a second Switchboard and provider for this one test.
  it('login --silent signs in without the interactive fallback when the identity provider still knows the person', async () => {
    setup.idp.refuseSilentSignIn(false);
    // A credentials directory of its own: nothing of the sign-ins above (client registration included) is reused.
    const fresh = await mkdtemp(join(tmpdir(), 'sb-cli-'));
    try {
      const r = await cli(['login', '--silent', '--endpoint', setup.sb.url], { XDG_CONFIG_HOME: fresh, BROWSER: HEADLESS });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stderr).to.not.include('Silent sign-in did not work');
      expect(r.stderr).to.include(`Signed in to ${setup.sb.url} (silently).`);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });
});
