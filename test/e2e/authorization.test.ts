/**
 * Authorization with the built-in roles, through the real protocol: a real OpenID provider
 * signs alice (group platform: an administrator), bob and carol (group apps) in; each uses
 * Switchboard through the SDK client with the token it got.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, errorCode, eventually, meta, metaRaw, startSwitchboard, TEST_SERVER, text, type Running } from '../support/harness.js';
import { clientAs, protectedForSuite } from '../support/oauth-setup.js';

/** Ask the identity provider for groups too: the admins list names a group. */
const GROUPS_SCOPES = '        scopes: [openid, profile, email, groups, offline_access]';

interface Listed {
  tools: { name: string }[];
}

async function names(c: Client): Promise<string[]> {
  return (await meta<Listed>(c, 'list_tools', { limit: 500 })).tools.map((t) => t.name);
}

function forbiddenMessage(r: Awaited<ReturnType<typeof callTool>>): string {
  expect(errorCode(r), text(r)).to.equal('FORBIDDEN');
  return text(r);
}

const SERVER_ARGS = { name: 'alices', type: 'stdio', command: ['node', TEST_SERVER, 'alices'], autoStart: true };

describe('authorization: built-in roles with OAuth protection', function () {
  this.timeout(60_000);
  const setup = protectedForSuite({ serverYaml: `${GROUPS_SCOPES}\nauthorization:\n  admins: ['group:platform']` });
  let alice: Client;
  let bob: Client;
  let carol: Client;

  before(async () => {
    alice = await clientAs(setup(), 'alice');
    bob = await clientAs(setup(), 'bob');
    carol = await clientAs(setup(), 'carol');
  });
  after(async () => {
    for (const c of [alice, bob, carol]) await c?.close();
  });

  it('an administrator creates a stdio server; it records who registered it', async () => {
    const created = await callTool(alice, 'core_mcpserver_create', SERVER_ARGS);
    expect(created.isError, text(created)).to.not.equal(true);
    expect(created.structuredContent).to.include({ name: 'alices', registeredBy: 'person:alice' });
    await eventually(
      () => names(alice),
      (n) => n.includes('x_alices_ping'),
    );
    const listed = await meta<{ mcpServers: { name: string; registeredBy?: string }[] }>(alice, 'call_tool', { name: 'core_mcpserver_list', arguments: {} });
    expect(listed.mcpServers.find((s) => s.name === 'alices')?.registeredBy).to.equal('person:alice');
  });

  it('anyone else is told the tool does not exist, as for an unknown name, and the audit trail keeps the rule', async () => {
    const r = await callTool(bob, 'core_mcpserver_create', { ...SERVER_ARGS, name: 'bobs' });
    expect(errorCode(r), text(r)).to.equal('TOOL_NOT_FOUND');
    expect(text(r)).to.equal('tool not found: core_mcpserver_create');
    await setup().sb.waitForLog(/audit: denied bob@example\.com call on tool 'core_mcpserver_create' \[rule: built-in:admins-only\]/);
  });

  it("admin core tools are absent from a non-administrator's discovery", async () => {
    const bobs = await names(bob);
    for (const t of ['core_mcpserver_create', 'core_mcpserver_delete', 'core_service_stop', 'core_config_save', 'core_config_update_aggregator'])
      expect(bobs).to.not.include(t);
    // Reading, calling external tools and writing workflows stay open to everyone signed in.
    for (const t of ['core_mcpserver_list', 'core_workflow_create', 'x_tools_ping', 'x_alices_ping']) expect(bobs).to.include(t);
    const filtered = await meta<Listed>(bob, 'filter_tools', { pattern: 'core_config_*', limit: 50 });
    expect(filtered.tools.map((t) => t.name)).to.not.include('core_config_save');
    expect((await metaRaw(bob, 'describe_tool', { name: 'core_config_save' })).isError).to.equal(true);
    expect(await names(alice)).to.include.members(['core_mcpserver_create', 'core_config_save']);
  });

  it("core_config_save and stopping the administrator's server are refused to others (as unknown tools)", async () => {
    for (const [tool, args] of [
      ['core_config_save', {}],
      ['core_service_stop', { name: 'alices' }],
      ['core_mcpserver_delete', { name: 'alices' }],
    ] as const) {
      const r = await callTool(bob, tool, args);
      expect(errorCode(r), text(r)).to.equal('TOOL_NOT_FOUND');
    }
    const status = await meta<{ state: string }>(alice, 'call_tool', { name: 'core_service_status', arguments: { name: 'alices' } });
    expect(status.state).to.equal('running');
  });

  it('workflows: a person writes their own; only they or an administrator may change or delete it', async () => {
    const steps = [{ id: 'p', tool: 'x_tools_ping' }];
    const created = await callTool(bob, 'core_workflow_create', { name: 'bobs-flow', steps });
    expect(created.isError, text(created)).to.not.equal(true);
    const got = await meta<{ registeredBy?: string }>(carol, 'call_tool', { name: 'core_workflow_get', arguments: { name: 'bobs-flow' } });
    expect(got.registeredBy).to.equal('person:bob');
    expect(forbiddenMessage(await callTool(carol, 'core_workflow_update', { name: 'bobs-flow', description: 'mine now' }))).to.include(
      'built-in:owner-or-admin',
    );
    expect(forbiddenMessage(await callTool(carol, 'core_workflow_delete', { name: 'bobs-flow' }))).to.include('built-in:owner-or-admin');
    const updated = await callTool(bob, 'core_workflow_update', { name: 'bobs-flow', description: "still bob's" });
    expect(updated.isError, text(updated)).to.not.equal(true);
    // The update keeps the owner.
    const again = await meta<{ registeredBy?: string }>(bob, 'call_tool', { name: 'core_workflow_get', arguments: { name: 'bobs-flow' } });
    expect(again.registeredBy).to.equal('person:bob');
    const byAdmin = await callTool(alice, 'core_workflow_update', { name: 'bobs-flow', description: 'fixed by an administrator' });
    expect(byAdmin.isError, text(byAdmin)).to.not.equal(true);
  });

  it('executions: each person sees their own runs (inputs through execution_get), administrators see all', async () => {
    const created = await callTool(alice, 'core_workflow_create', {
      name: 'secret-input',
      args: { password: { type: 'string', required: true } },
      steps: [{ id: 'p', tool: 'x_tools_ping' }],
    });
    expect(created.isError, text(created)).to.not.equal(true);
    const ran = await callTool(alice, 'workflow_secret-input', { password: 'hunter2-alice' });
    expect(ran.isError, text(ran)).to.not.equal(true);
    const bobRan = await callTool(bob, 'workflow_secret-input', { password: 'hunter2-bob' });
    expect(bobRan.isError, text(bobRan)).to.not.equal(true);

    // List entries are summaries without input (reference-behaviour.md §7); the input is in execution_get.
    type Listing = { executions: { execution_id: string; input?: unknown }[]; total: number };
    type Run = { input: { password?: string }; caller?: string };
    const list = (c: Client) => meta<Listing>(c, 'call_tool', { name: 'core_workflow_execution_list', arguments: { workflow_name: 'secret-input' } });
    const get = (c: Client, id: string) => meta<Run>(c, 'call_tool', { name: 'core_workflow_execution_get', arguments: { execution_id: id } });
    const bobs = await list(bob);
    expect(bobs.total).to.equal(1);
    expect(bobs.executions[0]!.input).to.equal(undefined);
    expect((await get(bob, bobs.executions[0]!.execution_id)).input.password).to.equal('hunter2-bob');
    expect(JSON.stringify(bobs)).to.not.include('hunter2-alice');
    const alices = await list(alice);
    expect(alices.total).to.equal(2);
    const runs = await Promise.all(alices.executions.map((e) => get(alice, e.execution_id).then((r) => ({ ...r, execution_id: e.execution_id }))));
    const alicesRun = runs.find((e) => e.input.password === 'hunter2-alice')!;
    expect(alicesRun.caller).to.equal('person:alice');
    const peek = await callTool(bob, 'core_workflow_execution_get', { execution_id: alicesRun.execution_id });
    expect(errorCode(peek)).to.equal('NOT_FOUND');
  });

  it('events name the actor; administrators read them all, others only their own', async () => {
    type Events = { events: { reason: string; actor?: { key: string; name: string }; message: string }[] };
    const all = await meta<Events>(alice, 'call_tool', { name: 'core_events', arguments: { limit: 1000 } });
    const denied = all.events.find((e) => e.reason === 'Denied' && e.actor?.key === 'person:bob');
    expect(denied, JSON.stringify(all.events.map((e) => e.reason))).to.not.equal(undefined);
    expect(denied!.message).to.include('built-in:admins-only');
    expect(all.events.some((e) => e.reason === 'Created' && e.actor?.key === 'person:alice')).to.equal(true);
    const bobs = await meta<Events>(bob, 'call_tool', { name: 'core_events', arguments: { limit: 1000 } });
    expect(bobs.events.length).to.be.greaterThan(0);
    for (const e of bobs.events) expect(e.actor?.key).to.equal('person:bob');
    expect(JSON.stringify(bobs)).to.not.include('person:alice');
  });
});

