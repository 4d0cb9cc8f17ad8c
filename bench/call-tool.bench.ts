/**
 * call_tool through Switchboard vs the same call made directly to the upstream, and vs a
 * bare pass-through proxy (the floor). p50/p99 latency, throughput and server CPU per call
 * at 1 and 32 concurrent clients; several rounds, medians.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startChild, type Child } from './processes.js';
import { median, percentile, round } from './stats.js';

type Target = 'direct' | 'floor' | 'switchboard';

export interface CallToolFigures {
  target: Target;
  concurrency: number;
  p50Ms: number;
  p99Ms: number;
  callsPerSecond: number;
  /** CPU of the process in the middle (proxy or Switchboard) per call; the upstream's for direct. */
  serverCpuMsPerCall: number;
  /** Each round's p50 against the floor's in the same round (1 for the floor itself). */
  p50VsFloorByRound?: number[];
}

interface Options {
  rounds: number;
  callsAtOne: number;
  callsAtMany: number;
  many: number;
  root: string;
}

export async function connect(port: number): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  return client;
}

function caller(target: Target): (client: Client, i: number) => Promise<unknown> {
  if (target === 'switchboard') {
    return (client, i) => client.callTool({ name: 'call_tool', arguments: { name: 'x_up_echo', arguments: { message: `m${i}` } } });
  }
  return (client, i) => client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
}

/**
 * Every target at one concurrency: a warm-up each, then `rounds` rounds with the targets
 * interleaved round by round (so drift on the machine hits all alike); medians. Each
 * target's callers use the v1 SDK client.
 */
export function interleaved<T extends string>(
  ports: Record<T, number>,
  cpus: Record<T, () => number>,
  call: (target: T) => (c: Client, i: number) => Promise<unknown>,
  concurrency: number,
  total: number,
  rounds: number,
): Promise<(Omit<CallToolFigures, 'target'> & { target: T })[]> {
  return interleavedWith(ports, cpus, call, concurrency, total, rounds, (_target, port) => connect(port));
}

/** The same with the client each target's callers use chosen by `open` (call-tool-modern gives its modern target the v2 client). */
export async function interleavedWith<T extends string, C extends { close(): Promise<void> }>(
  ports: Record<T, number>,
  cpus: Record<T, () => number>,
  call: (target: T) => (c: C, i: number) => Promise<unknown>,
  concurrency: number,
  total: number,
  rounds: number,
  open: (target: T, port: number) => Promise<C>,
): Promise<(Omit<CallToolFigures, 'target'> & { target: T })[]> {
  const targets = Object.keys(ports) as T[];
  const results = new Map<T, Awaited<ReturnType<typeof round1>>[]>(targets.map((t) => [t, []]));
  const clients = new Map<T, C[]>();
  for (const target of targets) {
    clients.set(target, await Promise.all(Array.from({ length: concurrency }, () => open(target, ports[target]))));
    await round1(clients.get(target)!, call(target), Math.min(300, total), cpus[target]);
  }
  for (let r = 0; r < rounds; r++) {
    for (const target of targets) results.get(target)!.push(await round1(clients.get(target)!, call(target), total, cpus[target]));
  }
  const figures: (Omit<CallToolFigures, 'target'> & { target: T })[] = [];
  const floor = results.get('floor' as T);
  for (const target of targets) {
    await Promise.all(clients.get(target)!.map((c) => c.close()));
    const rs = results.get(target)!;
    figures.push({
      target,
      concurrency,
      p50Ms: round(median(rs.map((x) => x.p50))),
      p99Ms: round(median(rs.map((x) => x.p99))),
      callsPerSecond: Math.round(median(rs.map((x) => x.rps))),
      serverCpuMsPerCall: round(median(rs.map((x) => x.cpuPerCall))),
      ...(floor ? { p50VsFloorByRound: rs.map((x, i) => round(x.p50 / floor[i]!.p50)) } : {}),
    });
  }
  return figures;
}

