/**
 * run_code's execution records in cluster mode, with real processes: a real redis-server and two
 * Switchboard replicas over one configuration directory, code mode on. A script run on A is an
 * execution record every replica reads (the workflows' history on Redis), ended and complete by
 * the time A answers.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ran, runCode } from '../support/code-mode.js';
import { connectHttp, makeConfigDir, meta, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';
import { type RedisServer, startRedisOrSkip } from '../support/redis-server.js';

interface Run {
  kind?: string;
  workflow_name: string;
  status: string;
  input: { code?: string };
  result?: unknown;
  steps: { tool: string; status: string }[];
}

describe('cluster mode: run_code records shared through Redis', function () {
  this.timeout(180_000);
  let redis: RedisServer;
  const replicas: Running[] = [];
  const clients: Client[] = [];

  before(async function () {
    this.timeout(10 * 60_000);
    redis = await startRedisOrSkip(this);
    const dir = await makeConfigDir({
      'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n      connectTimeoutSeconds: 10\nplugins:\n  code-mode: {enabled: true, options: {workers: 1}}\n`,
      'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER),
    });
    for (let i = 0; i < 2; i++) replicas.push(await startSwitchboard({}, { configDir: dir }));
    for (const r of replicas) clients.push(await connectHttp(r.url));
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const r of replicas) await r.stop();
    await redis?.stop();
  });

  it('a run on A is read on B, complete, as soon as A has answered', async () => {
    const [a, b] = clients as [Client, Client];
    const code = "const p = await tools.x_tools_ping({}); return p.startsWith('pong');";
    const out = ran(await runCode(a, code));
    const run = await meta<Run>(b, 'call_tool', { name: 'core_workflow_execution_get', arguments: { execution_id: out.execution_id } });
    expect(run).to.include({ kind: 'code', workflow_name: 'run_code', status: 'completed', result: true });
    expect(run.input.code).to.equal(code);
    expect(run.steps.map((s) => [s.tool, s.status])).to.deep.equal([['x_tools_ping', 'completed']]);
    const listed = await meta<{ executions: { execution_id: string }[] }>(b, 'call_tool', {
      name: 'core_workflow_execution_list',
      arguments: { workflow_name: 'run_code' },
    });
    expect(listed.executions.map((e) => e.execution_id)).to.include(out.execution_id);
  });
});
