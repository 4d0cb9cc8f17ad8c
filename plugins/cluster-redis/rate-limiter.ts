/**
 * RateLimiter on Redis: one token bucket per caller, as a hash of tokens and last refill
 * time, taken from in one Lua script (one round trip per metered request, atomic across
 * replicas). The clock is Redis' own (TIME), so replicas with skewed clocks still agree. An
 * idle bucket expires once it would be full again: no key outlives its use.
 */
import { createHash } from 'node:crypto';
import type { RateLimit, RateLimiter } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import { shared } from './shared-state.js';

// KEYS[1] the bucket. ARGV: callsPerSecond, burst, cost. Returns 0 when taken, else ms to wait.
const TAKE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate)
local wait = 0
if tokens >= cost then
  tokens = tokens - cost
else
  wait = math.ceil((cost - tokens) / rate * 1000)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return wait
`;

interface TakeCommand {
  switchboardRateTake(key: string, callsPerSecond: string, burst: string, cost: string): Promise<number>;
}

export class RedisRateLimiter implements RateLimiter {
  private readonly commands: TakeCommand;

  constructor(private readonly redis: RedisConnection) {
    redis.client.defineCommand('switchboardRateTake', { lua: TAKE, numberOfKeys: 1 });
    this.commands = redis.client as unknown as TakeCommand;
  }

  take(caller: string, cost: number, limit: RateLimit): Promise<number> {
    // Hashed: a caller key holds a subject the identity provider chose, of any length.
    const key = this.redis.key('rate', createHash('sha256').update(caller).digest('base64url'));
    return shared(this.redis, 'The rate limit counted across replicas', () =>
      this.commands.switchboardRateTake(key, String(limit.callsPerSecond), String(limit.burst), String(cost)),
    );
  }
}