export async function round1<C>(clients: C[], call: (c: C, i: number) => Promise<unknown>, total: number, cpu: () => number) {
  // The SDK client's fetch leaves an abort listener per request on its transport's signal
  // until a collection frees it; collected between rounds, every round starts alike instead
  // of paying a growing listener list (and its warnings) in the client.
  (globalThis as { gc?: () => void }).gc?.();
  const latencies: number[] = [];
  let next = 0;
  const cpu0 = cpu();
  const t0 = process.hrtime.bigint();
  await Promise.all(
    clients.map(async (client) => {
      while (next < total) {
        const i = next++;
        const s = process.hrtime.bigint();
        await call(client, i);
        latencies.push(Number(process.hrtime.bigint() - s) / 1e6);
      }
    }),
  );
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpuMs = cpu() - cpu0;
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), rps: (total * 1000) / wallMs, cpuPerCall: cpuMs / total };
}

/**
 * The processes a call_tool bench times: the upstream, the floor proxy in front of it, and a
 * Switchboard aggregating it from `dir` (pushed to `children`, to be stopped by the caller).
 */
export async function startCallToolTargets(
  root: string,
  dir: string,
  children: Child[],
  logLevel: string,
): Promise<{ upstream: Child; floor: Child; switchboard: Child }> {
  const upstream = await startChild([join(root, 'dist/bench/upstream-server.js'), '0'], /listening (\d+)/);
  children.push(upstream);
  const floor = await startChild([join(root, 'dist/bench/floor-proxy.js'), String(upstream.port)], /listening (\d+)/);
  children.push(floor);
  await mkdir(join(dir, 'mcpservers'), { recursive: true });
  await writeFile(join(dir, 'mcpservers/up.yaml'), `name: up\ntype: streamable-http\nurl: http://127.0.0.1:${upstream.port}/mcp\n`);
  // Launched as the npm bin's shebang, the image's ENTRYPOINT and `npm start` launch it, with
  // a young generation of up to 4 MiB semi-spaces (docs/decisions.md, "Launchers that can pass
  // a flag keep --max-semi-space-size=4"), as call-tool-stdio does. A flagless `node
  // bin/switchboard.js` holds it at 1 MiB for memory: 15-30 % more CPU a call at sixteen
  // clients, scavenging every megabyte (bench/README.md, "The launch the bench measures").
  const switchboard = await startChild(
    ['--max-semi-space-size=4', join(root, 'bin/switchboard.js'), 'serve', '--config-path', dir, '--port', '0', '--host', '127.0.0.1'],
    /listening on http:\/\/[^\s]+:(\d+)\/mcp/,
    { SWITCHBOARD_LOG_LEVEL: logLevel },
  );
  children.push(switchboard);
  // The "ready" line follows listening; give the upstream connection a moment.
  await new Promise((r) => setTimeout(r, 300));
  return { upstream, floor, switchboard };
}

export async function benchCallTool(options: Options): Promise<CallToolFigures[]> {
  const children: Child[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-'));
  try {
    const { upstream, floor, switchboard } = await startCallToolTargets(
      options.root,
      dir,
      children,
      'warn' === process.env.SWITCHBOARD_LOG_LEVEL ? 'warn' : 'info',
    );

    const ports: Record<Target, number> = { direct: upstream.port, floor: floor.port, switchboard: switchboard.port };
    const cpus: Record<Target, () => number> = { direct: upstream.cpuMs, floor: floor.cpuMs, switchboard: switchboard.cpuMs };
    const figures: CallToolFigures[] = [];
    for (const concurrency of [1, options.many]) {
      const total = concurrency === 1 ? options.callsAtOne : options.callsAtMany;
      figures.push(...(await interleaved(ports, cpus, caller, concurrency, total, options.rounds)));
    }
    return figures;
  } finally {
    for (const c of children.reverse()) await c.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
