/**
 * MCP session records on Redis (kernel/contracts/session-directory.ts): one string key per
 * session holding its record as JSON, expiring after the session's idle time unless a
 * replica pushes it back (touch). The record holds the owner's Identity, never a token.
 * Channels are in session-channel.ts.
 */
import type { SessionDirectory, SessionRecord } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import { SessionChannels } from './session-channel.js';
import { shared } from './shared-state.js';

/** A record read back is checked before a replica builds a session from it. */
function parseRecord(id: string, text: string): SessionRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`the record of session '${id}' in Redis is not JSON: ${(err as Error).message}`, { cause: err });
  }
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`the record of session '${id}' in Redis is not an object`);
  const r = parsed as Record<string, unknown>;
  const identity = r.identity as { subject?: unknown } | undefined;
  const ok =
    r.id === id &&
    typeof r.transport === 'string' &&
    typeof r.createdAt === 'string' &&
    typeof r.protocolVersion === 'string' &&
    typeof r.clientCapabilities === 'object' &&
    r.clientCapabilities !== null &&
    Array.isArray(r.subscriptions) &&
    r.subscriptions.every((uri) => typeof uri === 'string') &&
    (r.clientAddress === undefined || typeof r.clientAddress === 'string') &&
    (identity === undefined || (typeof identity === 'object' && typeof identity.subject === 'string'));
  if (!ok) throw new Error(`the record of session '${id}' in Redis is not a session record this version understands`);
  return r as unknown as SessionRecord;
}

export class RedisSessionDirectory implements SessionDirectory {
  private readonly channels: SessionChannels;

  constructor(private readonly redis: RedisConnection) {
    this.channels = new SessionChannels(redis);
  }

  private keyOf(id: string): string {
    return this.redis.key('session', id);
  }

  put(record: SessionRecord, idleSeconds: number): Promise<void> {
    const json = JSON.stringify(record);
    const key = this.keyOf(record.id);
    return shared(this.redis, `recording session '${record.id}'`, async () => {
      if (idleSeconds > 0) await this.redis.client.set(key, json, 'EX', Math.ceil(idleSeconds));
      else await this.redis.client.set(key, json);
    });
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const text = await shared(this.redis, `looking up session '${id}'`, () => this.redis.client.get(this.keyOf(id)));
    return text === null ? undefined : parseRecord(id, text);
  }

  async delete(id: string): Promise<boolean> {
    return (await shared(this.redis, `ending session '${id}'`, () => this.redis.client.del(this.keyOf(id)))) > 0;
  }

  async touch(id: string, idleSeconds: number): Promise<boolean> {
    const key = this.keyOf(id);
    const client = this.redis.client;
    const found = await shared(this.redis, `keeping session '${id}'`, () =>
      idleSeconds > 0 ? client.expire(key, Math.ceil(idleSeconds)) : client.exists(key),
    );
    return found === 1;
  }

  publish: SessionDirectory['publish'] = (id, signal) => this.channels.publish(id, signal);
  subscribe: SessionDirectory['subscribe'] = (id, onSignal) => this.channels.subscribe(id, onSignal);
}
