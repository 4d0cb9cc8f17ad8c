/**
 * cluster-redis: several replicas behind a load balancer share their state through Redis
 * (`aggregator.cluster.redis`; docs/scale-out.md). Without that setting it does nothing and
 * loads nothing (ioredis is imported only in cluster mode). With it, setup connects (waiting
 * at most connectTimeoutSeconds, then failing startup with the reason) and provides the
 * Redis implementations of the kernel's contracts; /health says `degraded`, with the reason,
 * while Redis cannot be reached.
 *
 * Each concern registers its services in its own block below, so they merge independently.
 */
import { definePlugin } from '../../kernel/index.js';
import { clusterProblems } from './settings-check.js';

export default definePlugin({
  name: 'cluster-redis',
  description: 'Cluster mode: shares grants, limits, sessions, events, executions and tasks between replicas through Redis (aggregator.cluster.redis).',
  provides: [
    // redis-core: grants, OAuth server state, limits
    'grant-store',
    'replay-guard',
    'rate-limiter',
    'session-counter',
    'single-use-values',
    // cluster-sessions: session records, notifications
    'session-directory',
    // cluster-history: event log, execution history
    'event-journal',
    'execution-storage',
    // cluster-tasks: tasks any replica answers for
    'task-store',
    // cluster: caches of shared state follow its changes
    'broadcast',
  ],
  async setup({ kernel, log }) {
    kernel.config.addSettingsCheck((settings, where) => clusterProblems(settings, where));
    const cluster = kernel.settings().aggregator.cluster;
    if (!cluster) return;
    const { openRedis } = await import('../../lib/redis/connection.js');
    const redis = await openRedis(cluster.redis, log, {
      baseDir: kernel.config.configPath,
      onSecret: (password) => kernel.secrets.add(password),
    });
    // An evicting maxmemory-policy degrades /health (below): Redis would drop live records silently.
    const { EvictionPolicyCheck } = await import('./eviction-policy.js');
    const eviction = new EvictionPolicyCheck(redis, log);
    await eviction.start();
    // Started first: the records below name this replica, and what they lose is reported under its id.
    const { ReplicaLiveness } = await import('./replica-liveness.js');
    const liveness = new ReplicaLiveness(redis, log);
    await liveness.start();
    const { WriteLosses } = await import('./write-losses.js');
    const losses = new WriteLosses(kernel.hooks, liveness.id);

    // --- redis-core: grants, OAuth server state, limits ---
    // store-files and store-kubernetes step aside for grant-store in cluster mode (they read the same setting).
    const { RedisGrantStore } = await import('./grant-store.js');
    kernel.services.provide('grant-store', new RedisGrantStore(redis));
    const { RedisReplayGuard } = await import('./replay-guard.js');
    kernel.services.provide('replay-guard', new RedisReplayGuard(redis));
    const { RedisRateLimiter } = await import('./rate-limiter.js');
    kernel.services.provide('rate-limiter', new RedisRateLimiter(redis));
    const { RedisSessionCounter } = await import('./session-counter.js');
    kernel.services.provide('session-counter', new RedisSessionCounter(redis));
    const { RedisSingleUseValues } = await import('./single-use-values.js');
    kernel.services.provide('single-use-values', new RedisSingleUseValues(redis));
    // --- end redis-core ---

    // --- cluster-sessions: session records, notifications ---
    // The streamable-HTTP transport uses it: any replica serves any session, and what must
    // reach a session's GET stream travels on its channel to the replica holding it.
    const { RedisSessionDirectory } = await import('./session-directory.js');
    kernel.services.provide('session-directory', new RedisSessionDirectory(redis));
    // --- end cluster-sessions ---

    // --- cluster-history: event log, execution history ---
    // The events and workflows plugins keep their logic and keep their data here instead of in memory and files.
    // What Redis cannot take now waits in a bounded backlog per store; what the bound drops is counted and reported (write-losses.ts).
    const { RedisEventJournals } = await import('./event-journal.js');
    const journals = new RedisEventJournals(redis, log, losses);
    losses.journals = journals;
    kernel.services.provide('event-journal', journals);
    // Running records name this replica; the others mark them failed once it is no longer alive.
    const { RedisExecutionStorage } = await import('./execution-records.js');
    const executions = new RedisExecutionStorage(redis, log, liveness, losses);
    kernel.services.provide('execution-storage', executions);
    // --- end cluster-history ---

    // --- cluster-tasks: a task run on one replica is fetched, listed and cancelled on any ---
    const { RedisTaskStore } = await import('./task-store.js');
    // Unfinished tasks name this replica; the others end them once it is no longer alive.
    kernel.services.provide('task-store', new RedisTaskStore(redis, liveness, log));
    // --- end cluster-tasks ---

    // --- cluster: broadcast, for per-replica caches (verified tokens, remote-server grants) ---
    const { RedisBroadcast } = await import('./broadcast.js');
    kernel.services.provide('broadcast', new RedisBroadcast(redis));
    // --- end broadcast ---

    // /health: degraded while Redis is unreachable, and while it refuses writes (out of memory
    // under noeviction): this replica then cannot renew its liveness and keeps records Redis
    // cannot take (write-backlog.ts); and under an evicting maxmemory-policy.
    const refusing = (): string | undefined => liveness.problem ?? journals.current?.problem ?? executions.current?.problem;
    kernel.health.contribute('cluster-redis', () => {
      if (!redis.healthy) return { status: 'degraded', reason: redis.problem ?? 'Redis unreachable' };
      const problem = refusing();
      return problem === undefined ? eviction.health() : { status: 'degraded', reason: problem };
    });

    return {
      // Stopped last of those that use it (plugins stop in reverse order of setup).
      stop: async () => {
        await liveness.stop();
        eviction.stop();
        await redis.close();
      },
    };
  },
});
