/**
 * Hardening (issue 35, finding 8): a link in mcpservers/ to a file outside the configuration
 * directory (`zz.yaml -> /etc/shadow`) printed the target's lines into core_events,
 * state/events.jsonl, the log, core_config_reload's errors and `switchboard check`. A link
 * that leaves the directory is now skipped with a warning naming the link (unless the store's
 * option followLinksOutside says otherwise), one that stays inside is followed, and a parse
 * error quotes at most a key that reads as a field name, never a line of the file.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CLI, connectHttp, eventually, makeConfigDir, meta, startSwitchboard, type Running } from '../support/harness.js';
import type { EventPage } from '../support/event-page.js';

/** Looks like /etc/shadow: every line ends in ':' and so parses as a YAML key. */
const SHADOW = 'root:$6$Sb0ShadowHashSecret$xyz:20782:0:99999:7:::\netcd:!:20782::::::\nalice:$y$j9T$Sb1SecondSecret:20000:0:99999:7:::\n';
const SECRET_PIECES = ['Sb0ShadowHashSecret', 'Sb1SecondSecret', 'etcd:!', '20782'];

function expectNoSecret(where: string, textSeen: string): void {
  for (const piece of SECRET_PIECES) expect(textSeen, `${where} quotes '${piece}'`).to.not.include(piece);
}

