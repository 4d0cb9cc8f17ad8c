/**
 * A replica that is only paused (SIGSTOP) past its liveness period is declared dead; when it
 * comes back (SIGCONT) it must not contradict what the others recorded meanwhile. Real
 * processes: a redis-server, three Switchboard replicas behind HAProxy (round robin, no
 * stickiness, `GET /health` checks), the test MCP server's slow tool as the upstream.
 *
 * A call and a workflow run as tasks on replica A (the client's task requests go straight to
 * it); A is stopped; the survivors end both `failed`; A is continued and finishes both. The
 * survivors' `failed` stands, on the run and on both tasks, with a note of the late end,
 * and tasks/get and core_workflow_execution_get agree for the same id. A carries on serving
 * new work under a new epoch. Also measured: how long HAProxy takes to route around the
 * stopped replica, and what calls already sent to it get.
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, type Task } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, eventually, makeConfigDir, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { addReplicas, clusterYaml } from '../support/cluster.js';
import { ensureHaproxy, startHaproxy, type RunningHaproxy } from '../support/haproxy.js';
import { redisServerMissing, startRedis, type RedisServer } from '../support/redis-server.js';
import { pingThenWait } from '../fixtures/workflows.js';

interface Execution {
  status: string;
  error?: string;
  steps?: { id: string; status: string }[];
  late_result?: { status: string; completed_at: string; replica: string };
}

/** The upstream work: longer than the survivors take to declare A dead (15 s liveness + 5 s sweeps). */
const WORK_MS = 25_000;
/** HAProxy's `timeout server`: the bound on a call already sent to a replica that stopped. */
const SERVER_TIMEOUT_MS = 8_000;

