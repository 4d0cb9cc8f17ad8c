/**
 * Hardening (issue 22), files at rest: what Switchboard writes may hold credentials (a
 * definition with a literal token), tool arguments and results (execution records) or what
 * happened (the event log). Owner-only: files 0600, the directories it makes 0700.
 */
import { expect } from 'chai';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, eventually, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';

async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

describe("security: files Switchboard writes are its user's alone", function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;
  before(async () => {
    sb = await startSwitchboard({
      'config.yaml': 'aggregator:\n  servicePrefix: ""\n  network:\n    allow: [127.0.0.1]\n',
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('definitions, config.yaml, execution records and the event log are 0600; the state directories 0700', async () => {
    for (const [tool, args] of [
      ['core_mcpserver_create', { name: 'remote', type: 'streamable-http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Api-Key': 'literal-credential-123' } }],
      ['core_workflow_create', { name: 'pinger', steps: [{ id: 'p', tool: 'x_t_ping' }] }],
      ['workflow_pinger', {}],
      ['core_config_save', {}],
    ] as const) {
      const r = await callTool(client, tool, args);
      expect(r.isError, `${tool}: ${text(r)}`).to.not.equal(true);
    }
    const dir = sb.configDir;
    const executions = await eventually(
      () => readdir(join(dir, 'executions')),
      (n) => n.some((f) => f.endsWith('.json')),
    );
    const files = [
      'mcpservers/remote.yaml',
      'workflows/pinger.yaml',
      'config.yaml',
      'state/events.jsonl',
      `executions/${executions.find((f) => f.endsWith('.json'))!}`,
    ];
    for (const f of files) expect((await modeOf(join(dir, f))).toString(8), f).to.equal('600');
    for (const d of ['executions', 'state']) expect((await modeOf(join(dir, d))).toString(8), d).to.equal('700');
  });
});
