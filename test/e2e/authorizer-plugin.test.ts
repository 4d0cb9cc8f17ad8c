/**
 * The Authorizer contract from outside: a third-party authorizer loaded by module path (the
 * built-in roles disabled) decides, and visibility follows it everywhere a toolset narrows:
 * meta-tools, native resources and prompts, list_servers.
 */
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectHttp,
  errorCode,
  EVERYTHING,
  makeConfigDir,
  meta,
  metaRaw,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

/** Denies calling any tool of server `t`; allows everything else. */
const AUTHORIZER = `export default {
  name: 'no-t',
  setup({ kernel }) {
    kernel.services.provide('authorizer', {
      name: 'no-t',
      version: 0,
      decide(principal, action, resource) {
        if (action === 'call' && resource.type === 'tool' && resource.server === 't') return { allowed: false, rule: 'no-t:tools', reason: 'server t is closed' };
        return { allowed: true, rule: 'no-t:rest' };
      },
    });
  },
};
`;

describe('a third-party authorizer plugin: visibility follows its decisions', function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;

  before(async () => {
    const dir = await makeConfigDir({
      'config.yaml': 'plugins:\n  authorization: false\n  no-t:\n    module: ./no-t.js\n',
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
      'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
    });
    await writeFile(join(dir, 'no-t.js'), AUTHORIZER);
    sb = await startSwitchboard({}, { configDir: dir });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('hides the tools it denies from discovery and refuses a call as for an unknown tool; the audit names its rule', async () => {
    const listed = await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 500 });
    const names = listed.tools.map((t) => t.name);
    expect(names.some((n) => n.startsWith('x_t_'))).to.equal(false);
    expect(names).to.include('x_everything_echo');
    expect((await metaRaw(client, 'describe_tool', { name: 'x_t_ping' })).isError).to.equal(true);
    const refused = await callTool(client, 'x_t_ping');
    expect(errorCode(refused)).to.equal('TOOL_NOT_FOUND');
    expect(text(refused)).to.not.include('no-t:tools');
    await sb.waitForLog(/audit: denied local call on tool 'x_t_ping' \[rule: no-t:tools\]/);
  });

  it('hides the resources and prompts of a server whose every tool it denies, natively and through the meta-tools', async () => {
    const resources = (await client.listResources()).resources.map((r) => r.uri);
    expect(resources).to.not.include('test://greeting');
    expect(resources.some((u) => u.startsWith('demo://'))).to.equal(true);
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).to.not.include('x_t_summarize');
    expect(prompts.some((p) => p.startsWith('x_everything_'))).to.equal(true);
    const viaMeta = await meta<{ resources: { uri: string }[] }>(client, 'list_resources');
    expect(viaMeta.resources.map((r) => r.uri)).to.not.include('test://greeting');
    let read: unknown;
    try {
      read = await client.readResource({ uri: 'test://greeting' });
    } catch (err) {
      read = err;
    }
    expect(read).to.be.instanceOf(Error);
    const servers = await meta<{ servers: { name: string }[] }>(client, 'list_servers');
    expect(servers.servers.map((s) => s.name)).to.deep.equal(['everything']);
  });
});
