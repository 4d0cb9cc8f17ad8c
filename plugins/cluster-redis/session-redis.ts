/** What the session directory needs of the Redis connection (lib/redis/connection.ts). */
import type { RedisConnection } from '../../lib/redis/connection.js';

export type SessionRedis = Pick<RedisConnection, 'client' | 'publish' | 'subscribe' | 'key'>;
