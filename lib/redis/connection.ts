/**
 * The connection every cluster-mode service shares: one command connection (commands,
 * MULTI, Lua) and one subscriber connection (pub/sub needs a connection of its own), both
 * watched so /health can say when Redis is gone and why.
 *
 * Startup waits a bounded time and then fails naming the server (never its password) and the
 * reason. At runtime a lost connection is retried for ever, and commands issued meanwhile
 * fail at once instead of queueing (the offline queue is off): a call that needs shared
 * state answers SHARED_STATE_UNAVAILABLE rather than hanging until Redis returns.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger, RedisSettings } from '../../kernel/index.js';
import { describeRedisUrl } from './redis-url.js';
import { renewCaOnReconnect, renewPasswordOnReconnect } from './renewed-on-reconnect.js';
import { probeSilentConnections } from './silent-connection-probe.js';

export interface RedisConnection {
  /** For commands and scripts. Keys are not prefixed for you: build them with `key`. */
  readonly client: Redis;
  /**
   * Listens on `channel` (prefixed with keyPrefix here, as `publish` does) on the subscriber
   * connection all subscribers share; resolves once Redis confirmed the subscription, with
   * how to stop listening.
   */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  /** Publishes on `channel` (prefixed with keyPrefix, like `subscribe`). */
  publish(channel: string, message: string): Promise<number>;
  /** keyPrefix followed by the parts joined by ':'. */
  key(...parts: string[]): string;
  /** Both connections are ready. A field read: cheap enough for every /health request. */
  readonly healthy: boolean;
  /** Why not healthy (the server as redis://host:port and the last error), else undefined. */
  readonly problem: string | undefined;
  /** `listener(healthy)` on every change of `healthy`; returns how to stop listening. */
  onHealthChange(listener: (healthy: boolean) => void): () => void;
  close(): Promise<void>;
}

export interface OpenRedisOptions {
  /** Where relative passwordFile and tls.caFile paths start (the configuration directory). */
  baseDir?: string;
  /** Handed the password once read, so it is scrubbed from every log line. */
  onSecret?: (value: string) => void;
}

/** Startup could not reach Redis within connectTimeoutSeconds (or could not read its files). */
export class RedisStartupError extends Error {
  constructor(
    readonly server: string,
    readonly reason: string,
  ) {
    super(`cannot use Redis at ${server} (aggregator.cluster.redis): ${reason}`);
    this.name = 'RedisStartupError';
  }
}

/** How long one command may wait for its answer before it fails (a half-open connection must not hold a call for ever). */
const COMMAND_TIMEOUT_MS = 5000;
/** The longest wait between reconnect attempts: a replica is back this long after Redis is. */
export const MAX_RECONNECT_DELAY_MS = 2000;
/** How often each connection is asked PING (silent-connection-probe.ts): a dead one is found within this and COMMAND_TIMEOUT_MS. */
const PROBE_INTERVAL_MS = 5000;

export async function openRedis(settings: RedisSettings, log: Logger, options: OpenRedisOptions = {}): Promise<RedisConnection> {
  const server = describeRedisUrl(settings.url);
  const boundMs = settings.connectTimeoutSeconds * 1000;
  const redisOptions = connectionOptions(settings, server, boundMs, options, log);
  const client = new Redis(settings.url, redisOptions);
  const subscriber = new Redis(settings.url, { ...redisOptions, connectionName: 'switchboard-subscriber' });
  if (settings.passwordFile !== undefined) renewPasswordOnReconnect([client, subscriber], filePath(settings.passwordFile, options), log, options.onSecret);
  if (settings.tls?.caFile !== undefined) renewCaOnReconnect([client, subscriber], filePath(settings.tls.caFile, options), log);
  const watch = new HealthWatch(server, log, [
    { role: 'commands', redis: client },
    { role: 'subscriber', redis: subscriber },
  ]);
  try {
    await watch.firstReady(boundMs);
  } catch (err) {
    watch.stop();
    client.disconnect();
    subscriber.disconnect();
    throw err;
  }
  log.info(`connected to Redis at ${server} (key prefix '${settings.keyPrefix}')`);
  return new SharedConnection(client, subscriber, settings.keyPrefix, watch);
}

