/**
 * The connection to Redis that cluster mode shares state through: one client for commands
 * and one subscriber connection shared by every channel listener. Startup waits a bounded
 * time for Redis, then fails naming the URL (never its password) and the reason.
 *
 * (Stand-in for the redis-core branch's foundation, written to the interface in the cluster
 * plan; redis-core's version replaces it when merged.)
 */
import { readFile } from 'node:fs/promises';
import { Redis, type RedisOptions } from 'ioredis';
import type { ClusterRedisSettings, Logger } from '../../kernel/index.js';
import { redactUrl } from '../../kernel/index.js';

export interface RedisConnection {
  readonly client: Redis;
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  publish(channel: string, message: string): Promise<void>;
  key(...parts: string[]): string;
  readonly healthy: boolean;
  readonly problem: string | undefined;
  close(): Promise<void>;
}

async function options(settings: ClusterRedisSettings): Promise<RedisOptions> {
  const tls = settings.url.startsWith('rediss://');
  return {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    ...(settings.passwordFile ? { password: (await readFile(settings.passwordFile, 'utf8')).trim() } : {}),
    ...(tls
      ? {
          tls: {
            ...(settings.tls?.caFile ? { ca: await readFile(settings.tls.caFile) } : {}),
            ...(settings.tls?.serverName ? { servername: settings.tls.serverName } : {}),
          },
        }
      : {}),
  };
}

export async function openRedis(settings: ClusterRedisSettings, log: Logger): Promise<RedisConnection> {
  const shown = redactUrl(settings.url);
  const opts = await options(settings);
  const client = new Redis(settings.url, opts);
  const subscriber = new Redis(settings.url, opts);
  let problem: string | undefined;
  for (const c of [client, subscriber]) {
    c.on('error', (err: Error) => {
      if (problem !== err.message) log.warn(`Redis at ${shown}: ${err.message}`);
      problem = err.message;
    });
    c.on('ready', () => (problem = undefined));
  }
  const deadline = settings.connectTimeoutSeconds * 1000;
  try {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([client.connect(), subscriber.connect()]),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${settings.connectTimeoutSeconds} s`)), deadline);
      }),
    ]).finally(() => clearTimeout(timer));
  } catch (err) {
    client.disconnect();
    subscriber.disconnect();
    throw new Error(`cannot reach Redis at ${shown}: ${problem ?? (err as Error).message}`, { cause: err });
  }
  const listeners = new Map<string, Set<(message: string) => void>>();
  subscriber.on('message', (channel: string, message: string) => {
    for (const l of listeners.get(channel) ?? []) l(message);
  });
  return {
    client,
    key: (...parts) => settings.keyPrefix + parts.join(':'),
    get healthy() {
      return problem === undefined && client.status === 'ready';
    },
    get problem() {
      return problem;
    },
    async publish(channel, message) {
      await client.publish(channel, message);
    },
    async subscribe(channel, onMessage) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await subscriber.subscribe(channel);
      }
      set.add(onMessage);
      return async () => {
        const s = listeners.get(channel);
        if (!s?.delete(onMessage) || s.size > 0) return;
        listeners.delete(channel);
        await subscriber.unsubscribe(channel);
      };
    },
    async close() {
      await Promise.allSettled([client.quit(), subscriber.quit()]);
    },
  };
}
