/**
 * Issue 36, finding 5 (first half): a Redis that may evict keys (`allkeys-lru` and the like)
 * wipes sessions, tasks and executions silently under memory pressure, so Switchboard reads
 * maxmemory-policy at startup and on every reconnect and says `degraded` on /health, naming
 * the policy and the fix. Real redis-server processes, real Switchboard, on loopback.
 */
import { expect } from 'chai';
import { eventually, startSwitchboard, type Running } from '../support/harness.js';
import { clusterYaml, health } from '../support/cluster.js';
import { redisServerMissing, startRedis, type RedisServer } from '../support/redis-server.js';

describe('cluster mode: the Redis eviction policy is checked', function () {
  this.timeout(120_000);
  let redis: RedisServer | undefined;
  let sb: Running | undefined;

  before(function () {
    const missing = redisServerMissing();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
  });

  afterEach(async () => {
    await sb?.stop();
    sb = undefined;
    await redis?.stop();
    redis = undefined;
  });

  /** Generous: these start while other suites load the machine. */
  const START = { startTimeoutMs: 90_000 };
  const serve = (server: RedisServer): Promise<Running> => startSwitchboard({ 'config.yaml': `aggregator:\n${clusterYaml(server)}\n` }, START);

  it('a server started with --maxmemory-policy allkeys-lru: /health is degraded, naming the policy and the fix', async () => {
    redis = await startRedis({ args: ['--maxmemory-policy', 'allkeys-lru'] });
    sb = await serve(redis);
    const h = await health(sb);
    expect(h.status).to.equal('degraded');
    expect(h.reason).to.contain('maxmemory-policy is allkeys-lru');
    expect(h.reason).to.contain('set maxmemory-policy noeviction');
    expect(sb.logs()).to.contain('Redis maxmemory-policy is allkeys-lru, not noeviction');
  });

  it('with noeviction /health is ok; a policy changed at runtime is noticed on the next reconnect, both ways', async () => {
    redis = await startRedis();
    const server = redis;
    sb = await serve(server);
    const running = sb;
    expect((await health(running)).status).to.equal('ok');

    server.cli('CONFIG', 'SET', 'maxmemory-policy', 'volatile-lru');
    // Switchboard's connections dropped (as a failover or a network cut would): it reconnects and reads again.
    server.cli('CLIENT', 'KILL', 'TYPE', 'normal');
    server.cli('CLIENT', 'KILL', 'TYPE', 'pubsub');
    const degraded = await eventually(
      () => health(running),
      (h) => h.status === 'degraded' && (h.reason ?? '').includes('volatile-lru'),
      20_000,
    );
    expect(degraded.reason).to.contain('maxmemory-policy is volatile-lru');

    server.cli('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
    server.cli('CLIENT', 'KILL', 'TYPE', 'normal');
    server.cli('CLIENT', 'KILL', 'TYPE', 'pubsub');
    await eventually(
      () => health(running),
      (h) => h.status === 'ok',
      20_000,
    );
  });

  it('CONFIG renamed away (as managed services do): the policy is read from INFO, and allkeys-lru still degrades', async () => {
    redis = await startRedis({ args: ['--maxmemory-policy', 'allkeys-lru', '--rename-command', 'CONFIG', ''] });
    sb = await serve(redis);
    const h = await health(sb);
    expect(h.status).to.equal('degraded');
    expect(h.reason).to.contain('maxmemory-policy is allkeys-lru');
  });

  it('neither CONFIG nor INFO allowed (ACL): the policy is unknown, said in the log, and /health stays ok', async () => {
    redis = await startRedis({ password: 'admin-secret', args: ['--maxmemory-policy', 'allkeys-lru'] });
    redis.cli('ACL', 'SETUSER', 'switchboard', 'on', '>switchboard-secret', '~*', '&*', '+@all', '-config', '-info');
    sb = await startSwitchboard(
      {
        'config.yaml': `aggregator:\n${clusterYaml(redis)}\n      username: switchboard\n      passwordFile: redis-password\n`,
        'redis-password': 'switchboard-secret\n',
      },
      START,
    );
    const h = await health(sb);
    expect(h.status).to.equal('ok');
    expect(sb.logs()).to.match(/Redis maxmemory-policy cannot be read \(CONFIG GET: NOPERM[^)]*; INFO memory: /);
  });
});
