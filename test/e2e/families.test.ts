import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ChildProcess } from 'node:child_process';
import {
  callTool,
  connectHttp,
  connectHttpWithHeaders,
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
type Described = { description: string; inputSchema: { properties: Record<string, { enum?: string[] }>; required: string[] } };

const member = (name: string, extra: string[] = [], family = 'k8s', instanceArg = 'cluster') =>
  stdioServer(name, TEST_SERVER, ['--name', name, ...extra], `family: { name: ${family}, instanceArg: ${instanceArg} }\n`);

describe('server families: one surface for the same server run per cluster', () => {
  let sb: Running;
  let client: Client;
  let remote: ChildProcess;
  const names = async (c: Client = client) => (await meta<{ tools: { name: string }[] }>(c, 'list_tools', { limit: 500 })).tools.map((t) => t.name);
  const describe_ = (name: string) => meta<Described>(client, 'describe_tool', { name });
  const core = <T = Obj>(name: string, args: Obj = {}) => meta<T>(client, 'call_tool', { name, arguments: args });

  before(async () => {
    // A fourth member over streamable HTTP: a family mixes transports freely.
    const port = await freePort();
    remote = await startNode([TEST_SERVER, 'http', String(port), '--name', 'c4'], {}, /listening \d+/);
    sb = await startSwitchboard({
      'mcpservers/c4.yaml': `name: c4\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\nfamily: { name: k8s, instanceArg: cluster }\n`,
      'config.yaml': 'toolsetPresets:\n  c1-only:\n    include:\n      - server: c1\n',
      'mcpservers/c1.yaml': member('c1'),
      'mcpservers/c2.yaml': member('c2', ['--lacks', 'add']),
      'mcpservers/c3.yaml': member('c3', ['--ping-description', 'Answer pong from the third cluster.']),
      'mcpservers/solo.yaml': stdioServer('solo', TEST_SERVER),
      'mcpservers/odd.yaml': member('odd', [], 'fam2', 'ms'),
    });
    client = await connectHttp(sb.url);
    await eventually(
      () => names(),
      (n) => n.includes('x_k8s_add') && n.includes('x_fam2_ping'),
      10_000,
    );
  });

  after(async () => {
    await client?.close();
    await sb?.stop();
    remote?.kill();
  });

  it('lists each family tool once, under the family name; only a tool described differently keeps member copies', async () => {
    const listed = await names();
    expect(listed).to.include.members(['x_k8s_add', 'x_k8s_slow', 'x_solo_ping']);
    // c3 words ping differently: ping falls back to every member's own name (reference-behaviour §9).
    expect(listed.filter((n) => /^x_c\d_/.test(n))).to.deep.equal(['x_c1_ping', 'x_c2_ping', 'x_c3_ping', 'x_c4_ping']);
    expect(listed).to.not.include('x_k8s_ping');
  });

  it('requires the instance argument, whose values are the members that have the tool', async () => {
    const add = await describe_('x_k8s_add');
    expect(add.inputSchema.properties.cluster!.enum).to.deep.equal(['c1', 'c3', 'c4']);
    expect(add.inputSchema.required).to.include.members(['cluster', 'a', 'b']);
    expect(add.description).to.equal('Add two numbers and return the sum. (available on servers: c1, c3, c4)');
    const slow = await describe_('x_k8s_slow');
    expect(slow.inputSchema.properties.cluster!.enum).to.deep.equal(['c1', 'c2', 'c3', 'c4']);
    expect((await describe_('x_c3_ping')).description).to.equal('Answer pong from the third cluster.');
  });

  it('routes a call to the chosen member; a member without the tool is refused naming the members that have it', async () => {
    expect(text(await callTool(client, 'x_k8s_slow', { cluster: 'c2', ms: 1 }))).to.equal('waited 1');
    expect(text(await callTool(client, 'x_c3_ping'))).to.match(/^pong from c3 /);
    expect(text(await callTool(client, 'x_c4_ping'))).to.match(/^pong from c4 /);
    const sum = await callTool(client, 'x_k8s_add', { cluster: 'c3', a: 2, b: 3 });
    expect(sum.structuredContent).to.deep.equal({ sum: 5 });
    const refused = await callTool(client, 'x_k8s_add', { cluster: 'c2', a: 1, b: 1 });
    expect(errorCode(refused)).to.equal('INVALID_ARGUMENTS');
    expect(text(refused)).to.include('tool x_k8s_add is not available on server "c2" (available: c1, c3, c4)');
  });

  it('toolsets and presets match a family tool by its members; filter_tools finds it', async () => {
    const { client: scoped, setHeaders } = await connectHttpWithHeaders(sb.url);
    try {
      setHeaders({ 'X-Service-Toolset': 'server:c2' });
      const c2 = await names(scoped);
      expect(c2).to.include.members(['x_k8s_slow', 'x_c2_ping']).and.not.include('x_k8s_add');
      setHeaders({ 'X-Service-Toolset': 'preset:c1-only' });
      expect(await names(scoped))
        .to.include.members(['x_c1_ping', 'x_k8s_add'])
        .and.not.include('x_c2_ping');
    } finally {
      await scoped.close();
    }
    const found = await meta<{ tools: { name: string }[] }>(client, 'filter_tools', { query: 'pong alive', limit: 10 });
    expect(found.tools.map((t) => t.name)).to.include('x_c1_ping');
  });

  it('a tool that already has an argument named like the instance argument keeps its member name', async () => {
    const listed = await names();
    expect(listed).to.include.members(['x_fam2_ping', 'x_odd_slow']).and.not.include('x_fam2_slow');
    const status = await core<{ metadata: { family: { name: string; refused: { tool: string; reason: string }[] } } }>('core_service_status', { name: 'odd' });
    expect(status.metadata.family.refused).to.deep.equal([
      { tool: 'slow', reason: "tool 'slow' already has an argument named 'ms', the family's instance argument, on odd" },
    ]);
    await sb.waitForLog(/\[switchboard:upstreams:odd\] not joining family 'fam2': tool 'slow' already has an argument named 'ms'/);
  });

  it('follows members live: a stopped member leaves the enum, a deleted one the family, a started one returns', async () => {
    await core('core_service_stop', { name: 'c3' });
    expect((await describe_('x_k8s_add')).inputSchema.properties.cluster!.enum).to.deep.equal(['c1', 'c4']);
    // Without c3's wording, ping no longer differs: it is one family tool again.
    expect((await describe_('x_k8s_ping')).inputSchema.properties.cluster!.enum).to.deep.equal(['c1', 'c2', 'c4']);
    await core('core_service_stop', { name: 'c4' });

    await core('core_service_stop', { name: 'c1' });
    await core('core_mcpserver_delete', { name: 'c1' });
    expect(await names()).to.not.include('x_k8s_add');
    expect((await describe_('x_k8s_ping')).inputSchema.properties.cluster!.enum).to.deep.equal(['c2']);

    await core('core_service_start', { name: 'c3' });
    expect((await describe_('x_k8s_add')).inputSchema.properties.cluster!.enum).to.deep.equal(['c3']);
    const servers = await meta<{ servers: { name: string; tools: number }[] }>(client, 'list_servers');
    expect(servers.servers.find((s) => s.name === 'c3')!.tools).to.be.greaterThan(0);
  });
});
