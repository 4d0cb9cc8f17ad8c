/**
 * Hardening (issue 35, finding 5): runtimeServers.allowedCommands pins the command line and
 * the environment of a stdio server created through core_mcpserver_create, not only its
 * executable. With `allowedCommands: [npx]`, `[npx, -c, "touch <file>"]` ran the shell,
 * `env: {NODE_OPTIONS: "--import=data:..."}` ran code in node, and `env: {PATH: <dir>}` started
 * that directory's own npx. Replayed here through the real protocol.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  CLI,
  connectHttp,
  errorCode,
  eventually,
  makeConfigDir,
  meta,
  startSwitchboard,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

const FIXTURES = dirname(TEST_SERVER);

describe('security: runtimeServers.allowedCommands pins argv and environment', function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;
  let scratch: string;
  /** A directory a caller filled: its `node` and `npx` leave a mark when they run. */
  let planted: string;
  const mark = () => join(scratch, 'ran');
  const status = (name: string) => meta<{ state: string }>(client, 'call_tool', { name: 'core_service_status', arguments: { name } });
  const refusal = async (args: Record<string, unknown>): Promise<string> => {
    const r = await callTool(client, 'core_mcpserver_create', args);
    expect(errorCode(r), text(r)).to.equal('FORBIDDEN');
    // Nothing was written: the name is free.
    expect(errorCode(await callTool(client, 'core_mcpserver_get', { name: args.name }))).to.equal('NOT_FOUND');
    return text(r);
  };

  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sb-pinning-'));
    planted = join(scratch, 'bin');
    await mkdir(planted);
    for (const name of ['node', 'npx']) {
      await writeFile(join(planted, name), `#!/bin/sh\ntouch ${JSON.stringify(mark())}\nexit 1\n`);
      await chmod(join(planted, name), 0o755);
    }
    const config = [
      'runtimeServers:',
      '  allowedCommands:',
      '    - { command: npx, args: [-y, "@modelcontextprotocol/server-*"] }',
      `    - { command: node, args: [${JSON.stringify(TEST_SERVER)}] }`,
      `    - { command: node, args: [${JSON.stringify(`${FIXTURES}/*-server.js`)}, stdio, "..."] }`,
      '  allowedEnv: [UV_THREADPOOL_SIZE]',
      '',
    ].join('\n');
    sb = await startSwitchboard({
      'config.yaml': config,
      // The operator's own definition may set PATH; the executable still comes from Switchboard's PATH.
      'mcpservers/operator.yaml': `name: operator\ntype: stdio\ncommand: [node, ${JSON.stringify(TEST_SERVER)}]\nautoStart: true\nenv:\n  PATH: ${JSON.stringify(planted)}\n`,
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('refuses [npx, -c, "touch <file>"] under a pinned npx entry, and the file never appears', async () => {
    const msg = await refusal({ name: 'shell', type: 'stdio', command: ['npx', '-c', `touch ${mark()}`], autoStart: true });
    expect(msg).to.include("the command 'npx' is admitted only with pinned arguments").and.include('argument 1 does not match');
    // The refusal names positions and the operator's patterns, never the caller's values.
    expect(msg).to.not.include('touch');
    expect(existsSync(mark())).to.equal(false);
  });

  it('refuses NODE_OPTIONS (code through --import=data:) on an admitted command line, naming the variable', async () => {
    const msg = await refusal({
      name: 'preload',
      type: 'stdio',
      command: ['node', TEST_SERVER],
      env: { NODE_OPTIONS: `--import=data:text/javascript,import('node:fs').then(f=>f.writeFileSync(${JSON.stringify(mark())},''))` },
      autoStart: true,
    });
    expect(msg).to.include("env 'NODE_OPTIONS'").and.include('runtimeServers.allowedEnv');
    expect(existsSync(mark())).to.equal(false);
  });

  it('refuses PATH pointing at a directory the caller filled, and the loader variables node, python, npm and uv read', async () => {
    expect(await refusal({ name: 'path', type: 'stdio', command: ['node', TEST_SERVER], env: { PATH: planted }, autoStart: true })).to.include("env 'PATH'");
    for (const variable of ['LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'PYTHONPATH', 'PYTHONSTARTUP', 'npm_config_registry', 'UV_INDEX_URL', 'BASH_ENV', 'HOME']) {
      expect(await refusal({ name: 'loader', type: 'stdio', command: ['node', TEST_SERVER], env: { [variable]: '/tmp/x' } })).to.include(`'${variable}'`);
    }
    expect(existsSync(mark())).to.equal(false);
  });

  it('starts a server whose command line matches a pinned entry, with an ordinary and an allowedEnv variable, and calls it', async () => {
    const r = await callTool(client, 'core_mcpserver_create', {
      name: 'pinned',
      type: 'stdio',
      command: ['node', TEST_SERVER],
      env: { API_REGION: 'eu', UV_THREADPOOL_SIZE: '8' },
      autoStart: true,
    });
    expect(r.isError, text(r)).to.not.equal(true);
    await eventually(
      () => status('pinned'),
      (s) => s.state === 'running',
      20_000,
    );
    const pong = await callTool(client, 'x_pinned_ping');
    expect(text(pong)).to.match(/^pong from test-server pid \d+/);
  });

  it('"..." admits further arguments; without it the count is exact', async () => {
    const more = await callTool(client, 'core_mcpserver_create', {
      name: 'further',
      type: 'stdio',
      command: ['node', TEST_SERVER, 'stdio', '--name', 'further-one'],
      autoStart: true,
    });
    expect(more.isError, text(more)).to.not.equal(true);
    await eventually(
      () => status('further'),
      (s) => s.state === 'running',
      20_000,
    );
    expect(text(await callTool(client, 'x_further_ping'))).to.match(/^pong from further-one /);
    // The exact entry does not take a second argument, and the glob entry needs `stdio` second.
    const extra = await refusal({ name: 'extra', type: 'stdio', command: ['node', TEST_SERVER, 'http', '0'] });
    expect(extra).to.include(`takes exactly 1`).and.include('argument 2 does not match');
    // A changed command line on update is held to the same entries.
    const update = await callTool(client, 'core_mcpserver_update', { name: 'pinned', args: ['--inspect=0.0.0.0:9229'] });
    expect(errorCode(update), text(update)).to.equal('FORBIDDEN');
    const env = await callTool(client, 'core_mcpserver_update', { name: 'pinned', env: { NODE_OPTIONS: '--require=/tmp/x.js' } });
    expect(errorCode(env), text(env)).to.equal('FORBIDDEN');
    expect(text(env)).to.include("'NODE_OPTIONS'");
  });

  it('core_mcpserver_validate reports what create would refuse', async () => {
    const r = await callTool(client, 'core_mcpserver_validate', { name: 'v', type: 'stdio', command: ['npx', '-c', 'id'], env: { PYTHONPATH: '/tmp' } });
    expect(errorCode(r)).to.equal('VALIDATION_FAILED');
    const report = (r.structuredContent as { error: { details: { valid: boolean; errors: string[] } } }).error.details;
    expect(report.valid).to.equal(false);
    expect(report.errors.join('\n')).to.include("the command 'npx' is admitted only with pinned arguments").and.include("env 'PYTHONPATH'");
  });

  it("runs the executable from Switchboard's PATH, not from the PATH the definition's env sets", async () => {
    await eventually(
      () => status('operator'),
      (s) => s.state === 'running',
      20_000,
    );
    expect(text(await callTool(client, 'x_operator_ping'))).to.match(/^pong from test-server /);
    expect(existsSync(mark())).to.equal(false);
  });
});

describe('security: switchboard check warns about interpreters admitted with any arguments', function () {
  this.timeout(30_000);
  it('names node and npx, not a pinned entry nor an ordinary program', async () => {
    const dir = await makeConfigDir({
      'config.yaml': 'runtimeServers:\n  allowedCommands: [node, npx, my-mcp-server, { command: uvx, args: [mcp-server-time] }]\n',
    });
    try {
      const r = spawnSync(process.execPath, [CLI, 'check', '--config-path', dir], { encoding: 'utf8' });
      expect(r.status, r.stderr).to.equal(0);
      const warned = r.stderr.split('\n').filter((l) => l.includes('runtimeServers.allowedCommands'));
      expect(warned).to.have.length(2);
      expect(warned[0]).to.include("'node' is admitted with any arguments").and.include('any program');
      expect(warned[1]).to.include("'npx' is admitted with any arguments");
      expect(r.stdout).to.include('2 warnings');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a '...' that is not the last argument pattern, naming where", async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'runtimeServers:\n  allowedCommands:\n    - { command: node, args: ["...", server.js] }\n' });
    try {
      const r = spawnSync(process.execPath, [CLI, 'check', '--config-path', dir], { encoding: 'utf8' });
      expect(r.status).to.equal(1);
      expect(r.stderr).to.include('config.yaml:3:').and.include("runtimeServers.allowedCommands.0.args.0: '...' (any further arguments) must be the last");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
