/**
 * Hardening (issue 22), references are the operator's: a definition written through
 * core_mcpserver_create/update cannot read Switchboard's environment or files into a header
 * sent to a URL the caller chose, unless an administrator names an allowed variable or file.
 */
import { expect } from 'chai';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, errorCode, eventually, meta, startSwitchboard, text, type Running } from '../support/harness.js';
import { checkReferences } from '../../plugins/core-tools/references.js';
import { personPrincipal } from '../../kernel/authorization/principal.js';
import type { Settings } from '../../kernel/config/settings.js';

const remote = (name: string, headers: Record<string, unknown>) => ({ name, type: 'streamable-http', url: 'http://127.0.0.1:9/mcp', headers });

describe('security: ${NAME} and {fromFile} through core tools', function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;
  before(async () => {
    sb = await startSwitchboard(
      {
        'config.yaml': 'secrets:\n  allowedEnv: [SB_REF_ALLOWED]\n  allowedDirs: [secrets]\naggregator:\n  network:\n    allow: [127.0.0.1]\n',
        'secrets/token.txt': 'allowed-token\n',
        'outside.txt': 'not for callers\n',
        'mcpservers/broken.yaml':
          'name: broken\ntype: streamable-http\nurl: http://127.0.0.1:9/mcp\nheaders:\n  X-Token: { fromFile: /nonexistent/dir/token }\n',
      },
      { env: { SB_REF_ALLOWED: 'fine-to-send', SB_REF_SECRET: 'operator-only-secret' } },
    );
    await symlink(join(sb.configDir, 'outside.txt'), join(sb.configDir, 'secrets/escape.txt'));
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  for (const [what, value] of [
    ['an environment variable not in secrets.allowedEnv', 'Bearer ${SB_REF_SECRET}'],
    ['an absolute file outside secrets.allowedDirs', { fromFile: '/etc/passwd' }],
    ['a relative path that climbs out', { fromFile: 'secrets/../outside.txt' }],
    ['a link inside an allowed directory that points out of it', { fromFile: 'secrets/escape.txt' }],
  ] as const) {
    it(`refuses ${what}, naming the field and the rule`, async () => {
      const r = await callTool(client, 'core_mcpserver_create', remote('leak', { 'X-Leak': value }));
      expect(errorCode(r), text(r)).to.equal('FORBIDDEN');
      expect(text(r)).to.include('headers.X-Leak').and.include('[rule: secrets.references]');
      expect(errorCode(await callTool(client, 'core_mcpserver_get', { name: 'leak' }))).to.equal('NOT_FOUND');
    });
  }

  it('refuses a file prefix that would split the header (CR or LF) or runs over 64 characters, naming the field', async () => {
    for (const prefix of ['Bearer x\r\nX-Injected: yes\r\n', 'B'.repeat(65)]) {
      const r = await callTool(client, 'core_mcpserver_create', remote('split', { Authorization: { fromFile: 'secrets/token.txt', prefix } }));
      expect(r.isError, text(r)).to.equal(true);
      expect(text(r)).to.include('headers').and.include('prefix');
      expect(errorCode(await callTool(client, 'core_mcpserver_get', { name: 'split' }))).to.equal('NOT_FOUND');
    }
  });

  it('lets an administrator reference what the operator allowed', async () => {
    const r = await callTool(
      client,
      'core_mcpserver_create',
      remote('allowed', { 'X-A': 'Bearer ${SB_REF_ALLOWED}', 'X-B': { fromFile: 'secrets/token.txt' } }),
    );
    expect(r.isError, text(r)).to.not.equal(true);
    // Adding a disallowed reference later is refused the same way; sending the stored ones back is not.
    const again = await callTool(client, 'core_mcpserver_update', {
      name: 'allowed',
      headers: { 'X-A': 'Bearer ${SB_REF_ALLOWED}', 'X-B': { fromFile: 'secrets/token.txt' }, 'X-C': '${SB_REF_SECRET}' },
    });
    expect(errorCode(again)).to.equal('FORBIDDEN');
    const same = await callTool(client, 'core_mcpserver_update', {
      name: 'allowed',
      description: 'kept',
      headers: { 'X-A': 'Bearer ${SB_REF_ALLOWED}', 'X-B': { fromFile: 'secrets/token.txt' } },
    });
    expect(same.isError, text(same)).to.not.equal(true);
  });

  it('a file that cannot be read says so without saying why (no errno: existence is information)', async () => {
    const status = await eventually(
      () => meta<{ state: string; error?: string }>(client, 'call_tool', { name: 'core_service_status', arguments: { name: 'broken' } }),
      (s) => s.error !== undefined,
      10_000,
    );
    // The reference and what to change, never why the read failed (an errno tells whether the path exists).
    expect(status.error).to.match(/^headers\.X-Token: cannot read the referenced file '\/nonexistent\/dir\/token': create the file/);
    expect(status.error).to.not.match(/ENOENT|EACCES|no such file|permission/i);
  });

  it('a person who is not an administrator may make no reference at all', () => {
    const bob = personPrincipal({ subject: 'bob', claims: {} }, { admins: [], groupsClaim: 'groups', policiesPath: 'policies' });
    const settings = { secrets: { allowedEnv: ['SB_REF_ALLOWED'], allowedDirs: ['secrets'] } } as unknown as Settings;
    expect(() => checkReferences('env', { A: '${SB_REF_ALLOWED}' }, undefined, bob, settings, '/tmp')).to.throw(/only administrators/);
    expect(() => checkReferences('env', { A: 'plain', B: '$${literal}' }, undefined, bob, settings, '/tmp')).to.not.throw();
  });
});