describe('cluster mode: a paused replica declared dead comes back', function () {
  this.timeout(240_000);
  let redis: RedisServer;
  let replicas: Running[] = [];
  let a: Running;
  let lb: RunningHaproxy;
  const clients: Client[] = [];
  /** One session, known to every replica; its requests go where `target` says: A, or the balancer. */
  let client: Client;
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
      'workflows/ping-then-wait.yaml': pingThenWait(WORK_MS),
    });
    a = await startSwitchboard({}, { configDir });
    replicas = [a, ...(await addReplicas(a, 2))];
    lb = await startHaproxy(
      replicas.map((r) => r.port),
      '/mcp',
      { httpCheck: true, serverTimeoutMs: SERVER_TIMEOUT_MS },
    );
    target = () => a.url;
    const balanced: typeof fetch = (input, init) => {
      const to = new URL(target());
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.port = to.port;
      return fetch(url, init);
    };
    client = new Client({ name: 'balanced', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(a.url), { fetch: balanced }));
    clients.push(client);
  });

  after(async () => {
    if (a && a.proc.exitCode === null) a.proc.kill('SIGCONT');
    for (const c of clients) await c.close().catch(() => undefined);
    await lb?.stop();
    for (const r of replicas.reverse()) await r.stop();
    await redis?.stop();
  });

  const create = async (name: string, args: Record<string, unknown>): Promise<string> =>
    (
      await client.request(
        { method: 'tools/call', params: { name: 'call_tool', arguments: { name, arguments: args }, task: { ttl: 600_000 } } },
        CreateTaskResultSchema,
      )
    ).task.taskId;
  const execution = async (id: string): Promise<Execution> =>
    (await callTool(client, 'core_workflow_execution_get', { execution_id: id })).structuredContent as unknown as Execution;

  it('SIGSTOP past the liveness period, then SIGCONT: the survivors\u2019 failed stands on the run and both tasks, with the late end noted once; A goes on serving', async () => {
    const call = await create('x_tools_slow', { ms: WORK_MS + 1 });
    await a.waitForLog(new RegExp(`slow ${WORK_MS + 1}: started`), 30_000);
    const run = await create('workflow_ping-then-wait', {});
    await eventually(
      () => execution(run),
      (r) => r.steps?.find((s) => s.id === 'one')?.status === 'completed',
      30_000,
      100,
    );

    a.proc.kill('SIGSTOP');
    const stoppedAt = Date.now();
    target = () => lb.url;
    // Calls already on their way when A stopped: round robin sends one in three to A.
    const inFlight = Array.from({ length: 6 }, async () => {
      const other = await connectHttp(lb.url).catch((err: unknown) => err as Error);
      if (other instanceof Error) return { ok: false, ms: Date.now() - stoppedAt, how: `initialize: ${other.message}` };
      clients.push(other);
      try {
        const r = await callTool(other, 'x_tools_ping');
        return { ok: !r.isError, ms: Date.now() - stoppedAt, how: r.isError ? text(r) : 'answered' };
      } catch (err) {
        return { ok: false, ms: Date.now() - stoppedAt, how: (err as Error).message };
      }
    });
    await eventually(
      () => lb.states(),
      (s) => s.r0 === 'DOWN',
      20_000,
      50,
    );
    const routedAround = Date.now() - stoppedAt;
    const flights = await Promise.all(inFlight);
    console.log(`      HAProxy took A out ${routedAround} ms after SIGSTOP`);
    for (const f of flights) console.log(`      a call sent as A stopped: ${f.ok ? 'answered' : 'failed'} after ${f.ms} ms (${f.how.slice(0, 80)})`);
    // Bounded: every call ended (answered by a survivor, or HAProxy's timeout on the stopped replica).
    for (const f of flights) expect(f.ms).to.be.below(SERVER_TIMEOUT_MS + 5_000);
    // Once taken out, nothing goes to A: calls through the balancer are all answered.
    for (let i = 0; i < 6; i++) expect((await callTool(client, 'x_tools_ping')).isError).to.not.equal(true);

    const ended = (id: string): Promise<Task> =>
      eventually(
        () => client.experimental.tasks.getTask(id),
        (t) => t.status !== 'working',
        90_000,
        250,
      );
    const callEnded = await ended(call);
    const runEnded = await ended(run);
    console.log(`      survivors ended the call task ${callEnded.status}, the workflow task ${runEnded.status}, ${Date.now() - stoppedAt} ms after SIGSTOP`);
    expect(callEnded.status).to.equal('failed');
    expect(runEnded.status).to.equal('failed');
    expect((await execution(run)).status).to.equal('failed');

    a.proc.kill('SIGCONT');
    const continuedAt = Date.now();
    // A's work finishes (its upstream answered while A was stopped): the run changes once.
    const afterRun = await eventually(
      () => execution(run),
      (r) => r.late_result !== undefined || r.status !== 'failed',
      60_000,
      250,
    );
    expect(afterRun.status, 'the survivors\u2019 failed stands on the run').to.equal('failed');
    expect(afterRun.error).to.match(/^replica \S+ ended during the run$/);
    expect(afterRun.late_result?.status).to.equal('completed');
    expect(afterRun.late_result?.replica).to.match(new RegExp(`-${a.proc.pid}-[0-9a-f]{6}$`));
    const lateNoted = (t: Task): boolean => /the work went on and ended completed at \S+ on replica \S+/.test(t.statusMessage ?? '');
    const runTask = await eventually(() => client.experimental.tasks.getTask(run), lateNoted, 30_000, 250);
    const callTask = await eventually(() => client.experimental.tasks.getTask(call), lateNoted, 30_000, 250);
    console.log(`      late ends noted ${Date.now() - continuedAt} ms after SIGCONT`);
    console.log(`      call task: ${callTask.statusMessage}`);

    // tasks/get and core_workflow_execution_get agree for the run's id; the survivors' reason kept first.
    expect(runTask.status).to.equal(afterRun.status);
    expect(runTask.statusMessage!.startsWith(`${afterRun.error!}; `)).to.equal(true);
    // The call task is not flipped: failed, as the client was told, its result the survivors' one.
    expect(callTask.status).to.equal('failed');
    expect(callTask.statusMessage).to.match(/^replica \S+ ended during the task; /);
    const result = await client.experimental.tasks.getTaskResult(call, CallToolResultSchema);
    expect(result.isError).to.equal(true);
    expect(text(result)).to.match(/replica \S+ ended during the task/);

    // A carries on under a new epoch: HAProxy takes it back, new work on it runs and stays its own.
    await eventually(
      () => lb.states(),
      (s) => s.r0 === 'UP',
      30_000,
      100,
    );
    target = () => a.url;
    expect((await callTool(client, 'x_tools_ping')).isError).to.not.equal(true);
    const fresh = await create('x_tools_slow', { ms: 50 });
    const freshEnded = await ended(fresh);
    expect(freshEnded.status).to.equal('completed');
    expect(a.logs()).to.match(/declared dead by the others.*it goes on as epoch 2/);

    // Recorded once: the records read the same through the balancer, after more sweep rounds.
    target = () => lb.url;
    const again = await execution(run);
    expect(again).to.deep.equal(afterRun);
    for (const id of [run, call]) {
      const t = await client.experimental.tasks.getTask(id);
      expect(t.status).to.equal('failed');
      expect(t.statusMessage!.match(/the work went on/g)).to.have.length(1);
    }
  });
});
