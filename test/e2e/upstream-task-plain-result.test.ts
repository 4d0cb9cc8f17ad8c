/**
 * An upstream that declares task support but answers a task-augmented tools/call as a plain
 * one (MCP lets a receiver ignore the augmentation): its result is the call's, for a plain
 * call_tool and for a caller's own task alike; an answer that is neither a task nor a result
 * fails the call saying what the upstream did. Real processes: Switchboard and a raw-JSON
 * stdio upstream (test/fixtures/task-ignoring-server.ts).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, errorCode, ROOT, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';

const IGNORING = join(ROOT, 'dist/test/fixtures/task-ignoring-server.js');

describe('an upstream that answers a task-augmented call plainly', function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({ 'mcpservers/ignoring.yaml': stdioServer('ignoring', IGNORING) });
    client = await connectHttp(sb.url);
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await sb?.stop();
  });

  it("uses the plain answer as the call's result (Switchboard did ask for a task)", async () => {
    const r = await callTool(client, 'x_ignoring_ignores_task');
    expect(r.isError, text(r)).to.not.equal(true);
    expect(text(r)).to.equal('ran plainly (asked as a task)');
  });

  it("gives the plain answer as the result of the caller's own task", async () => {
    const created = await client.request(
      { method: 'tools/call', params: { name: 'call_tool', arguments: { name: 'x_ignoring_ignores_task', arguments: {} }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const r = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(text(r)).to.equal('ran plainly (asked as a task)');
    expect((await client.experimental.tasks.getTask(created.task.taskId)).status).to.equal('completed');
  });

  it('fails an answer that is neither a task nor a result with UPSTREAM_ERROR saying what the server did', async () => {
    const r = await callTool(client, 'x_ignoring_answers_nothing');
    expect(errorCode(r), text(r)).to.equal('UPSTREAM_ERROR');
    expect(text(r)).to.include("Server 'ignoring'").and.include('neither a task nor a tool result');
  });
});
