/**
 * The tasks extension (2026-07-28) as an attacker meets it. There is no session and no
 * tasks/list: a task id is what a caller holds, so it must buy nothing to anyone else. Another
 * caller's id, a forged one and garbage all read the same -32602 (no oracle: the answer never
 * says whose, and never repeats the id); another caller's tasks/cancel and tasks/update change
 * nothing; an id longer than any Switchboard issues is refused by its length without being
 * echoed; malformed params are -32602 naming the member. Two anonymous callers told apart by
 * their address, as a trusted proxy (X-Forwarded-For) reports it.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { ROOT, startSwitchboard, stdioServer, type Running } from '../support/harness.js';
import { ModernTaskClient, type Rpc, type Task } from '../support/modern-tasks-client.js';

const TASKS = join(ROOT, 'dist/test/fixtures/task-server.js');

describe("security: a 2026-07-28 caller cannot reach another caller's task", function () {
  this.timeout(60_000);
  let sb: Running;
  let alice: ModernTaskClient;
  let mallory: ModernTaskClient;

  before(async () => {
    sb = await startSwitchboard({
      'config.yaml': ['aggregator:', '  oauth:', '    server:', "      trustedProxyCIDRs: ['127.0.0.1/32']", ''].join('\n'),
      'mcpservers/tasks.yaml': stdioServer('tasks', TASKS),
    });
    alice = await ModernTaskClient.open(sb.url, { headers: { 'x-forwarded-for': '192.0.2.10' } });
    mallory = await ModernTaskClient.open(sb.url, { headers: { 'x-forwarded-for': '192.0.2.66' } });
  });

  after(async () => {
    await alice?.close().catch(() => undefined);
    await mallory?.close().catch(() => undefined);
    await sb?.stop();
  });

  const refusal = (r: Rpc): { code: number; message: string } => {
    expect(r.result, JSON.stringify(r.result)).to.equal(undefined);
    return { code: r.error!.code, message: r.error!.message };
  };

  it("another caller's task id reads exactly as a forged one: get, update and cancel alike, and the owner's task runs on", async () => {
    const created = (await alice.callTool('x_tasks_slow', { ms: 1_500 })).result as Task;
    expect(created.resultType).to.equal('task');
    const forged = '5f0c3f5e-9a8b-4c7d-8e6f-1a2b3c4d5e6f';
    for (const [method, extra] of [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: { q: { action: 'accept', content: { name: 'mallory' } } } }],
      ['tasks/cancel', {}],
    ] as const) {
      const theirs = refusal(await mallory.request(method, { taskId: created.taskId, ...extra }));
      const none = refusal(await mallory.request(method, { taskId: forged, ...extra }));
      expect(theirs, method).to.deep.equal(none);
      expect(theirs.code, method).to.equal(-32602);
      expect(theirs.message, method).to.not.include(created.taskId);
    }
    // Mallory's cancel did nothing: Alice's task completes.
    const done = await alice.settled(created.taskId);
    expect(done.status).to.equal('completed');
    expect(done.result!.content[0]!.text).to.equal('slow done after 1500 ms');
  });

  it('garbage ids are -32602 without an echo; an id over 128 characters is refused by its length', async () => {
    for (const taskId of ['', '../../etc/passwd', 'x'.repeat(128)]) {
      const e = refusal(await mallory.request('tasks/get', { taskId }));
      expect(e.code, taskId).to.equal(-32602);
      if (taskId) expect(e.message).to.not.include(taskId);
    }
    const long = 'y'.repeat(5_000);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const e = refusal(await mallory.request(method, { taskId: long, inputResponses: {} }));
      expect(e.code, method).to.equal(-32602);
      expect(e.message, method).to.include('taskId is 5000 characters long');
      expect(e.message.length, method).to.be.below(300);
      expect(e.message, method).to.not.include('yyyyyyyy');
    }
  });

  it('a routing header that names another task than the body (Mcp-Name, which a balancer may route by) is refused with -32020', async () => {
    const mine = (await mallory.callTool('x_tasks_slow', { ms: 100 })).result as Task;
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    };
    const post = (name: string | undefined) =>
      fetch(sb.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tasks/get',
          ...(name !== undefined ? { 'mcp-name': name } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: mine.taskId, _meta: envelope } }),
      });
    for (const name of ['5f0c3f5e-9a8b-4c7d-8e6f-1a2b3c4d5e6f', undefined]) {
      const res = await post(name);
      expect(res.status, String(name)).to.equal(400);
      expect(((await res.json()) as Rpc).error!.code, String(name)).to.equal(-32020);
    }
    expect((await post(mine.taskId)).status).to.equal(200);
  });

  it('malformed params: a taskId that is no string, and inputResponses that is no object, are -32602 naming the member', async () => {
    for (const taskId of [42, null, { $gt: '' }, ['a']]) {
      const e = refusal(await mallory.request('tasks/get', { taskId }));
      expect(e.code).to.equal(-32602);
      expect(e.message).to.include("'taskId' must be a string");
    }
    const mine = (await mallory.callTool('x_tasks_slow', { ms: 100 })).result as Task;
    for (const inputResponses of [undefined, 'yes', [1, 2], null]) {
      const e = refusal(await mallory.request('tasks/update', { taskId: mine.taskId, ...(inputResponses !== undefined ? { inputResponses } : {}) }));
      expect(e.code).to.equal(-32602);
      expect(e.message).to.include("'inputResponses' must be an object");
    }
  });
});
