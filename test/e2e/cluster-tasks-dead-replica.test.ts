/**
 * Tasks of a replica killed with -9 do not stay `working` until their ttl: once its liveness
 * key lapses, a surviving replica ends them, a call's task `failed` with "replica <id> ended
 * during the task", a workflow's as its run's record says once the orphaned-run sweep marked
 * the run. Real processes: a redis-server, two Switchboard replicas behind HAProxy, the test
 * MCP server. The tasks are created on the replica to be killed (the client's requests go
 * straight to it); afterwards they go through the balancer, which has only the survivor.
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, type Task } from '@modelcontextprotocol/sdk/types.js';
import { callTool, eventually, makeConfigDir, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { addReplicas, clusterYaml } from '../support/cluster.js';
import { ensureHaproxy, startHaproxy, type RunningHaproxy } from '../support/haproxy.js';
import { redisServerMissing, startRedis, type RedisServer } from '../support/redis-server.js';
import { pingThenWait } from '../fixtures/workflows.js';

describe('cluster mode: tasks of a replica killed mid-task', function () {
  this.timeout(180_000);
  let redis: RedisServer;
  let a: Running;
  let b: Running;
  let lb: RunningHaproxy;
  let client: Client;
  /** Where the client's requests go: the replica to be killed, then the balancer. */
  let target: () => string;

  before(async function () {
    const missing = redisServerMissing() ?? ensureHaproxy();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
    redis = await startRedis();
    const configDir = await makeConfigDir({
      'config.yaml': `aggregator:\n  network:\n    allow: [127.0.0.1]\n${clusterYaml(redis)}\n`,
      // stderr at info: the test server says when a slow call starts.
      'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER, [], 'stderrLogLevel: info\n'),
      'workflows/ping-then-wait.yaml': pingThenWait(120_000),
    });
    a = await startSwitchboard({}, { configDir });
    b = (await addReplicas(a, 1))[0]!;
    lb = await startHaproxy([a.port, b.port]);
    target = () => a.url;
    const balanced: typeof fetch = (input, init) => {
      const to = new URL(target());
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.port = to.port;
      return fetch(url, init);
    };
    client = new Client({ name: 'balanced', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(a.url), { fetch: balanced }));
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await lb?.stop();
    await b?.stop();
    await a?.stop();
    await redis?.stop();
  });

  const create = async (name: string, args: Record<string, unknown>): Promise<string> =>
    (
      await client.request(
        { method: 'tools/call', params: { name: 'call_tool', arguments: { name, arguments: args }, task: { ttl: 600_000 } } },
        CreateTaskResultSchema,
      )
    ).task.taskId;

  it('kill -9 of the replica running a call and a workflow as tasks: the survivor ends both, naming the replica, seen through the balancer', async () => {
    const call = await create('x_tools_slow', { ms: 120_001 });
    await a.waitForLog(/slow 120001: started/, 30_000);
    const run = await create('workflow_ping-then-wait', {});
    // The run's record is stored after each top-level step: once 'one' is, the run is in 'wait' (two minutes) on A.
    await eventually(
      async () =>
        (await callTool(client, 'core_workflow_execution_get', { execution_id: run })).structuredContent as
          { steps?: { id: string; status: string }[] } | undefined,
      (r) => r?.steps?.find((s) => s.id === 'one')?.status === 'completed',
      30_000,
      100,
    );
    expect((await client.experimental.tasks.getTask(call)).status).to.equal('working');

    const exited = new Promise((resolve) => a.proc.once('exit', resolve));
    a.proc.kill('SIGKILL');
    await exited;
    const killedAt = Date.now();
    target = () => lb.url;
    const ended = (id: string): Promise<Task> =>
      eventually(
        () => client.experimental.tasks.getTask(id),
        (t) => t.status !== 'working',
        90_000,
        250,
      );
    const callTask = await ended(call);
    console.log(`      call task ${callTask.status} ${Date.now() - killedAt} ms after the kill`);
    const replica = new RegExp(`^replica \\S+-${a.proc.pid}-[0-9a-f]{6} ended during the task$`);
    expect(callTask.status).to.equal('failed');
    expect(callTask.statusMessage).to.match(replica);
    const result = await client.experimental.tasks.getTaskResult(call, CallToolResultSchema);
    expect(result.isError).to.equal(true);
    expect(text(result)).to.include(callTask.statusMessage!);

    const runTask = await ended(run);
    console.log(`      workflow task ${runTask.status} ${Date.now() - killedAt} ms after the kill`);
    expect(runTask.status).to.equal('failed');
    expect(runTask.statusMessage).to.match(new RegExp(`^replica \\S+-${a.proc.pid}-[0-9a-f]{6} ended during the run$`));
  });
});
