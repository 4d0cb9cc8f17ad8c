import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectHttp,
  errorCode,
  eventually,
  EVERYTHING,
  freePort,
  meta,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

type Obj = Record<string, unknown>;

async function core<T = Obj>(client: Client, name: string, args: Obj = {}): Promise<T> {
  return meta<T>(client, 'call_tool', { name, arguments: args });
}

async function toolNames(client: Client): Promise<string[]> {
  return (await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 1000 })).tools.map((t) => t.name);
}

const SPEC_ANNOTATIONS: Record<string, [boolean, boolean, boolean, boolean]> = {
  core_service_list: [true, false, true, false],
  core_service_status: [true, false, true, false],
  core_service_start: [false, false, true, false],
  core_service_stop: [false, true, true, false],
  core_service_restart: [false, true, false, false],
  core_config_get: [true, false, true, false],
  core_config_get_aggregator: [true, false, true, false],
  core_config_update_aggregator: [false, true, true, false],
  core_config_save: [false, true, true, false],
  core_config_reload: [false, true, true, false],
  core_mcpserver_list: [true, false, true, false],
  core_mcpserver_get: [true, false, true, false],
  core_mcpserver_validate: [true, false, true, false],
  core_mcpserver_detect: [true, false, true, true],
  core_mcpserver_create: [false, false, false, false],
  core_mcpserver_update: [false, true, true, false],
  core_mcpserver_delete: [false, true, false, false],
  core_workflow_list: [true, false, true, false],
  core_workflow_get: [true, false, true, false],
  core_workflow_validate: [true, false, true, false],
  core_workflow_available: [true, false, true, false],
  core_workflow_execution_list: [true, false, true, false],
  core_workflow_execution_get: [true, false, true, false],
  core_workflow_create: [false, false, false, false],
  core_workflow_update: [false, true, true, false],
  core_workflow_delete: [false, true, false, false],
};

