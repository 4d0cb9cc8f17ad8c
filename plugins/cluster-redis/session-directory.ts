/**
 * MCP session records on Redis (kernel/contracts/session-directory.ts): one string key per
 * session holding its record as JSON, expiring after the session's idle time unless a
 * replica pushes it back (touch). The record holds the owner's Identity, never a token.
 * Channels are in session-channel.ts.
 */
import type { SessionDirectory, SessionRecord } from '../../kernel/index.js';
import { SessionChannels } from './session-channel.js';
import type { SessionRedis } from './session-redis.js';

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
    (identity === undefined || (typeof identity === 'object' && typeof identity.subject === 'string'));
  if (!ok) throw new Error(`the record of session '${id}' in Redis is not a session record this version understands`);
  return r as unknown as SessionRecord;
}

export class RedisSessionDirectory implements SessionDirectory {
  private readonly channels: SessionChannels;

  /** `redis` is read on use: the connection opens at start, after services are provided. */
  constructor(private readonly redis: () => SessionRedis) {
    this.channels = new SessionChannels(redis);
  }

  private keyOf(id: string): string {
    return this.redis().key('session', id);
  }

  async put(record: SessionRecord, idleSeconds: number): Promise<void> {
    const json = JSON.stringify(record);
    const client = this.redis().client;
    if (idleSeconds > 0) await client.set(this.keyOf(record.id), json, 'EX', Math.ceil(idleSeconds));
    else await client.set(this.keyOf(record.id), json);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const text = await this.redis().client.get(this.keyOf(id));
    return text === null ? undefined : parseRecord(id, text);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.redis().client.del(this.keyOf(id))) > 0;
  }

  async touch(id: string, idleSeconds: number): Promise<boolean> {
    const client = this.redis().client;
    if (idleSeconds > 0) return (await client.expire(this.keyOf(id), Math.ceil(idleSeconds))) === 1;
    return (await client.exists(this.keyOf(id))) === 1;
  }

  publish: SessionDirectory['publish'] = (id, signal) => this.channels.publish(id, signal);
  subscribe: SessionDirectory['subscribe'] = (id, onSignal) => this.channels.subscribe(id, onSignal);
}
