/**
 * Cluster mode under its own faults (`npm run bench -- cluster-faults`; several minutes, so
 * only when named). Three replicas on one real redis-server behind a real HAProxy (round
 * robin, no stickiness), 16 clients calling call_tool in a loop plus one client opening and
 * closing sessions, through five faults one after another:
 *
 * - 1 s Redis latency (a delaying TCP hop between the replicas and Redis) for 20 s;
 * - Redis full (`noeviction`, maxmemory just above what it holds, filled) for 20 s;
 * - Redis restarted without persistence, then 75 s of load: past the sessions' expiry push-back;
 * - Redis cut off from every replica for 20 s (it runs on with its data, so every liveness key
 *   lapses meanwhile) while a call and a workflow run as tasks;
 * - SIGSTOP of one replica for 20 s (past its liveness) while it runs a call and a workflow as tasks;
 * - kill -9 of one replica while it runs a call and a workflow as tasks, then its restart.
 *
 * Per fault: calls attempted and failed (lost sessions, refused initializes, other failures),
 * how long after the fault ended calls still failed, the longest and p99 wait, and the records
 * (tasks, runs) lost or contradicting. Targets (issue 36): 0 lost sessions, 0 contradicting
 * records, failures only while the balancer notices a dead replica.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../test/support/harness.js';
import { startHaproxy } from '../test/support/haproxy.js';
import { startRedis, type RedisServer } from '../test/support/redis-server.js';
import { startDelayProxy, type DelayProxy } from './delay-proxy.js';
import { FaultLoad, type Outcome } from './fault-load.js';
import { Witness, type RecordFigures, type Tracked } from './fault-records.js';
import { healthy, startReplica, type Replica } from './fault-replicas.js';

export interface FaultFigures {
  fault: string;
  attempted: number;
  failed: number;
  lostSessions: number;
  refusedInitializes: number;
  otherFailures: number;
  /** Seconds from the end of the fault (for kill -9: the kill) to the last failed call; 0 if none failed after it. */
  recoverSeconds: number;
  worstWaitMs: number;
  p99WaitMs: number;
  records: RecordFigures;
  /** A few distinct failure messages, for reading the figures. */
  samples: string[];
}

const CLIENTS = 16;

