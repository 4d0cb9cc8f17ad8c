/**
 * MCP session records on Redis (kernel/contracts/session-directory.ts): one string key per
 * session holding its record as JSON, expiring after the session's idle time unless a
 * replica pushes it back (touch). The record holds the owner's Identity, never a token.
 * Channels are in session-channel.ts.
 *
 * Ended and vanished are told apart: ending a session deletes its record and leaves a mark
 * (`session-ended:<id>`) for as long as a copy may still push the expiry back, so a replica
 * pushing back the expiry of a record that is gone drops its copy when the session ended
 * and writes the record back from its copy when it did not (Redis restarted without its data).
 */
import type { SessionDirectory, SessionRecord, TouchOutcome } from '../../kernel/index.js';
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

// KEYS[1] the record, KEYS[2] the ended mark. ARGV: the copy's record (JSON), idle seconds ('0': no expiry).
// 1: kept, 0: ended (the mark is there), 2: gone without an end, written back.
const TOUCH = `
if ARGV[2] ~= '0' then
  if redis.call('EXPIRE', KEYS[1], ARGV[2]) == 1 then return 1 end
elseif redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if ARGV[2] ~= '0' then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) else redis.call('SET', KEYS[1], ARGV[1]) end
return 2
`;

// KEYS[1] the record, KEYS[2] the ended mark. ARGV: how long the mark stays (seconds).
const END = `
local n = redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], '1', 'EX', ARGV[1])
return n
`;

/** A copy pushes a session's expiry back at most once a minute (transport-streamable-http's cluster.ts): the mark outlives it by that. */
const MARK_BEYOND_IDLE_SECONDS = 60;
/** Sessions that never idle out: a copy idle on a replica is not dropped by time, so the mark stays a day. */
const MARK_WITHOUT_IDLE_SECONDS = 86_400;

const OUTCOMES: Record<number, TouchOutcome> = { 0: 'ended', 1: 'kept', 2: 'restored' };

interface DirectoryCommands {
  switchboardSessionTouch(record: string, mark: string, json: string, idleSeconds: string): Promise<number>;
  switchboardSessionEnd(record: string, mark: string, markSeconds: string): Promise<number>;
}

export class RedisSessionDirectory implements SessionDirectory {
  private readonly channels: SessionChannels;
  private readonly commands: DirectoryCommands;

  constructor(private readonly redis: RedisConnection) {
    this.channels = new SessionChannels(redis);
    redis.client.defineCommand('switchboardSessionTouch', { lua: TOUCH, numberOfKeys: 2 });
    redis.client.defineCommand('switchboardSessionEnd', { lua: END, numberOfKeys: 2 });
    this.commands = redis.client as unknown as DirectoryCommands;
  }

  private markOf(id: string): string {
    return this.redis.key('session-ended', id);
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

  async delete(id: string, idleSeconds: number): Promise<boolean> {
    const markSeconds = idleSeconds > 0 ? Math.ceil(idleSeconds) + MARK_BEYOND_IDLE_SECONDS : MARK_WITHOUT_IDLE_SECONDS;
    const deleted = await shared(this.redis, `ending session '${id}'`, () =>
      this.commands.switchboardSessionEnd(this.keyOf(id), this.markOf(id), String(markSeconds)),
    );
    return deleted > 0;
  }

  async touch(record: SessionRecord, idleSeconds: number): Promise<TouchOutcome> {
    const id = record.id;
    const found = await shared(this.redis, `keeping session '${id}'`, () =>
      this.commands.switchboardSessionTouch(this.keyOf(id), this.markOf(id), JSON.stringify(record), String(idleSeconds > 0 ? Math.ceil(idleSeconds) : 0)),
    );
    return OUTCOMES[found] ?? 'kept';
  }

  publish: SessionDirectory['publish'] = (id, signal) => this.channels.publish(id, signal);
  subscribe: SessionDirectory['subscribe'] = (id, onSignal) => this.channels.subscribe(id, onSignal);
}
