import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { callTool, CLI, connectHttp, EVERYTHING, makeConfigDir, MEMORY, startSwitchboard, TEST_SERVER, text } from '../support/harness.js';

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CLAUDE_DESKTOP = {
  mcpServers: {
    everything: { command: 'node', args: [EVERYTHING], env: { LOG_LEVEL: 'info' } },
    'memory tool': { command: 'node', args: [MEMORY] },
    nothing: { args: ['--flag'] },
    'asks-the-ide': { command: 'node', env: { KEY: '${input:api-key}' } },
  },
};

// VS Code's mcp.json: comments, trailing commas, `type: http`, `${env:...}`.
const VSCODE = `{
  // servers for this workspace
  "servers": {
    "test": { "type": "stdio", "command": "node", "args": ["${TEST_SERVER}", "--name", "from-vscode"], },
    /* a remote one */
    "web": { "type": "http", "url": "http://127.0.0.1:9/mcp", "headers": { "X-Token": "\${env:SB_IMPORT_TOKEN}" } },
  },
}
`;

describe('switchboard import: the MCP servers of a client configuration file', () => {
  it('writes one validated definition per server, says what it skipped and why, then the servers run', async () => {
    const dir = await makeConfigDir({});
    const claude = join(dir, 'claude_desktop_config.json');
    const vscode = join(dir, 'mcp.json');
    writeFileSync(claude, JSON.stringify(CLAUDE_DESKTOP));
    writeFileSync(vscode, VSCODE);

    const dry = run('import', claude, '--config-path', dir, '--dry-run');
    expect(dry.stdout).to.include(`would write ${join(dir, 'mcpservers/everything.yaml')}`);
    expect(existsSync(join(dir, 'mcpservers/everything.yaml'))).to.equal(false);

    const first = run('import', claude, '--config-path', dir);
    expect(first.status).to.equal(1); // two entries could not be imported
    expect(first.stdout).to.include(`wrote ${join(dir, 'mcpservers/everything.yaml')} (stdio: node ${EVERYTHING})`);
    expect(first.stdout).to.include(`wrote ${join(dir, 'mcpservers/memory-tool.yaml')} (named 'memory-tool': 'memory tool' is not a valid server name)`);
    expect(first.stdout).to.include("skipped nothing: it has neither 'command' (a local server) nor 'url' (a remote one)");
    expect(first.stdout).to.include('skipped asks-the-ide: env.KEY asks the IDE user for input (${input:...})');
    expect(parse(readFileSync(join(dir, 'mcpservers/everything.yaml'), 'utf8'))).to.deep.equal({
      name: 'everything',
      type: 'stdio',
      command: 'node',
      args: [EVERYTHING],
      env: { LOG_LEVEL: 'info' },
      autoStart: true,
    });

    const second = run('import', vscode, '--config-path', dir);
    expect(second.status, second.stdout).to.equal(0);
    expect(second.stdout).to.include(`wrote ${join(dir, 'mcpservers/web.yaml')} (streamable-http: http://127.0.0.1:9/mcp)`);
    expect((parse(readFileSync(join(dir, 'mcpservers/web.yaml'), 'utf8')) as { headers: unknown }).headers).to.deep.equal({ 'X-Token': '${SB_IMPORT_TOKEN}' });

    const again = run('import', claude, '--config-path', dir);
    expect(again.stdout).to.include(`skipped everything: ${join(dir, 'mcpservers/everything.yaml')} exists (use --force to overwrite)`);
    const forced = run('import', claude, '--config-path', dir, '--force');
    expect(forced.stdout).to.include(`wrote ${join(dir, 'mcpservers/everything.yaml')}`);

    // The remote is unreachable on purpose; its variable must be set for it to resolve at all.
    const sb = await startSwitchboard({}, { configDir: dir, env: { SB_IMPORT_TOKEN: 'token-from-env' } });
    const client = await connectHttp(sb.url);
    try {
      expect(text(await callTool(client, 'x_everything_echo', { message: 'imported' }))).to.include('imported');
      expect(text(await callTool(client, 'x_test_ping'))).to.match(/^pong from from-vscode/);
      const read = await callTool(client, 'x_memory-tool_read_graph');
      expect(read.isError).to.not.equal(true);
    } finally {
      await client.close();
      await sb.stop();
    }
  });

  it('refuses a file without servers, and a missing file, with one clear line', async () => {
    const dir = await makeConfigDir({ 'empty.json': '{"other": {}}' });
    const empty = run('import', join(dir, 'empty.json'), '--config-path', dir);
    expect(empty.status).to.equal(1);
    expect(empty.stdout.trim()).to.equal(`switchboard import: ${join(dir, 'empty.json')} has no MCP servers ('mcpServers', 'servers' or 'mcp.servers')`);
    const missing = run('import', join(dir, 'nope.json'), '--config-path', dir);
    expect(missing.status).to.equal(1);
    expect(missing.stdout).to.match(/^switchboard import: cannot read .*nope\.json: ENOENT/);
    expect(run('import').stderr).to.include('import needs the file to read');
  });
});

