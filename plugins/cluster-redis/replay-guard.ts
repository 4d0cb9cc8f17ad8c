/**
 * ReplayGuard on Redis: one key per value seen, set with SET NX PX (atomic: of two replicas
 * seeing the same DPoP proof at once, one wins), gone by itself when the window has passed.
 * The value is hashed into the key, so a long or odd `jti` cannot make a long or odd key.
 */
import { createHash } from 'node:crypto';
import type { ReplayGuard } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import { shared } from './shared-state.js';

export class RedisReplayGuard implements ReplayGuard {
  constructor(private readonly redis: RedisConnection) {}

  async firstUse(scope: string, value: string, ttlSeconds: number): Promise<boolean> {
    const digest = createHash('sha256').update(value).digest('base64url');
    const key = this.redis.key('replay', encodeURIComponent(scope), digest);
    const set = await shared(this.redis, `Checking that a ${scope} is used once`, () =>
      this.redis.client.set(key, '1', 'PX', Math.max(1, Math.ceil(ttlSeconds * 1000)), 'NX'),
    );
    return set === 'OK';
  }
}
