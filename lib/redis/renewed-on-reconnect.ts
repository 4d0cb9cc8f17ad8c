/**
 * The Redis password (`passwordFile`) and CA certificates (`tls.caFile`) are read again before
 * every reconnect. When either is rotated (a Secret renewed, then Redis told the new password or
 * given a certificate from the new CA), the connections open at that moment carry on, and the
 * next one Redis drops must authenticate, or verify Redis, with the new one: read once at
 * startup, every replica would be refused (WRONGPASS, or a certificate it cannot verify) until
 * restarted.
 *
 * Read at reconnects only: a connection that is up has authenticated and verified already, and
 * the read is one small file per attempt (at most one every 100 ms to 2 s, the retry strategy's
 * delays). An unreadable or empty file keeps the value in use.
 */
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import type { Logger } from '../../kernel/index.js';

/** What a file renews, and where a connection keeps it. */
interface Renewable {
  /** For the log line: "the Redis <what> in <file> changed". */
  what: string;
  read(text: string): string;
  current(redis: Redis): unknown;
  apply(redis: Redis, value: string): void;
}

const PASSWORD: Renewable = {
  what: 'password',
  read: (text) => text.replace(/\r?\n$/, ''),
  current: (redis) => redis.options.password,
  apply: (redis, value) => {
    redis.options.password = value;
  },
};

const CA: Renewable = {
  what: 'CA certificates',
  read: (text) => text,
  current: (redis) => redis.options.tls?.ca,
  apply: (redis, value) => {
    // A new object: the two connections were made from one options object and share its `tls`.
    redis.options.tls = { ...redis.options.tls, ca: value };
  },
};

function renewOnReconnect(connections: readonly Redis[], file: string, renewable: Renewable, log: Logger, onSecret?: (value: string) => void): void {
  const renew = (redis: Redis): void => {
    let value: string;
    try {
      value = renewable.read(readFileSync(file, 'utf8'));
    } catch {
      return;
    }
    if (value === '' || value === renewable.current(redis)) return;
    onSecret?.(value);
    // A later connection reads the same file: said once, by whichever reconnects first.
    if (connections.every((c) => renewable.current(c) !== value)) log.info(`the Redis ${renewable.what} in ${file} changed: reconnecting with it`);
    renewable.apply(redis, value);
  };
  // Listeners that end with their connection: a disconnected one never reconnects.
  for (const redis of connections) redis.on('reconnecting', () => renew(redis));
}

export function renewPasswordOnReconnect(connections: readonly Redis[], file: string, log: Logger, onSecret: ((value: string) => void) | undefined): void {
  renewOnReconnect(connections, file, PASSWORD, log, onSecret);
}

export function renewCaOnReconnect(connections: readonly Redis[], file: string, log: Logger): void {
  renewOnReconnect(connections, file, CA, log);
}
