import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    expect(parse(readFileSync(join(dir, 'mcpservers/web.yaml'), 'utf8')).headers).to.deep.equal({ 'X-Token': '${SB_IMPORT_TOKEN}' });

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
