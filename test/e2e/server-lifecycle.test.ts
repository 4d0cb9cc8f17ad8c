import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, errorCode, eventually, meta, startSwitchboard, TEST_SERVER, text, type Running } from '../support/harness.js';

type Obj = Record<string, unknown>;

describe('MCP server definitions people already have, and a lifecycle that matches what runs', () => {
  let sb: Running;
  let client: Client;
  const core = <T = Obj>(name: string, args: Obj = {}) => meta<T>(client, 'call_tool', { name, arguments: args });
  const names = async () => (await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 500 })).tools.map((t) => t.name);

  before(async () => {
    sb = await startSwitchboard({
      // The IDE form: the executable as a string, its arguments beside it.
      'mcpservers/ide.yaml': `name: ide\ntype: stdio\ncommand: node\nargs: ["${TEST_SERVER}", --name, ide-form]\nautoStart: true\n`,
      'mcpservers/crashy.yaml': 'name: crashy\ntype: stdio\ncommand: node\nargs: [-e, "process.exit(1)"]\nautoStart: true\nbackoff: { initialSeconds: 30 }\n',
    });
    client = await connectHttp(sb.url);
  });

  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('runs a server whose command is a string with args, and stores it as written', async () => {
    const pong = await callTool(client, 'x_ide_ping');
    expect(text(pong)).to.match(/^pong from ide-form/);
    const def = await core('core_mcpserver_get', { name: 'ide' });
    expect(def.command).to.equal('node');
    expect(def.args).to.deep.equal([TEST_SERVER, '--name', 'ide-form']);
    const status = await core<{ metadata: { command: string[] } }>('core_service_status', { name: 'ide' });
    expect(status.metadata.command).to.deep.equal(['node', TEST_SERVER, '--name', 'ide-form']);
  });

  it('creates and validates string commands through the core tools too', async () => {
    const valid = await core<{ valid: boolean; errors: string[] }>('core_mcpserver_validate', { name: 'made', type: 'stdio', command: 'node' });
    expect(valid).to.deep.include({ valid: true, errors: [] });
    const missing = await core<{ warnings: string[] }>('core_mcpserver_validate', { name: 'x', type: 'stdio', command: 'no-such-binary-anywhere' });
    expect(missing.warnings.join('\n')).to.include("command 'no-such-binary-anywhere' is not found on PATH");
    await core('core_mcpserver_create', { name: 'made', type: 'stdio', command: 'node', args: [TEST_SERVER, '--name', 'made-by-tool'], autoStart: true });
    const pong = await eventually(
      () => callTool(client, 'x_made_ping'),
      (r) => !r.isError,
      10_000,
    );
    expect(text(pong)).to.match(/^pong from made-by-tool/);
  });

  it('start of a running server and stop of a stopped one change nothing and say so', async () => {
    const started = await core('core_service_start', { name: 'ide' });
    expect(started).to.deep.include({ status: 'ok', state: 'running', message: "Server 'ide' is already running" });
    await core('core_service_stop', { name: 'made' });
    const stopped = await core('core_service_stop', { name: 'made' });
    expect(stopped).to.deep.include({ status: 'ok', state: 'stopped', message: "Server 'made' is already stopped" });
  });

  it("a call to a stopped server's tool is SERVER_UNAVAILABLE naming the state and the call that starts it; the tool is not listed", async () => {
    const r = await callTool(client, 'x_made_ping');
    expect(errorCode(r)).to.equal('SERVER_UNAVAILABLE');
    expect(text(r)).to.equal(`server not found: made (stopped; start it with core_service_start {"name":"made"})`);
    expect((r.structuredContent as { error: { details: Obj } }).error.details).to.deep.include({ server: 'made', state: 'stopped' });
    expect(await names()).to.not.include('x_made_ping');
    await core('core_service_start', { name: 'made' });
    expect(text(await callTool(client, 'x_made_ping'))).to.match(/^pong from made-by-tool/);
  });

  it('a tool no server ever had is TOOL_NOT_FOUND', async () => {
    expect(errorCode(await callTool(client, 'x_made_no_such_tool'))).to.equal('TOOL_NOT_FOUND');
  });

  it('deletes a failed server (nothing runs), ending its backoff; refuses a running one', async () => {
    const failed = await eventually(
      () => core('core_service_status', { name: 'crashy' }),
      (s) => s.state === 'failed',
      10_000,
    );
    expect(failed.nextRetryAfter).to.be.a('string');
    const deleted = await core('core_mcpserver_delete', { name: 'crashy' });
    expect(deleted.status).to.equal('deleted');
    const gone = await callTool(client, 'core_service_status', { name: 'crashy' });
    expect(errorCode(gone)).to.equal('NOT_FOUND');

    const refused = await callTool(client, 'core_mcpserver_delete', { name: 'made' });
    expect(errorCode(refused)).to.equal('CONFLICT');
    expect(text(refused)).to.include('is running and must be stopped first (core_service_stop {"name": "made"})');
  });

  it('after a stopped server is deleted, its tools are TOOL_NOT_FOUND', async () => {
    await core('core_service_stop', { name: 'made' });
    expect(errorCode(await callTool(client, 'x_made_ping'))).to.equal('SERVER_UNAVAILABLE');
    await core('core_mcpserver_delete', { name: 'made' });
    expect(errorCode(await callTool(client, 'x_made_ping'))).to.equal('TOOL_NOT_FOUND');
  });
});

describe("a stdio server's stderr: logged at its own level, quoted when it exits", () => {
  let sb: Running;
  let client: Client;
  const banner = (word: string) => `command: [sh, -c, 'echo "${word} banner" 1>&2; exec node ${TEST_SERVER}']\nautoStart: true\n`;

  before(async () => {
    sb = await startSwitchboard({
      'mcpservers/quiet.yaml': `name: quiet\ntype: stdio\n${banner('quiet')}`,
      'mcpservers/loud.yaml': `name: loud\ntype: stdio\n${banner('loud')}stderrLogLevel: info\n`,
      'mcpservers/dying.yaml':
        "name: dying\ntype: stdio\ncommand: node\nargs: [-e, \"console.error('starting'); console.error('boom: API_KEY is not set'); process.exit(3)\"]\nautoStart: true\nbackoff: { initialSeconds: 30 }\n",
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('logs stderr at debug by default (a banner does not flood the info log), at info when the definition says so', async () => {
    const running = (name: string) =>
      eventually(
        () => meta<{ state: string }>(client, 'call_tool', { name: 'core_service_status', arguments: { name } }),
        (s) => s.state === 'running',
        15_000,
      );
    await running('quiet');
    await running('loud');
    await sb.waitForLog(/\[switchboard:upstreams:loud\] stderr: loud banner/);
    expect(sb.logs()).to.not.include('quiet banner');
  });

  it('a process that exits on its own fails with its exit code and its last words on stderr', async () => {
    const status = await eventually(
      () => meta<{ state: string; error?: string }>(client, 'call_tool', { name: 'core_service_status', arguments: { name: 'dying' } }),
      (s) => s.state === 'failed',
      15_000,
    );
    expect(status.error).to.equal('the process exited with code 3; its last words on stderr: starting | boom: API_KEY is not set');
  });
});
