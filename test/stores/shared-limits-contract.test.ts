/**
 * The ReplayGuard and RateLimiter contracts (kernel/contracts/replay.ts, limits.ts), one suite
 * against the in-memory implementations and the Redis ones (a real redis-server). "Another"
 * is a second instance over the same place: for Redis, another replica's connection.
 */
import { expect } from 'chai';
import type { RateLimiter, ReplayGuard, SingleUseValues } from '../../kernel/index.js';
import { MemorySingleUseValues } from '../../lib/single-use/memory-single-use-values.js';
import { RedisSingleUseValues } from '../../plugins/cluster-redis/single-use-values.js';
import { createLogger } from '../../kernel/log.js';
import { openRedis, type RedisConnection } from '../../lib/redis/connection.js';
import { MemoryReplayGuard } from '../../lib/replay/memory-replay-guard.js';
import { RedisRateLimiter } from '../../plugins/cluster-redis/rate-limiter.js';
import { RedisReplayGuard } from '../../plugins/cluster-redis/replay-guard.js';
import { MemoryRateLimiter } from '../../lib/limits/memory-rate-limiter.js';
import { RedisGrantStore } from '../../plugins/cluster-redis/grant-store.js';
import { eventually } from '../support/harness.js';
import { redisServerMissing, type RedisServer, startRedis, startRedisOrSkip } from '../support/redis-server.js';

interface Place {
  /** A replay guard, a rate limiter and single-use values over this place; each call may be another replica's. */
  replayGuard(): Promise<ReplayGuard>;
  singleUse(): Promise<SingleUseValues>;
  rateLimiter(): Promise<RateLimiter>;
  cleanup(): Promise<void>;
}

function contract(label: string, make: () => Promise<Place>, needs?: () => string | undefined): void {
  describe(`ReplayGuard and RateLimiter contracts: ${label}`, function () {
    this.timeout(60_000);
    let place: Place;
    before(async function () {
      const missing = needs?.();
      if (missing) {
        console.warn(`skipped: ${missing}`);
        this.skip();
      }
      place = await make();
    });
    after(() => place?.cleanup());

    it('accepts a value once per scope, everywhere, until its window has passed', async () => {
      const a = await place.replayGuard();
      const b = await place.replayGuard();
      expect(await a.firstUse('DPoP proof', 'jti-1', 1)).to.equal(true);
      expect(await a.firstUse('DPoP proof', 'jti-1', 1)).to.equal(false);
      expect(await b.firstUse('DPoP proof', 'jti-1', 1)).to.equal(false);
      expect(await b.firstUse('other scope', 'jti-1', 1)).to.equal(true);
      // Forgotten after the window (one second), and then accepted once again.
      await eventually(
        () => b.firstUse('DPoP proof', 'jti-1', 1),
        (fresh) => fresh,
        10_000,
      );
      expect(await a.firstUse('DPoP proof', 'jti-1', 1)).to.equal(false);
    });

    it('gives one first use to concurrent uses of the same value', async () => {
      const guards = [await place.replayGuard(), await place.replayGuard()];
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => guards[i % 2]!.firstUse('DPoP proof', 'raced', 60)));
      expect(results.filter(Boolean)).to.have.length(1);
    });

    it('gives a single-use value to the first taker only, on any instance, and forgets it after its time', async () => {
      const a = await place.singleUse();
      const b = await place.singleUse();
      await a.put('ticket', 't-1', '{"owner":"x"}', 60);
      const takers = await Promise.all([a.take('ticket', 't-1'), b.take('ticket', 't-1')]);
      expect(takers.filter((v) => v !== undefined)).to.deep.equal(['{"owner":"x"}']);
      expect(await b.take('other scope', 't-1')).to.equal(undefined);
      // Copies put together lapse together: each is taken once, so the first one missing has lapsed.
      await Promise.all(Array.from({ length: 200 }, (_, i) => a.put('ticket', `lapse-${i}`, 'v', 2)));
      let next = 0;
      await eventually(
        () => b.take('ticket', `lapse-${next++}`),
        (v) => v === undefined,
        15_000,
        100,
      );
      expect(next).to.be.greaterThan(1);
    });

    it("takes a caller's burst from one bucket shared by every instance, then says how long to wait", async () => {
      const a = await place.rateLimiter();
      const b = await place.rateLimiter();
      const limit = { callsPerSecond: 1, burst: 5 };
      for (let i = 0; i < 3; i++) expect(await a.take('sub:alice', 1, limit)).to.equal(0);
      expect(await b.take('sub:alice', 2, limit)).to.equal(0);
      const wait = await b.take('sub:alice', 1, limit);
      expect(wait).to.be.greaterThan(0).and.at.most(1000);
      expect(await a.take('sub:alice', 1, limit)).to.be.greaterThan(0);
      // Another caller has a bucket of its own.
      expect(await a.take('sub:bob', 5, limit)).to.equal(0);
      // Refilled at the sustained rate: a call passes again within about a second.
      await eventually(
        () => a.take('sub:alice', 1, limit),
        (w) => w === 0,
        10_000,
        100,
      );
    });
  });
}

