/**
 * `disabledTools` in a server's definition (issue 39): the tools named are left out of the
 * catalogue, so filter_tools, list_tools and a toolset narrowed to the server all lose them and
 * call_tool refuses them as unknown; changing the list (by core_mcpserver_update or by editing
 * the file) brings them back or takes them away without reconnecting the server.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectHttp,
  connectHttpWithHeaders,
  errorCode,
  eventually,
  meta,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  type Running,
} from '../support/harness.js';

async function names(client: Client, args: Record<string, unknown> = {}): Promise<string[]> {
  return (await meta<{ tools: { name: string }[] }>(client, 'filter_tools', { pattern: 'x_calc_*', limit: 50, ...args })).tools.map((t) => t.name);
}

async function pid(client: Client): Promise<unknown> {
  return ((await callTool(client, 'core_service_status', { name: 'calc' })).structuredContent as { metadata: { pid?: number } }).metadata.pid;
}

describe('disabledTools: switching single tools of a server off', function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({
      'config.yaml': 'toolsetPresets:\n  calc-only:\n    include:\n      - server: calc\n',
      'mcpservers/calc.yaml': stdioServer('calc', TEST_SERVER, [], 'disabledTools: [ping]\n'),
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('leaves a switched-off tool out of filter_tools, list_tools and a toolset, and call_tool refuses it', async () => {
    const listed = await names(client);
    expect(listed).to.include('x_calc_add');
    expect(listed).to.not.include('x_calc_ping');
    const all = (await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 500 })).tools.map((t) => t.name);
    expect(all).to.include('x_calc_add').and.not.include('x_calc_ping');
    const { client: scoped, setHeaders } = await connectHttpWithHeaders(sb.url);
    setHeaders({ 'X-Service-Toolset': 'preset:calc-only' });
    expect(await names(scoped))
      .to.include('x_calc_add')
      .and.not.include('x_calc_ping');
    await scoped.close();
    const refused = await callTool(client, 'x_calc_ping');
    expect(errorCode(refused)).to.equal('TOOL_NOT_FOUND');
    expect(((await callTool(client, 'x_calc_add', { a: 1, b: 2 })).structuredContent as { sum: number }).sum).to.equal(3);
  });

  it('core_mcpserver_update changes the list without a reconnect', async () => {
    const before = await pid(client);
    expect(before).to.be.a('number');
    const updated = await callTool(client, 'core_mcpserver_update', { name: 'calc', disabledTools: ['add'] });
    expect(updated.isError, JSON.stringify(updated.structuredContent)).to.not.equal(true);
    const listed = await names(client);
    expect(listed).to.include('x_calc_ping').and.not.include('x_calc_add');
    expect(errorCode(await callTool(client, 'x_calc_add', { a: 1, b: 2 }))).to.equal('TOOL_NOT_FOUND');
    expect(await pid(client)).to.equal(before);
    const shown = (await callTool(client, 'core_mcpserver_get', { name: 'calc' })).structuredContent as { disabledTools?: string[] };
    expect(shown.disabledTools).to.deep.equal(['add']);
  });

  it('an edit of the file switches them back on (an empty list is every tool)', async () => {
    await writeFile(join(sb.configDir, 'mcpservers', 'calc.yaml'), stdioServer('calc', TEST_SERVER, [], 'disabledTools: []\n'));
    const listed = await eventually(
      () => names(client),
      (n) => n.includes('x_calc_add') && n.includes('x_calc_ping'),
      10_000,
      100,
    );
    expect(listed).to.include.members(['x_calc_add', 'x_calc_ping']);
  });

  it('refuses a list that is not one of names', async () => {
    const r = await callTool(client, 'core_mcpserver_update', { name: 'calc', disabledTools: ['ping', 'ping'] });
    expect(errorCode(r)).to.equal('VALIDATION_FAILED');
    expect(JSON.stringify(r.structuredContent)).to.match(/disabledTools/);
  });
});
