/**
 * Cedar policies through the real protocol: a protected Switchboard with the real identity
 * provider (alice in group platform, an administrator; bob in group apps), the memory server
 * over stdio, and a policy file forbidding one of its tools to the apps group. What bob may not
 * call he does not see (list_tools, filter_tools, describe_tool) and call_tool refuses it as an
 * unknown tool, the audit trail naming the policy; alice sees and calls it. Edits to the policy file apply while running, an
 * invalid edit keeps the last good set, and the directory may even disappear and come back.
 * Startup (and `switchboard check`) refuse an invalid policy, naming file and line.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, CLI, errorCode, eventually, makeConfigDir, meta, metaRaw, MEMORY, stdioServer, text } from '../support/harness.js';
import { mcpClient, registerClient, signIn, startProtected, type OAuthSetup } from '../support/oauth-setup.js';

const DELETE = 'x_memory_delete_entities';
const READ = 'x_memory_read_graph';
const PING = 'x_tools_ping';

const DENY_DELETE = [
  '// The apps group may not delete memory entities.',
  '@id("apps-no-delete")',
  `forbid (principal in Group::"apps", action == Action::"call", resource == Tool::"${DELETE}");`,
  '',
].join('\n');

const DENY_DELETE_AND_READ = [
  DENY_DELETE,
  '@id("apps-no-read")',
  `forbid (principal in Group::"apps", action == Action::"call", resource == Tool::"${READ}");`,
  '',
].join('\n');

/** The identity provider is asked for groups too (policies and the admins list name groups); Cedar on. */
const SETTINGS = [
  '        scopes: [openid, profile, email, groups, offline_access]',
  'authorization:',
  "  admins: ['group:platform']",
  'plugins:',
  // Long enough that a loaded machine never ends it before the test writes the rest of a save.
  '  authorization-cedar: { options: { saveGraceMs: 5000 } }',
].join('\n');

async function names(client: Client): Promise<string[]> {
  const listed = await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 500 });
  return listed.tools.map((t) => t.name);
}

