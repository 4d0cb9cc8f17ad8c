/**
 * `switchboard connect CLIENT`: the client's MCP file gains a `switchboard` entry and keeps
 * everything else, with a backup; the entry it writes for Claude Desktop (the stdio bridge)
 * really reaches a running Switchboard. Every file is a temp file: HOME points at a temp
 * directory, never the real one.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, meta, startSwitchboard } from '../support/harness.js';

type Obj = Record<string, unknown>;

let home: string;

function runWith(extra: NodeJS.ProcessEnv, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, USERPROFILE: home };
  delete env.XDG_CONFIG_HOME;
  delete env.SWITCHBOARD_ENDPOINT;
  Object.assign(env, extra);
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000, env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return runWith({}, ...args);
}

function json(path: string): Obj {
  return JSON.parse(readFileSync(path, 'utf8')) as Obj;
}

function backups(dir: string, name: string): string[] {
  return readdirSync(dir).filter((f) => f.startsWith(`${name}.`) && f.endsWith('.bak'));
}

// No config.yaml: the default bind, aggregator.host "localhost".
const URL_ = 'http://localhost:8090/mcp';

describe('switchboard connect: an IDE configured to use Switchboard', function () {
  this.timeout(60_000);

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'sb-connect-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('--print shows each client its own entry: streamable HTTP, or switchboard agent for Claude Desktop; nothing is written', () => {
    const printed = (client: string): Obj => {
      const r = run('connect', client, '--print');
      expect(r.status, r.stderr).to.equal(0);
      return JSON.parse(r.stdout) as Obj;
    };
    expect(printed('claude-code')).to.deep.equal({ mcpServers: { switchboard: { type: 'http', url: URL_ } } });
    expect(printed('cursor')).to.deep.equal({ mcpServers: { switchboard: { url: URL_ } } });
    expect(printed('vscode')).to.deep.equal({ servers: { switchboard: { type: 'http', url: URL_ } } });
    expect(printed('claude-desktop')).to.deep.equal({
      mcpServers: { switchboard: { command: process.execPath, args: [CLI, 'agent', '--endpoint', URL_] } },
    });
    expect(readdirSync(home)).to.deep.equal([]);
  });

  it("writes each client's file at its place under HOME (Linux), creating it and its folder when missing", () => {
    for (const client of ['claude-desktop', 'claude-code', 'cursor', 'vscode']) {
      const r = run('connect', client);
      expect(r.status, r.stderr).to.equal(0);
    }
    expect(json(join(home, '.config/Claude/claude_desktop_config.json'))).to.have.nested.property('mcpServers.switchboard.command', process.execPath);
    expect(json(join(home, '.claude.json'))).to.deep.equal({ mcpServers: { switchboard: { type: 'http', url: URL_ } } });
    expect(json(join(home, '.cursor/mcp.json'))).to.deep.equal({ mcpServers: { switchboard: { url: URL_ } } });
    expect(json(join(home, '.config/Code/User/mcp.json'))).to.deep.equal({ servers: { switchboard: { type: 'http', url: URL_ } } });
    // A new file may hold tokens later (~/.claude.json does): owner-only.
    expect(statSync(join(home, '.claude.json')).mode & 0o777).to.equal(0o600);
  });

  it('keeps the rest of the file, its indentation and mode, and leaves the original as a backup', () => {
    const file = join(home, 'claude.json');
    const original = `{\n\t"numStartups": 12,\n\t"projects": {"/src": {"allowedTools": []}},\n\t"mcpServers": {\n\t\t"github": {"type": "http", "url": "https://api.example/mcp"}\n\t}\n}\n`;
    writeFileSync(file, original);
    chmodSync(file, 0o640);
    const r = run('connect', 'claude-code', '--config', file);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.include(`wrote ${file}`).and.include('over streamable HTTP');
    const written = readFileSync(file, 'utf8');
    expect(written).to.match(/^\{\n\t"numStartups": 12,/);
    expect(JSON.parse(written)).to.deep.equal({
      numStartups: 12,
      projects: { '/src': { allowedTools: [] } },
      mcpServers: { github: { type: 'http', url: 'https://api.example/mcp' }, switchboard: { type: 'http', url: URL_ } },
    });
    expect(statSync(file).mode & 0o777).to.equal(0o640);
    const [backup] = backups(home, 'claude.json');
    expect(backup, readdirSync(home).join(' ')).to.be.a('string');
    expect(readFileSync(join(home, backup!), 'utf8')).to.equal(original);
    expect(r.stdout).to.include(join(home, backup!));
  });

  it('an existing switchboard entry: the same one changes nothing, another is kept unless --force', () => {
    const file = join(home, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { switchboard: { url: URL_ } } }));
    const same = run('connect', 'cursor', '--config', file);
    expect(same.status).to.equal(0);
    expect(same.stdout).to.include('already uses Switchboard');
    expect(backups(home, 'mcp.json')).to.deep.equal([]);

    const other = run('connect', 'cursor', '--config', file, '--endpoint', 'http://127.0.0.1:9000/mcp');
    expect(other.status).to.equal(1);
    expect(other.stderr).to.include(`${file} already has a 'switchboard' entry`).and.include('--force replaces it');
    expect(json(file)).to.deep.equal({ mcpServers: { switchboard: { url: URL_ } } });

    const forced = run('connect', 'cursor', '--config', file, '--endpoint', 'http://127.0.0.1:9000/mcp', '--force');
    expect(forced.status, forced.stderr).to.equal(0);
    expect(json(file)).to.deep.equal({ mcpServers: { switchboard: { url: 'http://127.0.0.1:9000/mcp' } } });
  });

  it('the endpoint defaults to the one config.yaml of --config-path serves; SWITCHBOARD_ENDPOINT, then --endpoint, win', () => {
    const config = join(home, 'sb');
    mkdirSync(config);
    writeFileSync(join(config, 'config.yaml'), 'aggregator:\n  host: 0.0.0.0\n  port: 9123\n');
    const r = run('connect', 'vscode', '--print', '--config-path', config);
    expect(JSON.parse(r.stdout)).to.deep.equal({ servers: { switchboard: { type: 'http', url: 'http://127.0.0.1:9123/mcp' } } });
    const fromEnv = runWith({ SWITCHBOARD_ENDPOINT: 'https://env.example/mcp' }, 'connect', 'vscode', '--print', '--config-path', config);
    expect(JSON.parse(fromEnv.stdout)).to.have.nested.property('servers.switchboard.url', 'https://env.example/mcp');
    const explicit = runWith(
      { SWITCHBOARD_ENDPOINT: 'https://env.example/mcp' },
      'connect',
      'vscode',
      '--print',
      '--config-path',
      config,
      '--endpoint',
      'https://sb.example/mcp',
    );
    expect(JSON.parse(explicit.stdout)).to.have.nested.property('servers.switchboard.url', 'https://sb.example/mcp');
  });

  it('a VS Code file with comments is left alone (rewriting it would drop them) and the entry to paste is shown', () => {
    const file = join(home, 'mcp.json');
    const original = '{\n  // mine\n  "servers": {},\n}\n';
    writeFileSync(file, original);
    const r = run('connect', 'vscode', '--config', file);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include('has comments or trailing commas').and.include('"servers"').and.include(URL_);
    expect(readFileSync(file, 'utf8')).to.equal(original);
    expect(backups(home, 'mcp.json')).to.deep.equal([]);
  });

  it('a symlinked file is written through the link, which stays a link', () => {
    const target = join(home, 'dotfiles-mcp.json');
    writeFileSync(target, '{"mcpServers": {}}');
    const link = join(home, 'mcp.json');
    symlinkSync(target, link);
    const r = run('connect', 'cursor', '--config', link);
    expect(r.status, r.stderr).to.equal(0);
    expect(json(target)).to.deep.equal({ mcpServers: { switchboard: { url: URL_ } } });
    expect(lstatSync(link).isSymbolicLink()).to.equal(true);
    expect(readFileSync(link, 'utf8')).to.equal(readFileSync(target, 'utf8'));
  });

  describe('refuses what it must not write, with the reason and nothing changed', () => {
    const refused = (args: string[], status: number, message: string): void => {
      const r = run('connect', ...args);
      expect(r.status, r.stdout + r.stderr).to.equal(status);
      expect(r.stderr).to.include(message);
    };

    it('an unknown client, a non-http endpoint, credentials or control characters in the endpoint', () => {
      refused(['emacs', '--print'], 2, "unknown client 'emacs'; one of claude-desktop, claude-code, cursor, vscode");
      refused(['cursor', '--print', '--endpoint', 'javascript:alert(1)'], 2, '--endpoint must be an http or https URL, got javascript:');
      refused(['cursor', '--print', '--endpoint', 'file:///etc/passwd'], 2, 'got file:');
      refused(['cursor', '--print', '--endpoint', 'http://me:secret@127.0.0.1:8090/mcp'], 2, 'must not carry a user name or password');
      refused(['cursor', '--print', '--endpoint', 'not a url'], 2, 'is not a URL');
      refused(['cursor', '--print', '--endpoint', `http://127.0.0.1/${'a'.repeat(3000)}`], 2, 'longer than 2048');
      expect(readdirSync(home)).to.deep.equal([]);
    });

    it('a file that is not JSON, not an object, whose server map is not an object, a directory, or too large', () => {
      const file = (name: string, content: string): string => {
        writeFileSync(join(home, name), content);
        return join(home, name);
      };
      refused(['cursor', '--config', file('a.json', '{"mcpServers": ')], 1, 'is not valid JSON');
      refused(['cursor', '--config', file('b.json', '[1, 2]')], 1, 'does not hold a JSON object');
      refused(['cursor', '--config', file('c.json', '{"mcpServers": ["x"]}')], 1, "'mcpServers' is not an object");
      mkdirSync(join(home, 'd.json'));
      refused(['cursor', '--config', join(home, 'd.json')], 1, 'is not a regular file');
      refused(['cursor', '--config', file('e.json', `{"pad": "${'x'.repeat(16 * 1024 * 1024)}"}`)], 1, 'is larger than 16 MiB');
      expect(readFileSync(join(home, 'c.json'), 'utf8')).to.equal('{"mcpServers": ["x"]}');
      expect(readdirSync(home).filter((f) => f.endsWith('.bak'))).to.deep.equal([]);
    });
  });

  it("Claude Desktop's entry, run as Claude Desktop runs it, serves Switchboard's tools over stdio", async () => {
    const sb = await startSwitchboard({});
    const file = join(home, 'claude_desktop_config.json');
    try {
      expect(run('connect', 'claude-desktop', '--config', file, '--endpoint', sb.url).status).to.equal(0);
      const entry = (json(file).mcpServers as Record<string, { command: string; args: string[] }>).switchboard!;
      const client = new Client({ name: 'claude-desktop-stand-in', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, env: { HOME: home }, stderr: 'ignore' }));
      try {
        const listed = await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 500 });
        expect(listed.tools.map((t) => t.name)).to.include('core_service_status');
      } finally {
        await client.close();
      }
    } finally {
      await sb.stop();
    }
    expect(existsSync(file)).to.equal(true);
  });
});
