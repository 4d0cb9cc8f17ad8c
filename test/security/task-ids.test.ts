/**
 * Hardening (issue 35), task ids as an echo chamber: tasks/result with a 100,000-character
 * task id answered "Task not found: " and the whole id back. An id longer than any
 * Switchboard issues (UUIDs, 36 characters; the bound is 128) is refused with -32602 naming
 * its length, never its text, on tasks/get, tasks/result and tasks/cancel alike; an id within
 * the bound that is no task still reads "not found" as before. Through the SDK client, over
 * streamable HTTP.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { connectHttp, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';

async function rpcError(p: Promise<unknown>): Promise<McpError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof McpError) return err;
    throw err;
  }
  throw new Error('expected a JSON-RPC error');
}

describe('security: task ids are not echoed back', function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;
  const HUGE = 'x'.repeat(100_000);

  before(async () => {
    sb = await startSwitchboard({ 'mcpservers/t.yaml': stdioServer('t', TEST_SERVER) });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  const asks = (c: Client, id: string) => ({
    'tasks/get': c.experimental.tasks.getTask(id),
    'tasks/result': c.experimental.tasks.getTaskResult(id, CallToolResultSchema),
    'tasks/cancel': c.experimental.tasks.cancelTask(id),
  });

  it('a 100,000-character task id is refused with -32602 naming its length, and the answer holds none of it', async () => {
    for (const [method, ask] of Object.entries(asks(client, HUGE))) {
      const err = await rpcError(ask);
      expect(err.code, method).to.equal(-32602);
      expect(err.message, method).to.include('taskId is 100000 characters long; task ids are at most 128 characters');
      expect(err.message.length, method).to.be.below(300);
      expect(err.message, method).to.not.include('xxxxxxxx');
    }
  });

  it('129 characters is over the bound; an unknown id within it is "not found", as before', async () => {
    expect((await rpcError(client.experimental.tasks.getTask('y'.repeat(129)))).message).to.include('taskId is 129 characters long');
    const unknown = await rpcError(client.experimental.tasks.getTaskResult('00000000-0000-4000-8000-000000000000', CallToolResultSchema));
    expect(unknown.code).to.equal(-32602);
    expect(unknown.message).to.include('Task not found');
  });
});
