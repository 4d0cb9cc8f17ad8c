/**
 * A session's channel on Redis pub/sub: what must reach a session wherever it is served
 * (a message for its GET stream, its record changed, its end). Every replica that holds a
 * copy of the session hears it; the replica holding the GET stream writes messages to it.
 */
import type { SessionSignal } from '../../kernel/index.js';
import type { SessionRedis } from './session-redis.js';

const KINDS = new Set(['message', 'record', 'end']);

function decode(text: string): SessionSignal | undefined {
  try {
    const signal: unknown = JSON.parse(text);
    return typeof signal === 'object' && signal !== null && KINDS.has(String((signal as { kind?: unknown }).kind)) ? (signal as SessionSignal) : undefined;
  } catch {
    return undefined;
  }
}

export class SessionChannels {
  constructor(private readonly redis: () => SessionRedis) {}

  private channel(id: string): string {
    return this.redis().key('session-channel', id);
  }

  async publish(id: string, signal: SessionSignal): Promise<void> {
    await this.redis().publish(this.channel(id), JSON.stringify(signal));
  }

  subscribe(id: string, onSignal: (signal: SessionSignal) => void): Promise<() => Promise<void>> {
    // A message no replica of this version wrote is ignored rather than half-understood.
    return this.redis().subscribe(this.channel(id), (text) => {
      const signal = decode(text);
      if (signal) onSignal(signal);
    });
  }
}