describe('authorization: nobody named an administrator', function () {
  this.timeout(60_000);
  const setup = protectedForSuite({ serverYaml: GROUPS_SCOPES });

  it('warns at startup and refuses admin operations to everyone (fail closed)', async () => {
    await setup().sb.waitForLog(/authorization\.admins names nobody/);
    const alice = await clientAs(setup(), 'alice');
    const refused = await callTool(alice, 'core_mcpserver_create', SERVER_ARGS);
    expect(errorCode(refused), text(refused)).to.equal('TOOL_NOT_FOUND');
    await setup().sb.waitForLog(/audit: denied alice@example\.com call on tool 'core_mcpserver_create' \[rule: built-in:admins-only\]/);
    expect(await names(alice)).to.include('x_tools_ping');
    await alice.close();
  });
});

describe('authorization without OAuth: the local caller is the administrator', function () {
  this.timeout(60_000);
  let sb: Running;
  let c: Client;
  before(async () => {
    sb = await startSwitchboard({ 'config.yaml': 'runtimeServers:\n  allowedCommands: [node]\n' });
    const { connectHttp } = await import('../support/harness.js');
    c = await connectHttp(sb.url);
  });
  after(async () => {
    await c?.close();
    await sb?.stop();
  });

  it('creates servers as before, recorded as registered by local', async () => {
    const created = await callTool(c, 'core_mcpserver_create', { ...SERVER_ARGS, name: 'mine' });
    expect(created.isError, text(created)).to.not.equal(true);
    expect(created.structuredContent).to.include({ registeredBy: 'local' });
  });

  it('runtimeServers.allowedCommands refuses any other executable, administrators included', async () => {
    const msg = forbiddenMessage(
      await callTool(c, 'core_mcpserver_create', { name: 'shell', type: 'stdio', command: ['sh', '-c', 'id > proof.txt'], autoStart: true }),
    );
    expect(msg).to.include("'sh'").and.include('runtimeServers.allowedCommands: [node]');
    // Changing an admitted server's command to another executable is refused the same way.
    expect(forbiddenMessage(await callTool(c, 'core_mcpserver_update', { name: 'mine', command: ['/bin/sh', '-c', 'true'] }))).to.include("'/bin/sh'");
  });
});
