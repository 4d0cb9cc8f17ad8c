/**
 * The Redis password is read from `passwordFile` again before every reconnect. When the
 * password is rotated (a Secret renewed, then Redis told the new one), the connections open
 * at that moment carry on, and the next one Redis drops must authenticate with the new one:
 * read once at startup, every replica would be refused (WRONGPASS) until restarted.
 *
 * Read at reconnects only: a connection that is up has authenticated already, and the read
 * is one small file per attempt (at most one every 100 ms to 2 s, the retry strategy's
 * delays). An unreadable or empty file keeps the password in use.
 */
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import type { Logger } from '../../kernel/index.js';

export function renewPasswordOnReconnect(connections: readonly Redis[], file: string, log: Logger, onSecret: ((value: string) => void) | undefined): void {
  const renew = (redis: Redis): void => {
    let password: string;
    try {
      password = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch {
      return;
    }
    if (password === '' || password === redis.options.password) return;
    onSecret?.(password);
    // A later connection reads the same file: said once, by whichever reconnects first.
    if (connections.every((c) => c.options.password !== password)) log.info(`the Redis password in ${file} changed: reconnecting with it`);
    redis.options.password = password;
  };
  // Listeners that end with their connection: a disconnected one never reconnects.
  for (const redis of connections) redis.on('reconnecting', () => renew(redis));
}