function run(...args: string[]): { status: number | null; output: string } {
  // A bound for a command that hangs: `--help` alone took 29 s on a loaded two-core machine.
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 45_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('authorization-cedar: Cedar policies decide what each person sees and calls', function () {
  this.timeout(60_000);
  let setup: OAuthSetup;
  let alice: Client;
  let bob: Client;
  let policyFile: string;

  before(async () => {
    setup = await startProtected({
      serverYaml: SETTINGS,
      files: {
        'mcpservers/memory.yaml': `${stdioServer('memory', MEMORY)}env:\n  MEMORY_FILE_PATH: ./memory.jsonl\n`,
        'policies/deny.cedar': DENY_DELETE,
      },
    });
    policyFile = join(setup.sb.configDir, 'policies', 'deny.cedar');
    const clientId = await registerClient(setup.base);
    setup.idp.signInAs('alice');
    alice = await mcpClient(setup.sb.url, (await signIn(setup.base, clientId)).access_token);
    setup.idp.signInAs('bob');
    bob = await mcpClient(setup.sb.url, (await signIn(setup.base, clientId)).access_token);
    await eventually(
      () => names(alice),
      (n) => n.includes(DELETE),
      15_000,
    );
  });

  after(async () => {
    await alice?.close();
    await bob?.close();
    await setup?.sb.stop();
    await setup?.idp.close();
  });

  it('loads the policy file at startup', () => {
    expect(setup.sb.logs()).to.match(/policies loaded: 1 policies from 1 files in .*policies and the baseline/);
  });

  it('hides the forbidden tool from bob in list_tools, filter_tools and describe_tool', async () => {
    const bobs = await names(bob);
    expect(bobs).to.include(READ);
    expect(bobs).not.to.include(DELETE);
    const filtered = await meta<{ tools: { name: string }[] }>(bob, 'filter_tools', { pattern: 'x_memory_*', limit: 50 });
    expect(filtered.tools.map((t) => t.name))
      .to.include(READ)
      .and.not.include(DELETE);
    const described = await metaRaw(bob, 'describe_tool', { name: DELETE });
    expect(errorCode(described)).to.equal('TOOL_NOT_FOUND');
    expect(text(described)).to.not.include('apps-no-delete');
  });

  it("refuses bob's call_tool as an unknown tool; the audit trail names the policy, its file and line", async () => {
    const r = await callTool(bob, DELETE, { entityNames: ['nobody'] });
    expect(r.isError).to.equal(true);
    expect(errorCode(r)).to.equal('TOOL_NOT_FOUND');
    await setup.sb.waitForLog(/audit: denied bob@example\.com call on tool 'x_memory_delete_entities' \[rule: apps-no-delete \(policies\/deny\.cedar:2\)\]/);
    const allowed = await callTool(bob, READ);
    expect(allowed.isError ?? false, text(allowed)).to.equal(false);
  });

  it('lets alice (group platform, an administrator) see and call it', async () => {
    expect(await names(alice)).to.include(DELETE);
    const described = await meta<{ name: string }>(alice, 'describe_tool', { name: DELETE });
    expect(described.name).to.equal(DELETE);
    const r = await callTool(alice, DELETE, { entityNames: ['nobody'] });
    expect(r.isError ?? false, text(r)).to.equal(false);
  });

  it('applies an edit of the policy file without a restart', async () => {
    await writeFile(policyFile, DENY_DELETE_AND_READ);
    await eventually(
      () => names(bob),
      (n) => !n.includes(READ),
    );
    await setup.sb.waitForLog(/policies reloaded: 2 policies from 1 files/);
    const r = await callTool(bob, READ);
    expect(errorCode(r)).to.equal('TOOL_NOT_FOUND');
    await setup.sb.waitForLog(/\[rule: apps-no-read \(policies\/deny\.cedar:5\)\]/);
    expect(await names(alice))
      .to.include(READ)
      .and.include(DELETE);
  });

  it('keeps its forbids while a policy file saved in place is empty, then applies the rest of the save', async () => {
    // A save in place truncates the file first: read then, it is a valid set without its forbids.
    const from = setup.sb.logs().length;
    const logged = (re: RegExp) =>
      eventually(
        async () => setup.sb.logs().slice(from),
        (l) => re.test(l),
        30_000,
      );
    const file = await open(policyFile, 'w');
    await logged(/policies: \S*deny\.cedar is empty after a change: waiting up to 5000 ms/);
    const bobs = await names(bob);
    expect(bobs).not.to.include(READ);
    expect(bobs).not.to.include(DELETE);
    await file.writeFile(
      `${DENY_DELETE_AND_READ}@id("apps-no-ping")\nforbid (principal in Group::"apps", action == Action::"call", resource == Tool::"${PING}");\n`,
    );
    await file.close();
    expect(await logged(/policies reloaded: 3 policies from 1 files/)).not.to.match(/policies reloaded: 0 policies/);
    expect(await names(bob))
      .not.to.include(PING)
      .and.not.include(READ)
      .and.not.include(DELETE);
  });

  it('keeps the last good set when an edit is invalid, and logs file and line', async () => {
    // Saved as careful editors and ConfigMap mounts save, by a rename: a truncating write read
    // between its truncation and its text is an empty file, a valid (empty) set that would then
    // be the last good one (docs/security.md, policy files).
    const staged = join(setup.sb.configDir, 'deny.cedar.next');
    await writeFile(
      staged,
      `${DENY_DELETE_AND_READ}\n@id("broken")\nforbid (principal, action == Action::"call", resource) when { principal.emial == "x" };\n`,
    );
    await rename(staged, policyFile);
    const logged = await setup.sb.waitForLog(/policies rejected, the last good set stays: \S*deny\.cedar:9:\d+: [^\n]*emial/);
    expect(logged).to.include(policyFile);
    const bobs = await names(bob);
    expect(bobs).not.to.include(READ);
    expect(bobs).not.to.include(DELETE);
    expect(await names(alice))
      .to.include(READ)
      .and.include(DELETE);
    const events = await eventually(
      async () =>
        (await callTool(alice, 'core_events', { type: 'Warning', resource_type: 'Aggregator' })).structuredContent as {
          events: { reason: string; message: string }[];
        },
      (r) => r.events.some((e) => e.reason === 'ConfigRejected' && e.message.includes('deny.cedar:9')),
    );
    expect(events.events.find((e) => e.message.includes('deny.cedar:9'))!.message).to.include('emial');
  });

  it('follows the directory when it is removed and created again', async () => {
    await rm(join(setup.sb.configDir, 'policies'), { recursive: true, force: true });
    await eventually(
      () => names(bob),
      (n) => n.includes(READ) && n.includes(DELETE),
      // Its files are gone: believed once the save grace (5 s here) is over.
      30_000,
    );
    await mkdir(join(setup.sb.configDir, 'policies'));
    await writeFile(policyFile, DENY_DELETE);
    await eventually(
      () => names(bob),
      (n) => n.includes(READ) && !n.includes(DELETE),
    );
  });
});

describe('authorization-cedar: an invalid policy at startup', function () {
  this.timeout(60_000);
  const BROKEN = ['plugins:', '  authorization-cedar: true'].join('\n');
  let dir: string;

  before(async () => {
    dir = await makeConfigDir({
      'config.yaml': BROKEN,
      'policies/ok.cedar': DENY_DELETE,
      'policies/typo.cedar': '// one policy\n\npermit (principal, action, resource)\n  when { resource.nope };\n',
    });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stops `switchboard serve` with a non-zero exit naming file and line', () => {
    const r = run('serve', '--config-path', dir, '--port', '0');
    expect(r.status).to.equal(1);
    expect(r.output).to.match(/typo\.cedar:4:\d+: .*nope/);
    expect(r.output).to.include('the configuration is invalid; not starting');
  });

  it('fails `switchboard check` the same way', () => {
    const r = run('check', '--config-path', dir);
    expect(r.status).to.equal(1);
    expect(r.output).to.match(/typo\.cedar:4:\d+: .*nope/);
  });
});
