/**
 * cluster-redis: replicas of one Switchboard share their state on Redis
 * (`aggregator.cluster.redis`; docs/scale-out.md). Without that block it does nothing.
 */
import { definePlugin } from '../../kernel/index.js';
import { openRedis, type RedisConnection } from '../../lib/redis/connection.js';
import { RedisSessionDirectory } from './session-directory.js';

export default definePlugin({
  name: 'cluster-redis',
  description: 'Cluster mode: state shared by replicas on Redis (aggregator.cluster.redis).',
  provides: ['session-directory'],
  async setup({ kernel, log }) {
    const settings = kernel.settings().aggregator.cluster?.redis;
    if (!settings) return;
    const connection: RedisConnection = await openRedis(settings, log);
    const redis = () => connection;
    log.info(`cluster mode: sharing state on Redis (key prefix '${settings.keyPrefix}')`);

    // --- MCP sessions: records and channels (helper D) ---
    kernel.services.provide('session-directory', new RedisSessionDirectory(redis));
    // --- end MCP sessions ---

    return {
      async stop() {
        await connection.close();
      },
    };
  },
});
