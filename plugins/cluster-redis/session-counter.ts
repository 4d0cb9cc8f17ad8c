/**
 * SessionCounter on Redis: one sorted set per caller, its members the caller's sessions,
 * scored by when their lease ends (Redis' clock). Admission is one Lua script (drop lapsed
 * leases, count, add), so two replicas cannot both admit the last free session; the
 * replicas holding sessions renew their leases in one pipeline every renewEveryMs.
 */
import { createHash } from 'node:crypto';
import type { CountedSession, SessionCounter } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import { shared } from './shared-state.js';

/** A session no replica renews for this long stops counting (a replica killed, Redis lost its note of a close). */
const LEASE_MS = 60_000;

// KEYS[1] the caller's set. ARGV: session id, limit, lease ms. 1: counted, 0: refused.
const ADMIT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
redis.call('PEXPIRE', KEYS[1], lease)
return 1
`;

// KEYS: callers' sets; ARGV: lease ms, then per key its session ids joined by '\\n'.
const RENEW = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  for id in string.gmatch(ARGV[i + 1], '[^\\n]+') do redis.call('ZADD', key, now + lease, id) end
  redis.call('PEXPIRE', key, lease)
end
return 0
`;

interface CounterCommands {
  switchboardSessionAdmit(key: string, id: string, limit: string, lease: string): Promise<number>;
  switchboardSessionRenew(numberOfKeys: number, ...args: string[]): Promise<number>;
}

export class RedisSessionCounter implements SessionCounter {
  readonly renewEveryMs = LEASE_MS / 3;
  private readonly commands: CounterCommands;

  constructor(private readonly redis: RedisConnection) {
    redis.client.defineCommand('switchboardSessionAdmit', { lua: ADMIT, numberOfKeys: 1 });
    redis.client.defineCommand('switchboardSessionRenew', { lua: RENEW });
    this.commands = redis.client as unknown as CounterCommands;
  }

  private keyOf(caller: string): string {
    return this.redis.key('sessions', createHash('sha256').update(caller).digest('base64url'));
  }

  async admit(session: CountedSession, limit: number): Promise<boolean> {
    const counted = await shared(this.redis, "Counting the caller's sessions across replicas", () =>
      this.commands.switchboardSessionAdmit(this.keyOf(session.caller), session.sessionId, String(limit), String(LEASE_MS)),
    );
    return counted === 1;
  }

  async release(session: CountedSession): Promise<void> {
    await shared(this.redis, "Counting the caller's sessions across replicas", () => this.redis.client.zrem(this.keyOf(session.caller), session.sessionId));
  }

  async keepAlive(sessions: readonly CountedSession[]): Promise<void> {
    if (sessions.length === 0) return;
    const byKey = new Map<string, string[]>();
    for (const s of sessions) {
      const key = this.keyOf(s.caller);
      byKey.set(key, [...(byKey.get(key) ?? []), s.sessionId]);
    }
    const keys = [...byKey.keys()];
    await shared(this.redis, 'Renewing session leases', () =>
      this.commands.switchboardSessionRenew(keys.length, ...keys, String(LEASE_MS), ...keys.map((k) => byKey.get(k)!.join('\n'))),
    );
  }
}