/**
 * After a failover the old primary may keep its connections open as a replica, refusing every
 * write with READONLY for as long as they last (managed Redis, a Service moved to the new
 * primary). Such a refusal connects again, which reaches whatever the address names now, and
 * sends the refused command there (a write refused READONLY was never run). Said at most once a
 * minute: every write in flight hears the same refusal.
 */
function failoverReconnect(server: string, log: Logger): (err: Error) => 2 | false {
  let saidAt = 0;
  return (err) => {
    if (!/^READONLY\b/.test(err.message)) return false;
    if (Date.now() - saidAt > 60_000) {
      saidAt = Date.now();
      log.warn(`Redis at ${server} answered READONLY (it is a replica now: failed over?): connecting again`);
    }
    return 2;
  };
}

/** A passwordFile or caFile as written: relative ones start at the configuration directory. */
function filePath(file: string, options: OpenRedisOptions): string {
  return isAbsolute(file) || options.baseDir === undefined ? file : resolve(options.baseDir, file);
}

function connectionOptions(settings: RedisSettings, server: string, boundMs: number, options: OpenRedisOptions, log: Logger): RedisOptions {
  const path = (file: string): string => filePath(file, options);
  const read = (field: string, file: string): string => {
    try {
      return readFileSync(path(file), 'utf8');
    } catch (err) {
      throw new RedisStartupError(
        server,
        `cannot read aggregator.cluster.redis.${field} ${path(file)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
  };
  const redisOptions: RedisOptions = {
    connectionName: 'switchboard',
    connectTimeout: Math.min(10_000, boundMs),
    commandTimeout: COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    // In-flight commands fail when their connection drops; the caller hears why at once.
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
    reconnectOnError: failoverReconnect(server, log),
    // Keys are prefixed by `key()` explicitly: ioredis' own keyPrefix does not reach Lua KEYS built at run time or channels.
    keyPrefix: '',
  };
  if (settings.passwordFile !== undefined) {
    const password = read('passwordFile', settings.passwordFile).replace(/\r?\n$/, '');
    if (password === '') throw new RedisStartupError(server, `aggregator.cluster.redis.passwordFile ${path(settings.passwordFile)} is empty`);
    options.onSecret?.(password);
    redisOptions.password = password;
  }
  if (settings.username !== undefined) redisOptions.username = settings.username;
  const wantsTls = settings.url.startsWith('rediss://') || settings.tls !== undefined;
  if (wantsTls) {
    const tls: ConnectionOptions = { rejectUnauthorized: true };
    if (settings.tls?.caFile !== undefined) tls.ca = read('tls.caFile', settings.tls.caFile);
    if (settings.tls?.serverName !== undefined) tls.servername = settings.tls.serverName;
    redisOptions.tls = tls;
  }
  return redisOptions;
}

interface Watched {
  role: string;
  redis: Redis;
}

/** Follows both connections' events: healthy when both are ready, else the last reason. */
class HealthWatch {
  private readonly lastError = new Map<string, string>();
  private readonly listeners = new Set<(healthy: boolean) => void>();
  private readonly detach: (() => void)[] = [];
  private wasHealthy = false;
  private announced = false;

  constructor(
    private readonly server: string,
    private readonly log: Logger,
    private readonly watched: readonly Watched[],
  ) {
    this.detach.push(probeSilentConnections(watched, { intervalMs: PROBE_INTERVAL_MS, onSilent: (role, reason) => this.lastError.set(role, reason) }));
    for (const { role, redis } of watched) {
      const onError = (err: Error): void => {
        this.lastError.set(role, err.message || err.name);
      };
      const onChange = (): void => {
        this.changed();
      };
      const onReady = (): void => {
        this.lastError.delete(role);
        this.changed();
      };
      redis.on('error', onError);
      redis.on('ready', onReady);
      redis.on('close', onChange);
      redis.on('end', onChange);
      redis.on('reconnecting', onChange);
      this.detach.push(() => {
        redis.off('error', onError);
        redis.off('ready', onReady);
        redis.off('close', onChange);
        redis.off('end', onChange);
        redis.off('reconnecting', onChange);
      });
    }
  }

  get healthy(): boolean {
    return this.watched.every((w) => w.redis.status === 'ready');
  }

  get problem(): string | undefined {
    if (this.healthy) return undefined;
    const reasons = this.watched.filter((w) => w.redis.status !== 'ready').map((w) => this.lastError.get(w.role) ?? `connection ${w.redis.status}`);
    return `Redis at ${this.server} unreachable: ${[...new Set(reasons)].join('; ')}`;
  }

  /** Resolves when both connections are first ready; rejects after `boundMs` with the last reason. */
  firstReady(boundMs: number): Promise<void> {
    if (this.healthy) return Promise.resolve();
    return new Promise((resolvePromise, reject) => {
      const stop = (): void => {
        clearTimeout(timer);
        off();
      };
      const timer = setTimeout(() => {
        stop();
        const reasons = [...new Set(this.lastError.values())];
        reject(new RedisStartupError(this.server, `not reachable within ${boundMs / 1000} s (${reasons.length > 0 ? reasons.join('; ') : 'no answer'})`));
      }, boundMs);
      const off = this.onChange((healthy) => {
        if (!healthy) return;
        stop();
        resolvePromise();
      });
    });
  }

  onChange(listener: (healthy: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    for (const detach of this.detach) detach();
    this.listeners.clear();
  }

  private changed(): void {
    const healthy = this.healthy;
    if (healthy === this.wasHealthy) return;
    this.wasHealthy = healthy;
    if (this.announced) {
      if (healthy) this.log.info(`Redis at ${this.server} reachable again`);
      else this.log.warn(this.problem ?? `Redis at ${this.server} unreachable`);
    }
    if (healthy) this.announced = true;
    for (const listener of [...this.listeners]) listener(healthy);
  }
}

class SharedConnection implements RedisConnection {
  private readonly handlers = new Map<string, Set<(message: string) => void>>();
  private closing: Promise<void> | undefined;

  constructor(
    readonly client: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    private readonly watch: HealthWatch,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      const listeners = this.handlers.get(channel);
      if (!listeners) return;
      for (const listener of [...listeners]) listener(message);
    });
  }

  get healthy(): boolean {
    return this.watch.healthy;
  }

  get problem(): string | undefined {
    return this.watch.problem;
  }

  onHealthChange(listener: (healthy: boolean) => void): () => void {
    return this.watch.onChange(listener);
  }

  key(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    const full = this.prefix + channel;
    let listeners = this.handlers.get(full);
    if (!listeners) {
      listeners = new Set();
      this.handlers.set(full, listeners);
    }
    const first = listeners.size === 0;
    listeners.add(onMessage);
    if (first) {
      try {
        await this.subscriber.subscribe(full);
      } catch (err) {
        listeners.delete(onMessage);
        if (listeners.size === 0) this.handlers.delete(full);
        throw err;
      }
    }
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      const current = this.handlers.get(full);
      if (!current) return;
      current.delete(onMessage);
      if (current.size > 0) return;
      this.handlers.delete(full);
      // While Redis is unreachable the UNSUBSCRIBE cannot be sent: ioredis then subscribes the
      // channel again on reconnect, and its messages find no listener here and are dropped.
      await this.subscriber.unsubscribe(full).catch(() => undefined);
    };
  }

  /** Answers how many subscriber connections it went to (Redis PUBLISH's count). */
  publish(channel: string, message: string): Promise<number> {
    return this.client.publish(this.prefix + channel, message);
  }

  close(): Promise<void> {
    return (this.closing ??= (async () => {
      this.watch.stop();
      this.handlers.clear();
      await Promise.all([quit(this.client), quit(this.subscriber)]);
    })());
  }
}

/** QUIT when connected (pending replies arrive first), else drop the socket and stop reconnecting. */
async function quit(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    try {
      await redis.quit();
      return;
    } catch {
      // Fall through: the connection went away while quitting.
    }
  }
  redis.disconnect();
}
