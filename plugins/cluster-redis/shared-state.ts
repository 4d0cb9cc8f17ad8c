/**
 * Every Redis command a call depends on goes through `shared`: a failure (Redis unreachable,
 * a connection dropped mid-command, a command timeout) reaches the caller as
 * SHARED_STATE_UNAVAILABLE naming what needed it, instead of an ioredis message.
 */
import { SharedStateUnavailableError } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';

export async function shared<T>(redis: RedisConnection, what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof SharedStateUnavailableError) throw err;
    throw new SharedStateUnavailableError(what, redis.problem ?? (err instanceof Error ? err.message : String(err)));
  }
}