function check(configDir: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [CLI, 'check', '--config-path', configDir], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe('security: linked files in the watched folders', function () {
  this.timeout(60_000);
  let outside: string;
  let sb: Running;
  let client: Client;
  const events = () => meta<EventPage>(client, 'call_tool', { name: 'core_events', arguments: { limit: 200 } });
  const servers = async () =>
    (await meta<{ mcpServers: { name: string }[] }>(client, 'call_tool', { name: 'core_mcpserver_list' })).mcpServers.map((s) => s.name);

  before(async () => {
    outside = await mkdtemp(join(tmpdir(), 'sb-outside-'));
    await writeFile(join(outside, 'shadow'), SHADOW);
    await writeFile(join(outside, 'remote.yaml'), 'name: faraway\ntype: streamable-http\nurl: http://127.0.0.1:9/mcp\n');
    const dir = await makeConfigDir({
      'mcpservers/plain.yaml': 'name: plain\ntype: streamable-http\nurl: http://127.0.0.1:9/mcp\n',
      'shared/inside.yaml': 'name: inside\ntype: streamable-http\nurl: http://127.0.0.1:9/mcp\n',
    });
    await symlink('../shared/inside.yaml', join(dir, 'mcpservers/inside.yaml'));
    await symlink(join(outside, 'shadow'), join(dir, 'mcpservers/zz.yaml'));
    sb = await startSwitchboard({}, { configDir: dir });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
    await rm(sb.configDir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('starts with a link out of the directory present: skipped with a warning naming the link, in the log and as an event', async () => {
    expect(sb.logs()).to.include(`${join(sb.configDir, 'mcpservers/zz.yaml')} is a link to a file outside ${sb.configDir}: not read`);
    const page = await events();
    const skipped = page.events.filter((e) => e.reason === 'ConfigLinkSkipped');
    expect(skipped).to.have.length(1);
    expect(skipped[0]!.type).to.equal('Warning');
    expect(skipped[0]!.message).to.include('mcpservers/zz.yaml');
  });

  it('follows a link that stays inside the configuration directory', async () => {
    expect(await servers()).to.have.members(['inside', 'plain']);
  });

  it('a link made while running is skipped the same way; nothing of its target reaches events, the events file, the log, reload or check', async () => {
    await symlink(join(outside, 'shadow'), join(sb.configDir, 'mcpservers/yy.yaml'));
    await sb.waitForLog(/mcpservers\/yy\.yaml is a link to a file outside/);
    const reload = await meta<{ status: string; errors: string[] }>(client, 'call_tool', { name: 'core_config_reload' });
    expect(reload.status).to.equal('reloaded');
    expect(await servers()).to.have.members(['inside', 'plain']);
    const c = check(sb.configDir);
    expect(c.status, c.out).to.equal(0);
    expect(c.out).to.include('warning: ').and.include('mcpservers/zz.yaml is a link to a file outside').and.include('mcpservers/yy.yaml');
    expectNoSecret('check', c.out);
    expectNoSecret('reload', JSON.stringify(reload));
    expectNoSecret('core_events', JSON.stringify(await events()));
    expectNoSecret('the log', sb.logs());
    const file = join(sb.configDir, 'state/events.jsonl');
    await eventually(
      async () => (existsSync(file) ? readFile(file, 'utf8') : ''),
      (t) => t.includes('yy.yaml'),
    );
    expectNoSecret('state/events.jsonl', await readFile(file, 'utf8'));
  });

  it('a parse error quotes no line of a file that is not a definition, in events, the log, reload and check', async () => {
    // Inside the directory (a copy, say), the file is read: its problems must not print it.
    await writeFile(join(sb.configDir, 'mcpservers/copied.yaml'), SHADOW);
    await sb.waitForLog(/copied\.yaml:1:1: <key>: unknown field \(a key of \d+ characters that is not a field name; not quoted\)/);
    const reload = await meta<{ status: string; errors: string[] }>(client, 'call_tool', { name: 'core_config_reload' });
    expect(reload.status).to.equal('failed');
    expect(reload.errors.join('\n')).to.include('copied.yaml:1:1: <key>: unknown field');
    const rejected = await eventually(events, (p) => p.events.some((e) => e.reason === 'ConfigRejected' && e.message.includes('copied.yaml')));
    const c = check(sb.configDir);
    expect(c.status).to.equal(1);
    expect(c.out).to.include('copied.yaml:1:1: <key>: unknown field');
    expectNoSecret('check', c.out);
    expectNoSecret('reload', JSON.stringify(reload));
    expectNoSecret('core_events', JSON.stringify(rejected));
    expectNoSecret('the log', sb.logs());
    expectNoSecret('state/events.jsonl', await readFile(join(sb.configDir, 'state/events.jsonl'), 'utf8'));
    // A mistyped field is still named, as before.
    await writeFile(join(sb.configDir, 'mcpservers/copied.yaml'), 'name: copied\ntype: streamable-http\nurl: http://127.0.0.1:9/mcp\ndescriptoin: x\n');
    await sb.waitForLog(/copied\.yaml:4:1: descriptoin: unknown field 'descriptoin' \(did you mean 'description'\?\)/);
    // YAML syntax errors that would quote the source say their kind instead.
    await writeFile(join(sb.configDir, 'mcpservers/copied.yaml'), 'name: "Sb0ShadowHashSecret\\q"\n');
    await sb.waitForLog(/copied\.yaml:1:\d+: YAML syntax error: bad dq escape/);
    expectNoSecret('the log', sb.logs());
    await rm(join(sb.configDir, 'mcpservers/copied.yaml'));
  });

  it('store-files followLinksOutside: true reads a link out of the directory', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'plugins:\n  store-files:\n    options:\n      followLinksOutside: true\n' });
    try {
      await symlink(join(outside, 'remote.yaml'), join(dir, 'mcpservers/faraway.yaml'));
      const c = check(dir);
      expect(c.status, c.out).to.equal(0);
      expect(c.out).to.include('OK (1 MCP server,').and.not.include('link');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('security: switchboard init with mcpservers a dangling link', function () {
  this.timeout(30_000);
  it('says which link points nowhere and exits 1, without a stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-init-link-'));
    try {
      await symlink(join(dir, 'not-mounted-yet'), join(dir, 'mcpservers'));
      const r = spawnSync(process.execPath, [CLI, 'init', '--config-path', dir], { encoding: 'utf8' });
      expect(r.status).to.equal(1);
      expect(r.stdout + r.stderr).to.include(
        `switchboard init: ${join(dir, 'mcpservers')} is a link to ${join(dir, 'not-mounted-yet')}, which does not exist: create ${join(dir, 'not-mounted-yet')} or remove the link`,
      );
      expect(r.stderr).to.not.match(/\n\s+at /);
      // Once the target exists, init completes through the link.
      await mkdir(join(dir, 'not-mounted-yet'));
      const again = spawnSync(process.execPath, [CLI, 'init', '--config-path', dir], { encoding: 'utf8' });
      expect(again.status, again.stdout + again.stderr).to.equal(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
