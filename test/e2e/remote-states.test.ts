/**
 * reference-behaviour.md §8, through the protocol: a remote server reports `connected` and,
 * once stopped, `disconnected` where a stdio server reports `running` and `stopped`, in every
 * place a state is shown (core_service_status and _list, list_servers, the admin pages, the
 * metrics gauge); a call to a stopped server's tool and a call to an unknown tool use the words
 * clients of the reference match on.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ChildProcess } from 'node:child_process';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  callTool,
  connectHttp,
  errorCode,
  eventually,
  freePort,
  meta,
  startNode,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

type Obj = Record<string, unknown>;
type Status = { name: string; state: string; health: string };

describe('remote server states and calls to stopped servers (reference-behaviour §8)', () => {
  let sb: Running;
  let client: Client;
  let upstream: ChildProcess;
  let admin: string;
  let metricsUrl: string;
  const core = <T = Obj>(name: string, args: Obj = {}) => meta<T>(client, 'call_tool', { name, arguments: args });
  const status = (name: string) => core<Status>('core_service_status', { name });
  const listed = async () => (await core<{ services: Status[] }>('core_service_list')).services;
  const servers = async () => (await meta<{ servers: Status[] }>(client, 'list_servers')).servers;
  const gauge = async (server: string, state: string) => {
    const body = await (await fetch(metricsUrl)).text();
    const line = body
      .split('\n')
      .find((l) => l.startsWith('switchboard_upstream_state{') && l.includes(`switchboard_server="${server}"`) && l.includes(`switchboard_state="${state}"`));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  const adminState = async (server: string) => {
    const page = await (await fetch(`${admin}/mcps/${server}`)).text();
    return /id="state">([^<]*)</.exec(page)?.[1];
  };
  const refused = (r: CallToolResult, code: string) => {
    expect(errorCode(r), text(r)).to.equal(code);
    return text(r);
  };

  before(async () => {
    const port = await freePort();
    upstream = await startNode([TEST_SERVER, 'http', String(port), '--name', 'remote'], {}, /listening \d+/);
    const adminPort = await freePort();
    const metricsPort = await freePort();
    admin = `http://127.0.0.1:${adminPort}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    sb = await startSwitchboard(
      {
        'config.yaml': `aggregator:\n  admin:\n    enabled: true\n    port: ${adminPort}\n`,
        'mcpservers/remote.yaml': `name: remote\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\n`,
        'mcpservers/local.yaml': stdioServer('local', TEST_SERVER),
      },
      { env: { OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1', OTEL_EXPORTER_PROMETHEUS_PORT: String(metricsPort) } },
    );
    client = await connectHttp(sb.url);
    await eventually(
      () => status('remote'),
      (s) => s.state === 'connected',
      15_000,
    );
  });

  after(async () => {
    await client?.close();
    await sb?.stop();
    upstream?.kill();
  });

  it('a connected remote server says connected where a stdio one says running, everywhere a state is shown', async () => {
    expect(await status('remote')).to.deep.include({ state: 'connected', health: 'healthy' });
    expect(await status('local')).to.deep.include({ state: 'running', health: 'healthy' });
    expect((await listed()).find((s) => s.name === 'remote')).to.deep.include({ state: 'connected' });
    expect((await servers()).find((s) => s.name === 'remote')).to.deep.include({ state: 'connected' });
    expect((await servers()).find((s) => s.name === 'local')).to.deep.include({ state: 'running' });
    expect(await adminState('remote')).to.equal('connected');
    expect(await gauge('remote', 'connected')).to.equal(1);
    // A remote server has no `running` series to stay at 0 forever, a stdio one no `connected`.
    expect(await gauge('remote', 'running')).to.equal(undefined);
    expect(await gauge('local', 'running')).to.equal(1);
    expect(await gauge('local', 'connected')).to.equal(undefined);
  });

  it('core_service_start of a connected server is a no-op; delete of it is still refused (the interface binds "stopped first")', async () => {
    const started = await core('core_service_start', { name: 'remote' });
    expect(started).to.deep.include({ status: 'ok', state: 'connected', message: "Server 'remote' is already connected" });
    expect(text(await callTool(client, 'x_remote_ping'))).to.match(/^pong from remote/);
    const deleted = await callTool(client, 'core_mcpserver_delete', { name: 'remote' });
    expect(refused(deleted, 'CONFLICT')).to.include("MCP server 'remote' is connected and must be stopped first");
  });

  it('a stopped remote server says disconnected; a call to its tool is SERVER_UNAVAILABLE with "server not found" and the advice', async () => {
    const stopped = await core('core_service_stop', { name: 'remote' });
    expect(stopped).to.deep.include({ status: 'ok', state: 'disconnected' });
    expect(await status('remote')).to.deep.include({ state: 'disconnected', health: 'unknown' });
    expect((await servers()).find((s) => s.name === 'remote')).to.deep.include({ state: 'disconnected' });
    expect(await adminState('remote')).to.equal('disconnected');
    expect(await gauge('remote', 'disconnected')).to.equal(1);
    expect(await core('core_service_stop', { name: 'remote' })).to.deep.include({ state: 'disconnected', message: "Server 'remote' is already disconnected" });

    const r = await callTool(client, 'x_remote_ping');
    expect(refused(r, 'SERVER_UNAVAILABLE')).to.equal('server not found: remote (stopped; start it with core_service_start {"name":"remote"})');
    expect((r.structuredContent as { error: { details: Obj } }).error.details).to.deep.include({ server: 'remote', state: 'disconnected' });

    expect(await core('core_service_start', { name: 'remote' })).to.deep.include({ status: 'ok', state: 'connected' });
    expect(text(await callTool(client, 'x_remote_ping'))).to.match(/^pong from remote/);
  });

  it('a stopped stdio server: the same words', async () => {
    await core('core_service_stop', { name: 'local' });
    expect(refused(await callTool(client, 'x_local_ping'), 'SERVER_UNAVAILABLE')).to.equal(
      'server not found: local (stopped; start it with core_service_start {"name":"local"})',
    );
    await core('core_service_start', { name: 'local' });
  });

  it('an unknown tool, and an unknown workflow called through call_tool: "tool not found: <name>"', async () => {
    expect(refused(await callTool(client, 'x_remote_nosuch'), 'TOOL_NOT_FOUND')).to.equal('tool not found: x_remote_nosuch');
    expect(refused(await callTool(client, 'workflow_nosuch'), 'TOOL_NOT_FOUND')).to.equal('tool not found: workflow_nosuch');
  });
});
