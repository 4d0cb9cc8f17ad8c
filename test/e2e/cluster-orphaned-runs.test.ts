/**
 * A workflow run whose replica is killed (kill -9) mid-run does not stay `running` for ever:
 * the surviving replica marks it failed, naming the replica, once that replica's liveness
 * key has lapsed. Real processes: a redis-server, two Switchboard replicas, the test MCP
 * server as the workflow's upstream.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, eventually, makeConfigDir, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';
import { pingThenWait } from '../fixtures/workflows.js';

interface Execution {
  execution_id: string;
  status: string;
  error?: string;
  steps: { id: string; status: string }[];
}

const SLOW_RUN = pingThenWait(120_000);

describe('cluster mode: a run left running by a killed replica', function () {
  this.timeout(180_000);
  let redis: RedisServer;
  let a: Running;
  let b: Running;
  const clients: Client[] = [];

  before(async function () {
    redis = await startRedisOrSkip(this);
    const dir = await makeConfigDir({
      'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n      connectTimeoutSeconds: 10\n`,
      'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER),
      'workflows/ping-then-wait.yaml': SLOW_RUN,
    });
    a = await startSwitchboard({}, { configDir: dir });
    b = await startSwitchboard({}, { configDir: dir });
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await b?.stop();
    await a?.stop();
    await redis?.stop();
  });

  it('kill -9 of the replica running a slow workflow: the other marks the run failed, "replica <id> ended during the run"', async () => {
    const onA = await connectHttp(a.url);
    const onB = await connectHttp(b.url);
    clients.push(onA, onB);
    void callTool(onA, 'workflow_ping-then-wait', {}).catch(() => undefined);
    const started = await eventually(
      () => callTool(onB, 'core_workflow_execution_list', { workflow_name: 'ping-then-wait' }),
      (r) => (r.structuredContent as { total: number } | undefined)?.total === 1,
      30_000,
      100,
    );
    const id = (started.structuredContent as { executions: Execution[] }).executions[0]!.execution_id;
    const get = async (): Promise<Execution> =>
      (await callTool(onB, 'core_workflow_execution_get', { execution_id: id })).structuredContent as unknown as Execution;
    // Stored after each top-level step: once 'one' is, the run is in 'wait' (two minutes).
    await eventually(get, (r) => r.steps.find((s) => s.id === 'one')?.status === 'completed', 30_000, 100);

    const exited = new Promise((resolve) => a.proc.once('exit', resolve));
    a.proc.kill('SIGKILL');
    await exited;
    const killedAt = Date.now();
    const failed = await eventually(get, (r) => r.status !== 'running', 60_000, 250);
    console.log(`      marked ${failed.status} ${Date.now() - killedAt} ms after the kill`);
    expect(failed.status).to.equal('failed');
    expect(failed.error).to.match(/^replica \S+ ended during the run$/);
    expect(failed.steps.find((s) => s.id === 'one')?.status).to.equal('completed');
    expect(failed.steps.filter((s) => s.status === 'running')).to.deep.equal([]);
  });
});
