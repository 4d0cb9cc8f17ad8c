/**
 * The soak: 32 clients calling tools for a long time while server files hot-reload every
 * few seconds, config.yaml changes, one upstream is restarted every minute and sessions
 * come and go. What must hold: no failed call on a healthy server, memory flat, no growth
 * in open handles. `node dist/bench/soak.js [--minutes 30] [--clients 32]`; figures go to
 * stdout and .bench-results/soak.json; exit 1 when a healthy call failed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectHttp, EVERYTHING, startSwitchboard, stdioServer, TEST_SERVER } from '../test/support/harness.js';
import { median, percentile } from './stats.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const minutes = arg('minutes', 30);
const clientCount = arg('clients', 32);
const endAt = Date.now() + minutes * 60_000;

interface Sample {
  atSeconds: number;
  rssMiB: number;
  heapMiB: number;
  activeResources: number;
  sessions: number;
}

const sb = await startSwitchboard({
  'config.yaml': 'aggregator:\n  limits:\n    maxSessions: 1000\ntoolsetPresets:\n  soak:\n    include:\n      - server: t\n',
  'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
  'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING),
  'mcpservers/restartee.yaml': stdioServer('restartee', TEST_SERVER),
  'mcpservers/churn.yaml': stdioServer('churn', TEST_SERVER),
});
const mib = (b: number) => Math.round((b / 1048576) * 10) / 10;
const started = Date.now();
const healthy = { calls: 0, failed: 0, latencies: [] as number[], failures: [] as string[] };
const restartee = { calls: 0, failed: 0 };
let sessionsOpened = 0;
let reloads = 0;
let restarts = 0;

const textOf = (r: CallToolResult) => (r.content[0] as { text?: string } | undefined)?.text ?? '';
const call = (c: Client, name: string, args: Record<string, unknown>) =>
  c.callTool({ name: 'call_tool', arguments: { name, arguments: args } }) as Promise<CallToolResult>;
const leave = async (c: Client) => {
  await (c.transport as StreamableHTTPClientTransport).terminateSession().catch(() => undefined);
  await c.close();
};

async function worker(index: number): Promise<void> {
  let client = await connectHttp(sb.url);
  sessionsOpened++;
  let n = 0;
  while (Date.now() < endAt) {
    n++;
    // Every 200 calls a worker ends its session and opens a new one: sessions come and go.
    if (n % 200 === 0) {
      await leave(client);
      client = await connectHttp(sb.url);
      sessionsOpened++;
    }
    const t0 = performance.now();
    const onEverything = (n + index) % 3 === 0;
    try {
      const r = onEverything ? await call(client, 'x_everything_echo', { message: `m${n}` }) : await call(client, 'x_t_add', { a: n, b: index });
      const ok = !r.isError && (onEverything ? textOf(r).includes(`m${n}`) : (r.structuredContent as { sum?: number } | undefined)?.sum === n + index);
      healthy.calls++;
      healthy.latencies.push(performance.now() - t0);
      if (!ok) {
        healthy.failed++;
        if (healthy.failures.length < 20) healthy.failures.push(JSON.stringify(r).slice(0, 300));
      }
    } catch (err) {
      healthy.calls++;
      healthy.failed++;
      if (healthy.failures.length < 20) healthy.failures.push(String(err));
    }
    if (n % 25 === 0) {
      restartee.calls++;
      const r = await call(client, 'x_restartee_ping', {}).catch(() => undefined);
      if (!r || r.isError) restartee.failed++;
    }
  }
  await leave(client);
}

async function operator(): Promise<Sample[]> {
  const admin = await connectHttp(sb.url);
  const samples: Sample[] = [];
  let tick = 0;
  while (Date.now() < endAt) {
    await new Promise((r) => setTimeout(r, 2000));
    tick++;
    // Every 2 s a server file changes in a way that restarts that server (toolPrefix), every
    // 10 s config.yaml, every 60 s an upstream restarts; every 10 s a memory sample.
    await writeFile(join(sb.configDir, 'mcpservers/churn.yaml'), stdioServer('churn', TEST_SERVER, [], `toolPrefix: churn${tick % 2}\n`));
    reloads++;
    if (tick % 5 === 0) {
      await writeFile(
        join(sb.configDir, 'config.yaml'),
        `aggregator:\n  limits:\n    maxSessions: 1000\ntoolsetPresets:\n  soak:\n    description: tick ${tick}\n    include:\n      - server: t\n`,
      );
      reloads++;
      const s = (await call(admin, 'core_service_status', { name: 'aggregator' })).structuredContent as {
        metadata: { memory: { rssBytes: number; heapUsedBytes: number }; activeResources: number; sessions: number };
      };
      samples.push({
        atSeconds: Math.round((Date.now() - started) / 1000),
        rssMiB: mib(s.metadata.memory.rssBytes),
        heapMiB: mib(s.metadata.memory.heapUsedBytes),
        activeResources: s.metadata.activeResources,
        sessions: s.metadata.sessions,
      });
      process.stderr.write(
        `soak ${samples.at(-1)!.atSeconds}s: ${healthy.calls} calls, ${healthy.failed} failed, rss ${samples.at(-1)!.rssMiB} MiB, heap ${samples.at(-1)!.heapMiB} MiB, resources ${samples.at(-1)!.activeResources}\n`,
      );
    }
    if (tick % 30 === 0) {
      await call(admin, 'core_service_restart', { name: 'restartee' });
      restarts++;
    }
  }
  await leave(admin);
  return samples;
}

const [samples] = await Promise.all([operator(), ...Array.from({ length: clientCount }, (_, i) => worker(i))]);
await sb.stop();

const sorted = [...healthy.latencies].sort((a, b) => a - b);
const first = samples.slice(0, 3);
const last = samples.slice(-3);
const figures = {
  minutes,
  clients: clientCount,
  healthyCalls: healthy.calls,
  healthyFailed: healthy.failed,
  failures: healthy.failures,
  p50Ms: Math.round(percentile(sorted, 50) * 100) / 100,
  p99Ms: Math.round(percentile(sorted, 99) * 100) / 100,
  restarteeCalls: restartee.calls,
  restarteeFailed: restartee.failed,
  restarts,
  reloads,
  sessionsOpened,
  start: {
    rssMiB: median(first.map((s) => s.rssMiB)),
    heapMiB: median(first.map((s) => s.heapMiB)),
    activeResources: median(first.map((s) => s.activeResources)),
  },
  end: { rssMiB: median(last.map((s) => s.rssMiB)), heapMiB: median(last.map((s) => s.heapMiB)), activeResources: median(last.map((s) => s.activeResources)) },
  samples,
};
process.stdout.write(
  [
    `## soak: ${minutes} min, ${clientCount} clients`,
    '',
    '| healthy calls | failed | p50 ms | p99 ms | reloads | restarts | sessions opened | restartee calls failed (during its restarts) |',
    '|---|---|---|---|---|---|---|---|',
    `| ${figures.healthyCalls} | ${figures.healthyFailed} | ${figures.p50Ms} | ${figures.p99Ms} | ${reloads} | ${restarts} | ${sessionsOpened} | ${restartee.failed} of ${restartee.calls} |`,
    '',
    '| | RSS MiB | heap MiB | active resources |',
    '|---|---|---|---|',
    `| start (median of first 3 samples) | ${figures.start.rssMiB} | ${figures.start.heapMiB} | ${figures.start.activeResources} |`,
    `| end (median of last 3 samples) | ${figures.end.rssMiB} | ${figures.end.heapMiB} | ${figures.end.activeResources} |`,
    '',
  ].join('\n'),
);
const out = join(root, '.bench-results', 'soak.json');
await mkdir(dirname(out), { recursive: true });
await writeFile(out, JSON.stringify(figures, null, 2));
process.exit(healthy.failed > 0 ? 1 : 0);
