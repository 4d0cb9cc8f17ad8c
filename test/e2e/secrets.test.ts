import { expect } from 'chai';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, errorCode, eventually, EVERYTHING, freePort, meta, metaRaw, startSwitchboard, type Running } from '../support/harness.js';

type Obj = Record<string, unknown>;

const LITERAL_ENV = 'literal-env-secret-A1b2C3d4';
const FROM_ENV = 'from-env-secret-E5f6G7h8';
const FROM_FILE = 'from-file-secret-I9j0K1l2';
const LITERAL_HEADER = 'literal-header-secret-M3n4O5p6';
const HEADER_TOKEN = 'header-token-secret-Q7r8S9t0';
const ALL_SECRETS = [LITERAL_ENV, FROM_ENV, FROM_FILE, LITERAL_HEADER, HEADER_TOKEN];

function leaked(text: string): string[] {
  return ALL_SECRETS.filter((s) => text.includes(s));
}

async function core<T = Obj>(client: Client, name: string, args: Obj = {}): Promise<T> {
  return meta<T>(client, 'call_tool', { name, arguments: args });
}

describe('secrets in server definitions', () => {
  let sb: Running;
  let client: Client;
  let remote: Server;
  const seen: IncomingHttpHeaders[] = [];

  before(async () => {
    // A remote that records what it is sent and refuses everything: enough to see the headers arrive.
    const port = await freePort();
    remote = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      res.writeHead(503).end('down for the test');
    });
    await new Promise<void>((r) => remote.listen(port, '127.0.0.1', r));
    process.env.SB_TEST_FROM_ENV = FROM_ENV;
    process.env.SB_TEST_HEADER_TOKEN = HEADER_TOKEN;
    sb = await startSwitchboard(
      {
        'secrets/token.txt': `${FROM_FILE}\n`,
        // The shell line prints a secret to stderr: the log must show it redacted.
        'mcpservers/everything.yaml': [
          'name: everything',
          'type: stdio',
          `command: [sh, -c, 'echo "starting with $API_KEY" 1>&2; exec node ${EVERYTHING}']`,
          'autoStart: true',
          'env:',
          `  API_KEY: ${LITERAL_ENV}`,
          '  FROM_ENV: "${SB_TEST_FROM_ENV}"',
          '  FROM_FILE: { fromFile: secrets/token.txt }',
          '  LOG_STYLE: plain',
          '',
        ].join('\n'),
        'mcpservers/remote.yaml': [
          'name: remote',
          'type: streamable-http',
          `url: http://user:${LITERAL_HEADER}@127.0.0.1:${port}/mcp?api_key=${LITERAL_HEADER}`,
          'headers:',
          '  Authorization: "Bearer ${SB_TEST_HEADER_TOKEN}"',
          `  X-Api-Key: ${LITERAL_HEADER}`,
          'backoff: { initialSeconds: 30 }',
          '',
        ].join('\n'),
        'mcpservers/unset.yaml':
          'name: unset\ntype: stdio\ncommand: [node, "' +
          EVERYTHING +
          '"]\nautoStart: true\nenv:\n  TOKEN: "${SB_TEST_NEVER_SET}"\nbackoff: { initialSeconds: 30 }\n',
      },
      { env: { SWITCHBOARD_LOG_LEVEL: 'debug' } },
    );
    client = await connectHttp(sb.url);
  });

  after(async () => {
    await client?.close();
    await sb?.stop();
    await new Promise<void>((r) => remote.close(() => r()));
    delete process.env.SB_TEST_FROM_ENV;
    delete process.env.SB_TEST_HEADER_TOKEN;
  });

  it('resolves ${NAME} and {fromFile} into the process environment, and scrubs them from tool results', async () => {
    const r = await callTool(client, 'x_everything_get-env');
    expect(r.isError, JSON.stringify(r)).to.not.equal(true);
    const env = JSON.parse((r.content[0] as { text: string }).text) as Record<string, string>;
    // The variables reached the process (their names are there); their values left as <redacted>.
    expect(env.API_KEY).to.equal('<redacted>');
    expect(env.FROM_ENV).to.equal('<redacted>');
    expect(env.FROM_FILE).to.equal('<redacted>');
    expect(env.LOG_STYLE).to.equal('plain');
    expect(leaked(JSON.stringify(r))).to.deep.equal([]);
  });

  it('sends resolved headers to a remote server', async () => {
    await eventually(
      async () => seen.length,
      (n) => n > 0,
      10_000,
    );
    expect(seen[0]!.authorization).to.equal(`Bearer ${HEADER_TOKEN}`);
    expect(seen[0]!['x-api-key']).to.equal(LITERAL_HEADER);
  });

  it('core_mcpserver_get shows env and header names, literal values as <redacted>, references as written', async () => {
    const def = await core(client, 'core_mcpserver_get', { name: 'everything' });
    expect(def.env).to.deep.equal({
      API_KEY: '<redacted>',
      FROM_ENV: '${SB_TEST_FROM_ENV}',
      FROM_FILE: { fromFile: 'secrets/token.txt' },
      LOG_STYLE: '<redacted>',
    });
    const remoteDef = await core(client, 'core_mcpserver_get', { name: 'remote' });
    expect(remoteDef.headers).to.deep.equal({ Authorization: 'Bearer ${SB_TEST_HEADER_TOKEN}', 'X-Api-Key': '<redacted>' });
    expect(remoteDef.url).to.not.include(LITERAL_HEADER);
    expect(remoteDef.url).to.include('api_key=redacted');
  });

  it('no secret leaves through any listing, status or configuration result', async () => {
    const results: CallToolResult[] = [];
    for (const [name, args] of [
      ['core_mcpserver_list', {}],
      ['core_service_list', {}],
      ['core_service_status', { name: 'remote' }],
      ['core_service_status', { name: 'everything' }],
      ['core_config_get', {}],
    ] as const) {
      results.push(await callTool(client, name, args));
    }
    results.push(await metaRaw(client, 'list_servers'));
    results.push(await metaRaw(client, 'describe_tool', { name: 'x_everything_get-env' }));
    for (const r of results) expect(leaked(JSON.stringify(r)), JSON.stringify(r).slice(0, 200)).to.deep.equal([]);
  });

  it('an update that sends <redacted> back keeps the stored secret; one for a key never stored is refused by name', async () => {
    const def = await core(client, 'core_mcpserver_get', { name: 'everything' });
    const env = { ...(def.env as Obj), EXTRA: 'new-value' };
    const updated = await core(client, 'core_mcpserver_update', { name: 'everything', env });
    expect((updated.env as Obj).API_KEY).to.equal('<redacted>');
    const file = readFileSync(join(sb.configDir, 'mcpservers/everything.yaml'), 'utf8');
    expect(file).to.include(LITERAL_ENV).and.include('EXTRA: new-value');
    expect(file).to.not.include('<redacted>');

    const refused = await callTool(client, 'core_mcpserver_update', { name: 'everything', env: { NEVER_STORED: '<redacted>' } });
    expect(errorCode(refused)).to.equal('VALIDATION_FAILED');
    expect((refused.content[0] as { text: string }).text).to.include("env.NEVER_STORED: '<redacted>' keeps a stored value, but 'NEVER_STORED' has none");
  });

  it('a reference that cannot be resolved fails that server, naming the field and the variable', async () => {
    const status = await eventually(
      () => core(client, 'core_service_status', { name: 'unset' }),
      (s) => s.state === 'failed',
      10_000,
    );
    expect(status.error).to.equal(
      "env.TOKEN: ${SB_TEST_NEVER_SET} is not set in Switchboard's environment: set SB_TEST_NEVER_SET in secrets.env (config directory) or in Switchboard's environment, or change env.TOKEN in the definition; tried again as soon as it resolves",
    );
  });

  it('no secret is ever written to the log, even at debug level', async () => {
    await sb.waitForLog(/stderr: starting with <redacted>/);
    expect(leaked(sb.logs())).to.deep.equal([]);
  });
});
