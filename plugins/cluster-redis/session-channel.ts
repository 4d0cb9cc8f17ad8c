/**
 * A session's channel on Redis pub/sub: what must reach a session wherever it is served
 * (a message for its GET stream, its record changed, its end). Every replica that holds a
 * copy of the session hears it; the replica holding the GET stream writes messages to it.
 */
import type { SessionSignal } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import { shared } from './shared-state.js';

const KINDS = new Set(['message', 'record', 'end']);

/** A message no replica of this version wrote is ignored rather than half-understood. */
function decode(text: string): SessionSignal | undefined {
  try {
    const signal: unknown = JSON.parse(text);
    return typeof signal === 'object' && signal !== null && KINDS.has(String((signal as { kind?: unknown }).kind)) ? (signal as SessionSignal) : undefined;
  } catch {
    return undefined;
  }
}

/** The channel's name; the connection adds the key prefix. */
const channelOf = (id: string): string => `session-channel:${id}`;

export class SessionChannels {
  constructor(private readonly redis: RedisConnection) {}

  publish(id: string, signal: SessionSignal): Promise<void> {
    return shared(this.redis, `telling the replicas serving session '${id}'`, () => this.redis.publish(channelOf(id), JSON.stringify(signal)));
  }

  subscribe(id: string, onSignal: (signal: SessionSignal) => void): Promise<() => Promise<void>> {
    return shared(this.redis, `hearing session '${id}'`, () =>
      this.redis.subscribe(channelOf(id), (text) => {
        const signal = decode(text);
        if (signal) onSignal(signal);
      }),
    );
  }
}
