/**
 * Tasks in cluster mode: one session's task created on replica A is fetched and listed
 * through replica B (tasks kept in Redis), and a cancel sent to B stops the call running on A
 * (the broadcast). Real processes: a redis-server, two Switchboard replicas, the test MCP
 * server; the client's session moves between replicas as behind a balancer.
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { makeConfigDir, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';

describe('cluster mode: tasks any replica answers for', function () {
  this.timeout(120_000);
  let redis: RedisServer;
  let a: Running;
  let b: Running;
  let client: Client;
  /** Which replica the client's requests go to (a balancer's choice). */
  let target: () => Running;

  before(async function () {
    redis = await startRedisOrSkip(this);
    const dir = await makeConfigDir({
      'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n      connectTimeoutSeconds: 10\n`,
      'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER, [], 'stderrLogLevel: info\n'),
    });
    a = await startSwitchboard({}, { configDir: dir });
    b = await startSwitchboard({}, { configDir: dir });
    target = () => a;
    const balanced: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.port = String(target().port);
      return fetch(url, init);
    };
    client = new Client({ name: 'balanced', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(a.url), { fetch: balanced }));
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await b?.stop();
    await a?.stop();
    await redis?.stop();
  });

  const create = (ms: number) =>
    client.request(
      { method: 'tools/call', params: { name: 'call_tool', arguments: { name: 'x_tools_slow', arguments: { ms } }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );

  it('a task created on one replica is listed and its result fetched through another', async () => {
    target = () => a;
    const id = (await create(300)).task.taskId;
    target = () => b;
    expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).to.include(id);
    const r: CallToolResult = await client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    expect(text(r)).to.equal('waited 300');
  });

  it('a cancel sent to another replica stops the call where it runs', async () => {
    target = () => a;
    const id = (await create(7007)).task.taskId;
    await a.waitForLog(/slow 7007: started/);
    target = () => b;
    expect((await client.experimental.tasks.cancelTask(id)).status).to.equal('cancelled');
    await a.waitForLog(/slow 7007: cancelled by the client/);
    target = () => a;
    expect((await client.experimental.tasks.getTask(id)).status).to.equal('cancelled');
  });
});
