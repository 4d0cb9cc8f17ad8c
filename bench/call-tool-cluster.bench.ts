/**
 * call_tool on one replica of a cluster (aggregator.cluster.redis, a real redis-server)
 * against a single process without it, the same streamable-HTTP upstream, interleaved round
 * by round with the floor; and how many Redis commands each call costs (INFO commandstats
 * around the rounds). A session a replica holds (initialized there, or rebuilt there once
 * from its record) is served from memory: the target is no Redis round trip per call.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Redis } from 'ioredis';
import { startRedis } from '../test/support/redis-server.js';
import { interleaved, type CallToolFigures } from './call-tool.bench.js';
import { startChild, type Child } from './processes.js';

type Target = 'floor' | 'single' | 'cluster';

interface Options {
  rounds: number;
  calls: number;
  many: number;
  root: string;
}

export interface ClusterFigures {
  figures: (Omit<CallToolFigures, 'target'> & { target: Target })[];
  /** Redis commands (all kinds but INFO) per call_tool on the cluster replica, over every round. */
  redisCommandsPerCall: number;
  redisCommands: Record<string, number>;
  clusterCalls: number;
}

async function commandCounts(redis: Redis): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const m of (await redis.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) counts.set(m[1]!, Number(m[2]));
  return counts;
}

async function switchboardIn(root: string, dir: string, upstreamPort: number, config: string): Promise<Child> {
  await mkdir(join(dir, 'mcpservers'), { recursive: true });
  await writeFile(join(dir, 'config.yaml'), config);
  await writeFile(join(dir, 'mcpservers/up.yaml'), `name: up\ntype: streamable-http\nurl: http://127.0.0.1:${upstreamPort}/mcp\n`);
  return startChild(
    [join(root, 'bin/switchboard.js'), 'serve', '--config-path', dir, '--port', '0', '--host', '127.0.0.1'],
    /listening on http:\/\/[^\s]+:(\d+)\/mcp/,
    { SWITCHBOARD_LOG_LEVEL: 'info' },
  );
}

export async function benchCallToolCluster(options: Options): Promise<ClusterFigures> {
  const children: Child[] = [];
  const dirs: string[] = [];
  const redis = await startRedis();
  const probe = new Redis(redis.url);
  try {
    const upstream = await startChild([join(options.root, 'dist/bench/upstream-server.js'), '0'], /listening (\d+)/);
    children.push(upstream);
    const floor = await startChild([join(options.root, 'dist/bench/floor-proxy.js'), String(upstream.port)], /listening (\d+)/);
    children.push(floor);
    const dir = async () => {
      const d = await mkdtemp(join(tmpdir(), 'switchboard-bench-cluster-'));
      dirs.push(d);
      return d;
    };
    const single = await switchboardIn(options.root, await dir(), upstream.port, '');
    children.push(single);
    const cluster = await switchboardIn(options.root, await dir(), upstream.port, `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n`);
    children.push(cluster);
    // The "ready" line follows listening; give the upstream connections a moment.
    await new Promise((r) => setTimeout(r, 300));
    const ports: Record<Target, number> = { floor: floor.port, single: single.port, cluster: cluster.port };
    const cpus: Record<Target, () => number> = { floor: floor.cpuMs, single: single.cpuMs, cluster: cluster.cpuMs };
    // Counted per cluster call, initialize and its record included: the sessions are opened inside the measurement.
    let clusterCalls = 0;
    const call = (target: Target) =>
      target === 'floor'
        ? (c: Client, i: number) => c.callTool({ name: 'echo', arguments: { message: `m${i}` } })
        : (c: Client, i: number) => {
            if (target === 'cluster') clusterCalls++;
            return c.callTool({ name: 'call_tool', arguments: { name: 'x_up_echo', arguments: { message: `m${i}` } } });
          };
    const before = await commandCounts(probe);
    const figures = [];
    for (const concurrency of [1, options.many]) figures.push(...(await interleaved(ports, cpus, call, concurrency, options.calls, options.rounds)));
    const after = await commandCounts(probe);
    const redisCommands: Record<string, number> = {};
    for (const [name, n] of after) {
      const d = n - (before.get(name) ?? 0);
      if (name !== 'info' && d > 0) redisCommands[name] = d;
    }
    const total = Object.values(redisCommands).reduce((a, b) => a + b, 0);
    return { figures, redisCommandsPerCall: total / clusterCalls, redisCommands, clusterCalls };
  } finally {
    probe.disconnect();
    for (const c of children.reverse()) await c.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
    await redis.stop();
  }
}
