/**
 * SingleUseValues on Redis: SET EX to keep, GETDEL to take (Redis 6.2+), so of two replicas
 * taking the same ticket at once only one gets it. Ids (tickets, OAuth states) are random and
 * bounded by the caller; they are hashed into keys all the same, so a forged id of any length
 * makes a key of fixed length.
 */
import { createHash } from 'node:crypto';
import type { SingleUseValues } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import { shared } from './shared-state.js';

const WHAT = 'A sign-in in progress';

export class RedisSingleUseValues implements SingleUseValues {
  constructor(private readonly redis: RedisConnection) {}

  private keyOf(scope: string, id: string): string {
    return this.redis.key('once', encodeURIComponent(scope), createHash('sha256').update(id).digest('base64url'));
  }

  async put(scope: string, id: string, value: string, ttlSeconds: number): Promise<void> {
    await shared(this.redis, WHAT, () => this.redis.client.set(this.keyOf(scope, id), value, 'EX', Math.max(1, Math.ceil(ttlSeconds))));
  }

  async take(scope: string, id: string): Promise<string | undefined> {
    const value = await shared(this.redis, WHAT, () => this.redis.client.getdel(this.keyOf(scope, id)));
    return value ?? undefined;
  }
}
