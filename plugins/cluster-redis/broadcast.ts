/**
 * Broadcast on Redis pub/sub (`<keyPrefix>broadcast:<topic>`), on the subscriber connection
 * every listener shares. Pub/sub keeps nothing for a replica that is away, so the connection's
 * health is the broadcast's reliability: while either connection is down, a message may be
 * missed, and the caches that follow the broadcast drop their copies.
 */
import type { Broadcast } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import { shared } from './shared-state.js';

const channelOf = (topic: string): string => `broadcast:${topic}`;

export class RedisBroadcast implements Broadcast {
  constructor(private readonly redis: RedisConnection) {}

  publish(topic: string, message: string): Promise<number> {
    return shared(this.redis, `telling every replica (${topic})`, () => this.redis.publish(channelOf(topic), message));
  }

  subscribe(topic: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    return shared(this.redis, `hearing the other replicas (${topic})`, () => this.redis.subscribe(channelOf(topic), onMessage));
  }

  get reliable(): boolean {
    return this.redis.healthy;
  }

  onReliabilityChange(listener: (reliable: boolean) => void): () => void {
    return this.redis.onHealthChange(listener);
  }
}