describe("switchboard import: an IDE's variables, and check on a command that is not there", () => {
  it('resolves ${workspaceFolder} of a .vscode/mcp.json to the folder above it, ${workspaceFolderBasename} to its name', async () => {
    const workspace = await makeConfigDir({});
    const dir = await makeConfigDir({});
    // The fixture script, addressed from the workspace the way a repository's mcp.json would.
    mkdirSync(join(workspace, '.vscode'));
    mkdirSync(join(workspace, 'tools'));
    copyFileSync(TEST_SERVER, join(workspace, 'tools', 'server.js'));
    const file = join(workspace, '.vscode', 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: { ws: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/tools/server.js', '--name', '${workspaceFolderBasename}'] } },
      }),
    );
    const r = run('import', file, '--config-path', dir);
    expect(r.status, r.stdout).to.equal(0);
    const written = parse(readFileSync(join(dir, 'mcpservers/ws.yaml'), 'utf8')) as { args: string[] };
    expect(written.args).to.deep.equal([join(workspace, 'tools', 'server.js'), '--name', basename(workspace)]);
  });

  it('refuses ${workspaceFolder} in a file that belongs to no workspace, and IDE variables it cannot know, by name', async () => {
    const dir = await makeConfigDir({});
    const file = join(dir, 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        'mcp.servers': {
          a: { command: 'node', args: ['${workspaceFolder}/server.js'] },
          b: { command: 'node', args: ['${config:editor.fontSize}'] },
          c: { command: 'node', args: ['--key', '${env:API_KEY}'] },
        },
      }),
    );
    const r = run('import', file, '--config-path', dir);
    expect(r.status).to.equal(1);
    expect(r.stdout).to.include('skipped a: args[0] uses ${workspaceFolder}, which only the IDE knows for this file; write the absolute path instead');
    expect(r.stdout).to.include('skipped b: args[0] uses ${config:editor.fontSize}, an IDE variable Switchboard cannot resolve; write its value instead');
    expect(r.stdout).to.include('skipped c: args[1] uses ${env:API_KEY}: only env and headers values take environment references (as ${NAME})');
    expect(existsSync(join(dir, 'mcpservers/a.yaml'))).to.equal(false);
  });

  it('check warns about a stdio command that is not on PATH, and still passes a valid configuration', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-check-'));
    mkdirSync(join(dir, 'mcpservers'));
    writeFileSync(join(dir, 'mcpservers/gone.yaml'), 'name: gone\ntype: stdio\ncommand: [no-such-command-anywhere, serve]\n');
    writeFileSync(join(dir, 'mcpservers/here.yaml'), `name: here\ntype: stdio\ncommand: [node, ${JSON.stringify(TEST_SERVER)}]\n`);
    const r = run('check', '--config-path', dir);
    expect(r.status).to.equal(0);
    expect(r.stderr.trim().split('\n')).to.deep.equal([
      `${join(dir, 'mcpservers/gone.yaml')}: warning: command 'no-such-command-anywhere' is not found on PATH (or relative to ${dir}); server 'gone' would fail to start`,
    ]);
    expect(r.stdout).to.include('OK (2 MCP servers, 0 workflows, 1 warning)');
  });
});
