/**
 * What must reach a session wherever it is served (a message for its GET stream, its record
 * changed, its end, a cancellation of a request another replica runs) travels on one pub/sub channel every replica listens on,
 * `<keyPrefix>session-channel`, each message naming its session. Every replica that holds a
 * copy of the session hears it (the others drop it unread); the replica holding the GET stream
 * writes messages to it.
 *
 * One channel, not one per session: a channel per session and replica held Redis memory that
 * grows with the sessions open and that no eviction policy can free (1,442 channels for the
 * sessions of three replicas, measured in issue 36); one shared channel costs Redis the same
 * whatever the number of sessions (docs/scale-out.md, "Session channels", has the figures).
 * The price is that every replica receives every session's messages; a replica reads the
 * session id before the message and parses only those of sessions it holds.
 */
import type { SessionSignal } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import { shared } from './shared-state.js';

const KINDS = new Set(['message', 'record', 'end', 'cancelled']);

/** The channel's name; the connection adds the key prefix. */
const CHANNEL = 'session-channel';

/** A message no replica of this version wrote is ignored rather than half-understood. */
function decode(text: string): SessionSignal | undefined {
  try {
    const signal: unknown = JSON.parse(text);
    return typeof signal === 'object' && signal !== null && KINDS.has(String((signal as { kind?: unknown }).kind)) ? (signal as SessionSignal) : undefined;
  } catch {
    return undefined;
  }
}

export class SessionChannels {
  /** Sessions held here, and who listens for each. */
  private readonly listeners = new Map<string, Set<(signal: SessionSignal) => void>>();
  /** The one subscription, made at the first session held and kept (it costs nothing per session). */
  private listening: Promise<unknown> | undefined;

  constructor(private readonly redis: RedisConnection) {}

  /** `<session id>\n<signal JSON>`: a session id never holds a newline (the transport makes them). */
  async publish(id: string, signal: SessionSignal): Promise<void> {
    await shared(this.redis, `telling the replicas serving session '${id}'`, () => this.redis.publish(CHANNEL, `${id}\n${JSON.stringify(signal)}`));
  }

  subscribe(id: string, onSignal: (signal: SessionSignal) => void): Promise<() => Promise<void>> {
    return shared(this.redis, `hearing session '${id}'`, async () => {
      await this.listen();
      let set = this.listeners.get(id);
      if (!set) this.listeners.set(id, (set = new Set()));
      set.add(onSignal);
      return () => {
        const current = this.listeners.get(id);
        current?.delete(onSignal);
        if (current?.size === 0) this.listeners.delete(id);
        return Promise.resolve();
      };
    });
  }

  private listen(): Promise<unknown> {
    this.listening ??= this.redis
      .subscribe(CHANNEL, (text) => this.deliver(text))
      .catch((err: unknown) => {
        // Not subscribed: the next session held here tries again.
        this.listening = undefined;
        throw err;
      });
    return this.listening;
  }

  private deliver(text: string): void {
    const cut = text.indexOf('\n');
    if (cut < 0) return;
    const set = this.listeners.get(text.slice(0, cut));
    if (!set) return;
    const signal = decode(text.slice(cut + 1));
    if (!signal) return;
    for (const listener of [...set]) listener(signal);
  }
}