describe('core tools through call_tool', () => {
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({
      'config.yaml':
        '# the operator keeps notes here\naggregator:\n  host: 127.0.0.1 # loopback only\n  network:\n    allow: [127.0.0.1] # detect probes loopback fixtures\n',
      'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER),
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('carries exactly the annotations of the specification on every core tool', async () => {
    const { tools } = await meta<{ tools: { name: string; annotations: Obj }[] }>(client, 'list_core_tools');
    const byName = new Map(tools.map((t) => [t.name, t.annotations]));
    for (const [name, [r, d, i, o]] of Object.entries(SPEC_ANNOTATIONS)) {
      expect(byName.get(name), name).to.deep.equal({ readOnlyHint: r, destructiveHint: d, idempotentHint: i, openWorldHint: o });
    }
  });

  describe('core_service_*', () => {
    it('lists the aggregator and each MCP server', async () => {
      const r = await core<{ services: { name: string; service_type: string; state: string; health: string; metadata: Obj }[]; total: number }>(
        client,
        'core_service_list',
      );
      expect(r.total).to.equal(2);
      const agg = r.services.find((s) => s.name === 'aggregator')!;
      expect(agg).to.deep.include({ service_type: 'Aggregator', state: 'running', health: 'healthy' });
      expect(agg.metadata.port).to.equal(sb.port);
      expect(agg.metadata.servers_connected).to.equal(1);
      expect(agg.metadata.tools).to.be.a('number').greaterThan(10);
      const fixture = r.services.find((s) => s.name === 'fixture')!;
      expect(fixture).to.deep.include({ service_type: 'MCPServer', state: 'running', health: 'healthy' });
      expect(fixture.metadata.autoStart).to.equal(true);
      expect(fixture.metadata.command).to.deep.equal(['node', '--no-memory-reducer', TEST_SERVER]);
    });

    it('reports NOT_FOUND for an unknown service and refuses to start or stop the aggregator', async () => {
      expect(errorCode(await callTool(client, 'core_service_status', { name: 'nope' }))).to.equal('NOT_FOUND');
      const r = await callTool(client, 'core_service_stop', { name: 'aggregator' });
      expect(errorCode(r)).to.equal('UNSUPPORTED');
      expect(text(r)).to.include('static service');
    });

    it('stops a server (its tools leave), starts it again (they return), restarts it once', async () => {
      const stopped = await core<{ state: string }>(client, 'core_service_stop', { name: 'fixture' });
      expect(stopped.state).to.equal('stopped');
      expect((await toolNames(client)).some((n) => n.startsWith('x_fixture_'))).to.equal(false);
      const started = await core<{ state: string }>(client, 'core_service_start', { name: 'fixture' });
      expect(started.state).to.equal('running');
      expect(await toolNames(client)).to.include('x_fixture_ping');
      const pid = /pid (\d+)/.exec(text(await callTool(client, 'x_fixture_ping')))![1];
      const restarted = await core<{ state: string; service: { lastRestartedAt: string } }>(client, 'core_service_restart', { name: 'fixture' });
      expect(restarted.state).to.equal('running');
      expect(Date.parse(restarted.service.lastRestartedAt)).to.be.closeTo(Date.now(), 10_000);
      expect(/pid (\d+)/.exec(text(await callTool(client, 'x_fixture_ping')))![1]).to.not.equal(pid);
    });
  });

  describe('core_mcpserver_*', () => {
    it('lists definitions with mode filesystem and gets one', async () => {
      const r = await core<{ mcpServers: { name: string }[]; mode: string; total: number }>(client, 'core_mcpserver_list');
      expect(r.mode).to.equal('filesystem');
      expect(r.total).to.equal(1);
      const one = await core(client, 'core_mcpserver_get', { name: 'fixture' });
      expect(one).to.deep.include({ name: 'fixture', type: 'stdio', autoStart: true });
      expect(errorCode(await callTool(client, 'core_mcpserver_get', { name: 'ghost' }))).to.equal('NOT_FOUND');
    });

    it('creates a server: a YAML file on disk, its tools in the catalogue at once', async () => {
      const created = await core(client, 'core_mcpserver_create', {
        name: 'made',
        type: 'stdio',
        command: ['node', TEST_SERVER],
        autoStart: true,
        description: 'made by a tool',
        env: { A: '1' },
      });
      expect(created).to.deep.include({ name: 'made', description: 'made by a tool' });
      const file = join(sb.configDir, 'mcpservers', 'made.yaml');
      expect(existsSync(file)).to.equal(true);
      expect(readFileSync(file, 'utf8')).to.include('made by a tool');
      await eventually(
        () => toolNames(client),
        (n) => n.includes('x_made_ping'),
        5000,
      );
      const dup = await callTool(client, 'core_mcpserver_create', { name: 'made', type: 'stdio', command: ['node'] });
      expect(errorCode(dup)).to.equal('CONFLICT');
      const invalid = await callTool(client, 'core_mcpserver_create', { name: 'broken', type: 'stdio' });
      expect(errorCode(invalid)).to.equal('VALIDATION_FAILED');
      expect(text(invalid)).to.equal('validation failed: command is required for stdio type');
    });

    it('updates only the given fields; env replaces the whole map', async () => {
      const updated = await core(client, 'core_mcpserver_update', { name: 'made', description: 'changed', env: { B: '2' } });
      expect(updated).to.deep.include({ description: 'changed', autoStart: true });
      // Results never show env values (docs/secrets.md); the file holds what was written.
      expect(updated.env).to.deep.equal({ B: '<redacted>' });
      expect(updated.command).to.deep.equal(['node', TEST_SERVER]);
      const onDisk = readFileSync(join(sb.configDir, 'mcpservers', 'made.yaml'), 'utf8');
      expect(onDisk)
        .to.include('changed')
        .and.match(/B: "?2"?/);
      expect(onDisk).to.not.include('A:');
    });

    it('refuses to delete a running server, deletes a stopped one', async () => {
      // The update before restarted it (env changed): wait until it runs again.
      await eventually(
        () => core(client, 'core_service_status', { name: 'made' }),
        (s) => s.state === 'running',
        10_000,
      );
      const refused = await callTool(client, 'core_mcpserver_delete', { name: 'made' });
      expect(errorCode(refused)).to.equal('CONFLICT');
      expect(text(refused)).to.include('must be stopped first');
      await core(client, 'core_service_stop', { name: 'made' });
      const deleted = await core<{ status: string }>(client, 'core_mcpserver_delete', { name: 'made' });
      expect(deleted.status).to.equal('deleted');
      expect(existsSync(join(sb.configDir, 'mcpservers', 'made.yaml'))).to.equal(false);
      expect((await core<{ total: number }>(client, 'core_mcpserver_list')).total).to.equal(1);
    });

    it('validates without creating: errors and warnings', async () => {
      // Invalid: an error result, the report in its details (reference-behaviour.md §6.1).
      const bad = await callTool(client, 'core_mcpserver_validate', { name: 'x', type: 'sse' });
      expect(bad.isError).to.equal(true);
      expect(text(bad)).to.equal('Validation failed: url is required for streamable-http and sse types');
      expect((bad.structuredContent as { error: { details: Obj } }).error.details).to.deep.include({
        valid: false,
        errors: ['url is required for streamable-http and sse types'],
      });
      const warned = await core<{ valid: boolean; warnings: string[] }>(client, 'core_mcpserver_validate', {
        name: 'fixture',
        type: 'stdio',
        command: ['no-such-binary-here'],
      });
      expect(warned.valid).to.equal(true);
      expect(warned.warnings.join('\n')).to.include("'no-such-binary-here' is not found").and.include('already exists');
      expect((await core<{ total: number }>(client, 'core_mcpserver_list')).total).to.equal(1);
    });
  });

  describe('core_mcpserver_detect', () => {
    const children: ChildProcess[] = [];
    let authServer: Server;
    after(() => {
      for (const c of children) c.kill('SIGTERM');
      authServer?.close();
    });

    const startChild = (args: string[], env: Record<string, string>, ready: RegExp) =>
      new Promise<string>((resolve, reject) => {
        const c = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
        children.push(c);
        let out = '';
        const on = (d: Buffer) => {
          out += d.toString();
          const m = ready.exec(out);
          if (m) resolve(m[1] ?? '');
        };
        c.stdout.on('data', on);
        c.stderr.on('data', on);
        c.once('exit', () => reject(new Error(out)));
      });

    it('never fails for an unreachable URL: transport unknown', async () => {
      const r = await callTool(client, 'core_mcpserver_detect', { url: 'http://127.0.0.1:9/mcp', timeout: 3 });
      expect(r.isError).to.not.equal(true);
      expect(r.structuredContent).to.deep.include({ transport: 'unknown', reachable: false, requiresAuth: false });
    });

    it('recognises a streamable-HTTP server and names it', async () => {
      const port = await startChild([TEST_SERVER, 'http', '0'], {}, /listening (\d+)/);
      const r = await core(client, 'core_mcpserver_detect', { url: `http://127.0.0.1:${port}/mcp` });
      expect(r).to.deep.include({ transport: 'streamable-http', reachable: true, requiresAuth: false, serverName: 'test-server', serverVersion: '1.2.3' });
    });

    it('recognises a legacy SSE server', async () => {
      const port = String(await freePort());
      await startChild([EVERYTHING, 'sse'], { PORT: port }, /running on port()/i);
      const r = await core(client, 'core_mcpserver_detect', { url: `http://127.0.0.1:${port}/sse` });
      expect(r).to.deep.include({ transport: 'sse', reachable: true });
      expect(r.serverName).to.be.a('string');
    });

    it('reports requiresAuth for a 401 challenge', async () => {
      authServer = createServer((_req, res) => {
        res.writeHead(401, { 'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"' }).end();
      });
      await new Promise<void>((r) => authServer.listen(0, '127.0.0.1', () => r()));
      const port = (authServer.address() as { port: number }).port;
      const r = await core(client, 'core_mcpserver_detect', { url: `http://127.0.0.1:${port}/mcp` });
      expect(r).to.deep.include({ reachable: true, requiresAuth: true, transport: 'unknown' });
      expect(r.detail).to.include('401');
    });
  });

  describe('core_config_*', () => {
    it('returns the configuration with capitalised keys', async () => {
      const all = await core<{ Aggregator: Obj; Namespace: string }>(client, 'core_config_get');
      expect(all.Namespace).to.equal('default');
      expect(all.Aggregator).to.deep.include({ Host: '127.0.0.1', Transport: 'streamable-http', Enabled: true });
      const agg = await core(client, 'core_config_get_aggregator');
      expect(Object.keys(agg).sort()).to.deep.equal(['Enabled', 'Host', 'Port', 'ServicePrefix', 'Transport']);
    });

    it('applies ServicePrefix to core tool names at once; a changed Port waits for save and restart', async () => {
      const r = await core<{ aggregator: Obj; restartRequiredFor: string[] }>(client, 'core_config_update_aggregator', {
        aggregator: { ServicePrefix: 'sb', Port: 9191 },
      });
      expect(r.aggregator).to.deep.include({ ServicePrefix: 'sb', Port: 9191 });
      expect(r.restartRequiredFor).to.deep.equal(['Port']);
      const names = await toolNames(client);
      expect(names).to.include('sb_core_service_list').and.include('sb_core_workflow_list');
      expect(names).to.not.include('core_service_list');
      const bad = await callTool(client, 'sb_core_config_update_aggregator', { aggregator: { Transport: 'pigeon' } });
      expect(errorCode(bad)).to.equal('INVALID_ARGUMENTS');
    });

    it("saves to config.yaml keeping the operator's comments", async () => {
      const r = await core<{ status: string; files: string[] }>(client, 'sb_core_config_save');
      expect(r.status).to.equal('saved');
      const saved = readFileSync(join(sb.configDir, 'config.yaml'), 'utf8');
      expect(saved).to.include('# the operator keeps notes here').and.include('# loopback only');
      expect(saved)
        .to.match(/servicePrefix: sb/)
        .and.match(/port: 9191/);
    });

    it('reload discards unsaved changes', async () => {
      await core(client, 'sb_core_config_update_aggregator', { aggregator: { ServicePrefix: 'tmp' } });
      expect(await toolNames(client)).to.include('tmp_core_config_reload');
      const r = await core<{ status: string; errors: string[] }>(client, 'tmp_core_config_reload');
      expect(r).to.deep.equal({ status: 'reloaded', errors: [] });
      const names = await toolNames(client);
      expect(names).to.include('sb_core_config_get').and.not.include('tmp_core_config_get');
    });
  });
});
