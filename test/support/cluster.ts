/**
 * Several Switchboard replicas on one Redis, for cluster-mode tests: one configuration
 * directory, each replica its own process and port on loopback. Replica 0 is started by the
 * caller (with whatever setup it needs, OAuth or not); the others join with `addReplicas`.
 */
import { request } from 'node:http';
import { startSwitchboard, type Running } from './harness.js';
import { startProtected, type OAuthSetup } from './oauth-setup.js';
import type { RedisServer } from './redis-server.js';

/** The `cluster:` block for config.yaml, indented under `aggregator:`. */
export function clusterYaml(redis: RedisServer, indent = '  '): string {
  return [`${indent}cluster:`, `${indent}  redis:`, `${indent}    url: ${redis.url}`, `${indent}    keyPrefix: "test:"`].join('\n');
}

/** More replicas over `first`'s configuration directory, on free ports. */
export async function addReplicas(first: Running, count: number, env: Record<string, string> = {}): Promise<Running[]> {
  const replicas: Running[] = [];
  for (let i = 0; i < count; i++) replicas.push(await startSwitchboard({}, { configDir: first.configDir, env }));
  return replicas;
}

/** Sums `INFO commandstats`: every command Redis ran, by name (INFO itself left out). */
export function commandCounts(redis: RedisServer): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of redis.cli('INFO', 'commandstats').split('\n')) {
    const m = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (m && m[1] !== 'info') counts.set(m[1]!, Number(m[2]));
  }
  return counts;
}

/**
 * Commands every replica sends on a timer, whatever the calls do: the liveness key and its
 * fence (PSETEX and EXISTS, every 5 s), the looks for runs and tasks of ended replicas
 * (HGETALL, each every 5 s) and a PING on each connection (every 5 s). Nothing on a request's
 * path sends them (replica-liveness.ts, execution-records.ts, task-store.ts,
 * lib/redis/silent-connection-probe.ts).
 */
export const TIMER_COMMANDS: readonly string[] = ['psetex', 'exists', 'hgetall', 'ping'];

/** What ran between two `commandCounts`, by name (only names that ran), leaving out `ignore`. */
export function commandsBetween(before: Map<string, number>, after: Map<string, number>, ignore: readonly string[] = []): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [name, n] of after) {
    const d = n - (before.get(name) ?? 0);
    if (d > 0 && !ignore.includes(name)) delta[name] = d;
  }
  return delta;
}

/** A replica's /health answer. */
export async function health(sb: Running): Promise<{ status: string; reason?: string }> {
  return (await (await fetch(new URL('/health', sb.url))).json()) as { status: string; reason?: string };
}

/** An initialize sent to `port` as if addressed to `hostPort` (a balancer in front of both would do that). */
export function initializeAt(port: number, hostPort: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { host: hostPort, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The storage key the protected cluster's replicas share (OAuth state is sealed with it in Redis). */
export const CLUSTER_STORAGE_KEY = 'cluster-test-storage-key-0123456789abcdef';

/**
 * A protected Switchboard (OAuth server on, persistent sealed storage, cluster mode on `redis`)
 * and `more` replicas beside it: the first of `replicas` is the one the identity provider
 * sends people back to. `serverYaml`: further lines under `aggregator:` (limits, say).
 */
export async function startProtectedCluster(redis: RedisServer, more: number, serverYaml: string[] = []): Promise<{ setup: OAuthSetup; replicas: Running[] }> {
  const yaml = ['      storage:', '        persistent: true', '        encryptionKey: ${STORAGE_KEY}', clusterYaml(redis), ...serverYaml].join('\n');
  const setup = await startProtected({ serverYaml: yaml, env: { STORAGE_KEY: CLUSTER_STORAGE_KEY } });
  const replicas = [setup.sb, ...(await addReplicas(setup.sb, more, { IDP_CLIENT_SECRET: 'switchboard-idp-secret', STORAGE_KEY: CLUSTER_STORAGE_KEY }))];
  return { setup, replicas };
}
