/**
 * A tool's input schema is its server's; the arguments it checks are the caller's. With
 * JavaScript's backtracking RegExp, a `pattern` or `patternProperties` key such as
 * `^(a|aa)+$` let one ordinary call hold the event loop for as long as it liked: 5,000 letters
 * and a `b` against it would not have ended in a lifetime, and no /health, no other caller, not
 * even SIGTERM was answered meanwhile. Switchboard runs those patterns on RE2 (linear in the
 * text whatever the pattern: kernel/schema-patterns.ts); what RE2 cannot run is left to the
 * server, which checks its own schema, and said once in the log.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, errorCode, makeConfigDir, ROOT, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';

const TOOLS = [
  {
    name: 'lookup',
    description: 'Looks a code up.',
    inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^(a|aa)+$' } }, required: ['code'] },
  },
  {
    name: 'tag',
    description: 'Tags a thing.',
    inputSchema: { type: 'object', patternProperties: { '^(x+x+)+y$': { type: 'string' } }, additionalProperties: false },
  },
  { name: 'shout', description: 'Shouts a word.', inputSchema: { type: 'object', properties: { word: { type: 'string', pattern: '^[\\u0041-\\u005A]+$' } } } },
  { name: 'pin', description: 'Sets a PIN.', inputSchema: { type: 'object', properties: { pin: { type: 'string', pattern: '^(?=.*\\d).{4,}$' } } } },
];

describe('security: the patterns of a tool schema cannot hold the gateway (RE2)', function () {
  this.timeout(120_000);
  let sb: Running;
  let client: Client;

  before(async () => {
    const configDir = await makeConfigDir({});
    const catalogue = join(configDir, 'patterns.json');
    await writeFile(catalogue, JSON.stringify({ server: 'patterns', package: 'patterns', version: '1.0.0', tools: TOOLS }));
    await writeFile(join(configDir, 'mcpservers', 'patterns.yaml'), stdioServer('patterns', join(ROOT, 'dist/bench/devset/replay-server.js'), [catalogue]));
    sb = await startSwitchboard({}, { configDir });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  const reachedServer = (r: Awaited<ReturnType<typeof callTool>>) => expect(text(r).slice(0, 300)).to.match(/is a replay/);

  it('an argument built against an exponential pattern is refused at once, naming the argument and its pattern; one that matches reaches the server', async () => {
    const refused = await callTool(client, 'x_patterns_lookup', { code: `${'a'.repeat(5_000)}b` });
    expect(errorCode(refused)).to.equal('INVALID_ARGUMENTS');
    expect(text(refused)).to.match(/code must match pattern "\^\(a\|aa\)\+\$"/);
    reachedServer(await callTool(client, 'x_patterns_lookup', { code: 'a'.repeat(5_000) }));
  });

  it('a property name built against an exponential patternProperties key is refused at once', async () => {
    const refused = await callTool(client, 'x_patterns_tag', { ['x'.repeat(5_000)]: 'v' });
    expect(errorCode(refused)).to.equal('INVALID_ARGUMENTS');
    expect(text(refused)).to.match(/unknown property/);
    reachedServer(await callTool(client, 'x_patterns_tag', { [`${'x'.repeat(5_000)}y`]: 'v' }));
  });

  it('reads \\u escapes as JSON Schema does', async () => {
    reachedServer(await callTool(client, 'x_patterns_shout', { word: 'HEY' }));
    expect(errorCode(await callTool(client, 'x_patterns_shout', { word: 'hey' }))).to.equal('INVALID_ARGUMENTS');
  });

  it('leaves a pattern RE2 cannot run (a lookahead) to the server, checks the rest, and says so once in the log', async () => {
    reachedServer(await callTool(client, 'x_patterns_pin', { pin: 'abcd' }));
    expect(errorCode(await callTool(client, 'x_patterns_pin', { pin: 7 }))).to.equal('INVALID_ARGUMENTS');
    const warned = sb.logs().match(/input schema of 'x_patterns_pin': pattern "\^\(\?=\.\*\\\\d\)\.\{4,\}\$" is left to its server/g) ?? [];
    expect(warned, sb.logs()).to.have.length(1);
  });
});