/** A workflow that holds for `ms` (its input) after a first quick step: a run in flight to break. */
const HOLD = `apiVersion: switchboard.dev/v1alpha1
kind: Workflow
metadata: {name: hold}
spec:
  args:
    ms: {type: integer, required: true}
  steps:
    - {id: one, tool: x_tools_ping}
    - {id: wait, tool: x_tools_slow, args: {ms: "{{ .input.ms }}"}}
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function figuresOf(fault: string, outcomes: Outcome[], endedAt: number, records: RecordFigures): FaultFigures {
  const waits = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const failures = outcomes.filter((o) => o.kind !== 'ok');
  const lastFailure = Math.max(endedAt, ...failures.map((o) => o.at + o.ms));
  return {
    fault,
    attempted: outcomes.length,
    failed: failures.length,
    lostSessions: failures.filter((o) => o.kind === 'lost').length,
    refusedInitializes: failures.filter((o) => o.kind === 'refused').length,
    otherFailures: failures.filter((o) => o.kind === 'failed').length,
    recoverSeconds: Math.round((lastFailure - endedAt) / 100) / 10,
    worstWaitMs: waits.at(-1) ?? 0,
    p99WaitMs: waits[Math.floor(waits.length * 0.99)] ?? 0,
    records,
    samples: [...new Set(failures.map((o) => `${o.kind}: ${o.detail ?? ''}`))].slice(0, 4),
  };
}

const NO_RECORDS: RecordFigures = { checked: 0, lost: 0, contradicting: 0, notes: [] };

interface Rig {
  redis: RedisServer;
  probe: Redis;
  hop: DelayProxy;
  replicas: Replica[];
  balancer: string;
  load: FaultLoad;
  witness: Witness;
}

/** Runs one fault: `inject` breaks things and returns when the fault has ended (the time, load clock). */
async function phase(rig: Rig, fault: string, inject: () => Promise<{ endedAt: number; records?: () => Promise<RecordFigures> }>): Promise<FaultFigures> {
  for (const r of rig.replicas) await healthy(r.port);
  await rig.load.settled(2000, 60_000);
  const from = rig.load.now();
  process.stderr.write(`cluster-faults: ${fault}\n`);
  const witnessLost = rig.witness.lostSessions;
  let endedAt = rig.load.now();
  let recordFigures = NO_RECORDS;
  try {
    const injected = await inject();
    endedAt = injected.endedAt;
    await rig.load.settled(3000, 90_000);
    if (injected.records) recordFigures = await injected.records();
  } catch (err) {
    // The witness could not do its part (a refused task, say): the figures say so instead of ending the bench.
    recordFigures = { ...NO_RECORDS, notes: [`witness failed: ${(err as Error).message.slice(0, 200)}`] };
    await rig.load.settled(3000, 90_000);
  }
  const figures = figuresOf(fault, rig.load.between(from, rig.load.now()), endedAt, recordFigures);
  figures.lostSessions += rig.witness.lostSessions - witnessLost;
  return figures;
}

async function latency(rig: Rig): Promise<FaultFigures> {
  return phase(rig, '1 s Redis latency, 20 s', async () => {
    rig.hop.setDelay(1000);
    await sleep(20_000);
    rig.hop.setDelay(0);
    return { endedAt: rig.load.now() };
  });
}

async function redisFull(rig: Rig): Promise<FaultFigures> {
  return phase(rig, 'Redis full (noeviction), 20 s', async () => {
    const used = Number(/used_memory:(\d+)/.exec(await rig.probe.info('memory'))?.[1] ?? 0);
    await rig.probe.config('SET', 'maxmemory-policy', 'noeviction');
    await rig.probe.config('SET', 'maxmemory', String(used + 4 * 1024 * 1024));
    const filler = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 10_000; i++) {
      try {
        await rig.probe.set(`bench-filler:${i}`, filler);
      } catch {
        break;
      }
    }
    // A workflow run while nothing can be written: its record must be there once Redis takes writes.
    rig.witness.steer(rig.balancer);
    const run = rig.witness.run('workflow_hold', { ms: 3000 }).catch(() => undefined);
    await sleep(20_000);
    const fillers = await rig.probe.keys('bench-filler:*');
    if (fillers.length > 0) await rig.probe.del(...fillers);
    await rig.probe.config('SET', 'maxmemory', '0');
    const endedAt = rig.load.now();
    const id = await run;
    return {
      endedAt,
      records: async () => {
        if (id === undefined) return { checked: 1, lost: 0, contradicting: 0, notes: ['workflow run: refused (no execution id)'] };
        const tracked: Tracked[] = [{ kind: 'workflow run', id }];
        await rig.witness.untilFinal(tracked, 30_000);
        return rig.witness.verdict(tracked);
      },
    };
  });
}

/** Creates a call task and a workflow task, each lasting `ms`, through `target` (the balancer or one replica). */
async function startTasks(rig: Rig, target: string, ms: number): Promise<Tracked[]> {
  rig.witness.steer(target);
  return [
    { kind: 'call task', id: await rig.witness.task('x_tools_slow', { ms }) },
    { kind: 'workflow task', id: await rig.witness.task('workflow_hold', { ms }) },
  ];
}

/** The verdict once every tracked record is final and a replica that writes late (fenced, or a sweep) has had 10 s to. */
async function settledVerdict(rig: Rig, tracked: Tracked[]): Promise<RecordFigures> {
  await rig.witness.untilFinal(tracked, 60_000);
  await sleep(10_000);
  return rig.witness.verdict(tracked);
}

async function redisRestart(rig: Rig): Promise<FaultFigures> {
  return phase(rig, 'Redis restarted without persistence, then 75 s of load', async () => {
    const tracked = await startTasks(rig, rig.balancer, 30_000);
    await rig.redis.restart();
    const endedAt = rig.load.now();
    await sleep(75_000);
    return {
      endedAt,
      records: async () => {
        await rig.witness.untilFinal(tracked, 60_000);
        return rig.witness.verdict(tracked);
      },
    };
  });
}

async function redisCutOff(rig: Rig): Promise<FaultFigures> {
  return phase(rig, 'Redis cut off from every replica for 20 s (a call and a workflow running as tasks)', async () => {
    const tracked = await startTasks(rig, rig.balancer, 30_000);
    rig.hop.setCut(true);
    await sleep(20_000);
    rig.hop.setCut(false);
    const endedAt = rig.load.now();
    return {
      endedAt,
      // A sweep that took the replicas for ended would have written by then.
      records: () => settledVerdict(rig, tracked),
    };
  });
}

/** Creates a call task and a workflow task on `victim` (the witness's requests go straight to it). */
async function tasksOn(rig: Rig, victim: Replica, ms: number): Promise<Tracked[]> {
  const tracked = await startTasks(rig, victim.url, ms);
  // Both are under way on the victim once the run's first step is recorded.
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && (await rig.witness.runStatus(tracked[1]!.id)) === 'lost') await sleep(100);
  rig.witness.steer(rig.balancer);
  return tracked;
}

async function pause(rig: Rig): Promise<FaultFigures> {
  const victim = rig.replicas[1]!;
  return phase(rig, 'SIGSTOP of a replica for 20 s (running a call and a workflow as tasks)', async () => {
    const tracked = await tasksOn(rig, victim, 25_000);
    victim.signal('SIGSTOP');
    const stoppedAt = Date.now();
    while (Date.now() - stoppedAt < 20_000) {
      await rig.witness.observe(tracked);
      await sleep(1000);
    }
    victim.signal('SIGCONT');
    const endedAt = rig.load.now();
    return {
      endedAt,
      // The paused replica's own work ends ~5 s after SIGCONT; read after it could have written.
      records: () => settledVerdict(rig, tracked),
    };
  });
}

async function kill(rig: Rig): Promise<FaultFigures> {
  const victim = rig.replicas[2]!;
  return phase(rig, 'kill -9 of a replica (running a call and a workflow as tasks), then its restart', async () => {
    const tracked = await tasksOn(rig, victim, 20_000);
    victim.signal('SIGKILL');
    const endedAt = rig.load.now();
    await rig.witness.untilFinal(tracked, 60_000);
    await victim.restart();
    return { endedAt, records: () => rig.witness.verdict(tracked) };
  });
}

export async function benchClusterFaults(root: string): Promise<FaultFigures[]> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-faults-'));
  const redis = await startRedis();
  const hop = await startDelayProxy(redis.port);
  const probe = new Redis(redis.url, { maxRetriesPerRequest: null });
  // Redis is restarted on purpose: the probe reconnects, its connection errors meanwhile are expected.
  probe.on('error', () => undefined);
  const replicas: Replica[] = [];
  let stopBalancer = async (): Promise<void> => undefined;
  let load: FaultLoad | undefined;
  let witness: Witness | undefined;
  try {
    await mkdir(join(dir, 'mcpservers'), { recursive: true });
    await mkdir(join(dir, 'workflows'), { recursive: true });
    await writeFile(join(dir, 'config.yaml'), `aggregator:\n  cluster:\n    redis:\n      url: redis://127.0.0.1:${hop.port}\n      keyPrefix: "bench:"\n`);
    const server = join(root, 'dist/test/fixtures/test-server.js');
    await writeFile(join(dir, 'mcpservers/tools.yaml'), `name: tools\ntype: stdio\ncommand: [node, ${JSON.stringify(server)}]\nautoStart: true\n`);
    await writeFile(join(dir, 'workflows/hold.yaml'), HOLD);
    for (let i = 0; i < 3; i++) replicas.push(await startReplica(root, dir, await freePort()));
    const balancer = await startHaproxy(replicas.map((r) => r.port));
    stopBalancer = () => balancer.stop();
    load = new FaultLoad(balancer.url, CLIENTS);
    witness = await Witness.open(balancer.url);
    const rig: Rig = { redis, probe, hop, replicas, balancer: balancer.url, load, witness };
    const figures: FaultFigures[] = [];
    const only = process.env.SWITCHBOARD_BENCH_FAULTS?.split(',');
    const faults = [latency, redisFull, redisRestart, redisCutOff, pause, kill].filter((f) => only === undefined || only.includes(f.name));
    for (const fault of faults) figures.push(await fault(rig));
    return figures;
  } finally {
    await load?.stop();
    await witness?.close();
    await stopBalancer();
    for (const r of replicas) await r.stop().catch(() => undefined);
    probe.disconnect();
    await hop.stop();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The figures as a Markdown table, with the records' notes and sample failures below. */
export function faultTable(figures: FaultFigures[]): string {
  const rows = figures.map(
    (f) =>
      `| ${f.fault} | ${f.attempted} | ${f.failed} | ${f.lostSessions} | ${f.refusedInitializes} | ${f.otherFailures} | ${f.recoverSeconds} | ${f.p99WaitMs} / ${f.worstWaitMs} | ${f.records.checked} / ${f.records.lost} / ${f.records.contradicting} |`,
  );
  const notes = figures.flatMap((f) => [`- ${f.fault}: ${f.records.notes.join('; ') || 'no records checked'}`, ...f.samples.map((s) => `  - ${s}`)]);
  return [
    '| fault | calls | failed | lost sessions | refused initializes | other failures | recover s | p99 / worst wait ms | records checked / lost / contradicting |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...notes,
  ].join('\n');
}