contract('memory (one process)', async () => {
  const guard = new MemoryReplayGuard();
  const limiter = new MemoryRateLimiter();
  const values = new MemorySingleUseValues();
  return { replayGuard: async () => guard, rateLimiter: async () => limiter, singleUse: async () => values, cleanup: async () => undefined };
});

contract(
  'cluster-redis (Redis)',
  async () => {
    const redis: RedisServer = await startRedis();
    const connections: RedisConnection[] = [];
    const connect = async (): Promise<RedisConnection> => {
      const c = await openRedis({ url: redis.url, keyPrefix: 'limits-contract:', connectTimeoutSeconds: 10 }, createLogger({ level: 'error' }));
      connections.push(c);
      return c;
    };
    return {
      replayGuard: async () => new RedisReplayGuard(await connect()),
      rateLimiter: async () => new RedisRateLimiter(await connect()),
      singleUse: async () => new RedisSingleUseValues(await connect()),
      async cleanup() {
        await Promise.all(connections.map((c) => c.close()));
        await redis.stop();
      },
    };
  },
  redisServerMissing,
);

describe('cluster-redis: what reaches Redis from outside', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  const connections: RedisConnection[] = [];
  const connect = async (keyPrefix: string): Promise<RedisConnection> => {
    const c = await openRedis({ url: redis.url, keyPrefix, connectTimeoutSeconds: 10 }, createLogger({ level: 'error' }));
    connections.push(c);
    return c;
  };
  before(async function () {
    redis = await startRedisOrSkip(this);
  });
  after(async () => {
    await Promise.all(connections.map((c) => c.close()));
    await redis?.stop();
  });

  it('key prefixes keep two deployments on one Redis apart: grants, single uses and rate buckets', async () => {
    const one = await connect('one:');
    const two = await connect('two:');
    await new RedisGrantStore(one).put('AccessToken', 'shared-id', { value: 'sealed', index: { grantId: 'g' } });
    expect(await new RedisGrantStore(two).get('AccessToken', 'shared-id')).to.equal(undefined);
    expect(await new RedisGrantStore(two).findBy('AccessToken', 'grantId', 'g')).to.deep.equal([]);
    expect(await new RedisReplayGuard(one).firstUse('DPoP proof', 'j', 60)).to.equal(true);
    expect(await new RedisReplayGuard(two).firstUse('DPoP proof', 'j', 60)).to.equal(true);
    const limit = { callsPerSecond: 1, burst: 1 };
    expect(await new RedisRateLimiter(one).take('sub:x', 1, limit)).to.equal(0);
    expect(await new RedisRateLimiter(two).take('sub:x', 1, limit)).to.equal(0);
    for (const key of redis.cli('--scan').split('\n').filter(Boolean)) expect(key).to.match(/^(one|two):/);
  });

  it('a caller-chosen value of any length or content (a 64 KiB jti, a subject with separators) makes a key of fixed length', async () => {
    const c = await connect('len:');
    expect(await new RedisReplayGuard(c).firstUse('DPoP proof', 'x'.repeat(65_536), 60)).to.equal(true);
    expect(await new RedisRateLimiter(c).take('sub:a:b\n*?[]', 1, { callsPerSecond: 1, burst: 1 })).to.equal(0);
    const keys = redis.cli('--scan', '--pattern', 'len:*').split('\n').filter(Boolean);
    expect(keys).to.have.length(2);
    for (const key of keys) expect(key.length).to.be.below(80);
  });
});
