/**
 * GrantStore on Redis: what the auth plugins issue (already sealed: hashed ids, encrypted
 * values), shared by every replica. One string per record holding its JSON, expiring with
 * the record (EXAT); one set per index value (`findBy`) holding the ids that carry it.
 *
 * Record and index sets change together in one Lua script, so no reader ever sees a record
 * without its index entries or an index entry left behind by a replaced record. Each record
 * carries the names of the index sets it is in, so a replacement or delete removes exactly
 * those. An index set may still name a record that expired on its own (Redis drops the
 * string, not the set member): `findBy` skips and prunes those, and the set itself expires
 * no earlier than its longest-lived member.
 */
import type { GrantStore, StoredRecord } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import { shared } from './shared-state.js';

interface Stored {
  record: StoredRecord;
  /** The index sets this record is a member of. */
  sets: string[];
}

// The record written with its expiry and added to its index sets, each set living no shorter
// than its members (PUT and CREATE end with it; `expiresAt` is ARGV[3] as a number).
const WRITE = `
if expiresAt > 0 then
  redis.call('SET', KEYS[1], ARGV[2], 'EXAT', expiresAt)
else
  redis.call('SET', KEYS[1], ARGV[2])
end
for i = 2, #KEYS do
  local existed = redis.call('EXISTS', KEYS[i])
  redis.call('SADD', KEYS[i], ARGV[1])
  if expiresAt == 0 then
    redis.call('PERSIST', KEYS[i])
  elseif existed == 0 then
    redis.call('EXPIREAT', KEYS[i], expiresAt)
  else
    redis.call('EXPIREAT', KEYS[i], expiresAt, 'GT')
  end
end
`;

// KEYS[1] the record, KEYS[2..] its new index sets. ARGV: id, stored JSON, expiresAt (0: never), now.
const PUT = `
local old = redis.call('GET', KEYS[1])
if old then
  for _, set in ipairs(cjson.decode(old).sets) do redis.call('SREM', set, ARGV[1]) end
end
local expiresAt = tonumber(ARGV[3])
if expiresAt > 0 and expiresAt <= tonumber(ARGV[4]) then
  redis.call('DEL', KEYS[1])
  return 0
end
${WRITE}return 1
`;

// PUT when no live record is there, in the same script: of replicas creating the same record
// at once exactly one writes, and every one gets back the record kept. Same KEYS and ARGV as
// PUT; returns the stored JSON kept.
const CREATE = `
local old = redis.call('GET', KEYS[1])
if old then return old end
local expiresAt = tonumber(ARGV[3])
if expiresAt > 0 and expiresAt <= tonumber(ARGV[4]) then return ARGV[2] end
${WRITE}return ARGV[2]
`;

// KEYS[1] the record. ARGV: id.
const DELETE = `
local old = redis.call('GET', KEYS[1])
if not old then return 0 end
for _, set in ipairs(cjson.decode(old).sets) do redis.call('SREM', set, ARGV[1]) end
redis.call('DEL', KEYS[1])
return 1
`;

// Members whose record expired on its own, checked again inside the script: a put of the same
// id between the read and the prune keeps its index entry. KEYS[1] the set; ARGV: id, record key, ...
const PRUNE = `
for i = 1, #ARGV, 2 do
  if redis.call('EXISTS', ARGV[i + 1]) == 0 then redis.call('SREM', KEYS[1], ARGV[i]) end
end
return 0
`;

const WHAT = 'OAuth records (tokens, grants, clients)';

export class RedisGrantStore implements GrantStore {
  /** As durable as the Redis server is configured to be (docs/scale-out.md: persistence). */
  readonly persistent = true;

  constructor(
    private readonly redis: RedisConnection,
    private readonly now: () => number = () => Date.now() / 1000,
  ) {
    redis.client.defineCommand('switchboardGrantPut', { lua: PUT });
    redis.client.defineCommand('switchboardGrantCreate', { lua: CREATE });
    redis.client.defineCommand('switchboardGrantDelete', { lua: DELETE, numberOfKeys: 1 });
    redis.client.defineCommand('switchboardGrantPrune', { lua: PRUNE, numberOfKeys: 1 });
    this.commands = redis.client as unknown as GrantCommands;
  }

  private readonly commands: GrantCommands;

  private recordKey(kind: string, id: string): string {
    return this.redis.key('grant', encodeURIComponent(kind), encodeURIComponent(id));
  }

  private setKey(kind: string, key: string, value: string): string {
    return this.redis.key('grant-index', encodeURIComponent(kind), encodeURIComponent(key), encodeURIComponent(value));
  }

  private live(raw: string | null): StoredRecord | undefined {
    if (raw === null) return undefined;
    const { record } = JSON.parse(raw) as Stored;
    return record.expiresAt === undefined || record.expiresAt > this.now() ? record : undefined;
  }

  async get(kind: string, id: string): Promise<StoredRecord | undefined> {
    const raw = await shared(this.redis, WHAT, () => this.redis.client.get(this.recordKey(kind, id)));
    return this.live(raw);
  }

  /** The script's keys and arguments for writing `record` (PUT and CREATE take the same). */
  private written(kind: string, id: string, record: StoredRecord): string[] {
    const sets = Object.entries(record.index ?? {}).map(([key, value]) => this.setKey(kind, key, value));
    const stored: Stored = { record, sets };
    const expiresAt = record.expiresAt === undefined ? 0 : Math.ceil(record.expiresAt);
    const keys = [this.recordKey(kind, id), ...sets];
    return [String(keys.length), ...keys, id, JSON.stringify(stored), String(expiresAt), String(Math.floor(this.now()))];
  }

  async put(kind: string, id: string, record: StoredRecord): Promise<void> {
    const args = this.written(kind, id, record);
    await shared(this.redis, WHAT, () => this.commands.switchboardGrantPut(...args));
  }

  async create(kind: string, id: string, record: StoredRecord): Promise<StoredRecord> {
    const args = this.written(kind, id, record);
    const kept = await shared(this.redis, WHAT, () => this.commands.switchboardGrantCreate(...args));
    // Redis drops an expired key on read, so what GET found in the script is live by its clock.
    return (JSON.parse(kept) as Stored).record;
  }

  async delete(kind: string, id: string): Promise<void> {
    await shared(this.redis, WHAT, () => this.commands.switchboardGrantDelete(this.recordKey(kind, id), id));
  }

  async findBy(kind: string, key: string, value: string): Promise<string[]> {
    const set = this.setKey(kind, key, value);
    return shared(this.redis, WHAT, async () => {
      const ids = await this.redis.client.smembers(set);
      if (ids.length === 0) return [];
      const raws = await this.redis.client.mget(ids.map((id) => this.recordKey(kind, id)));
      const found: string[] = [];
      const stale: string[] = [];
      ids.forEach((id, i) => {
        if (this.live(raws[i] ?? null)) found.push(id);
        else if ((raws[i] ?? null) === null) stale.push(id);
      });
      if (stale.length > 0) await this.commands.switchboardGrantPrune(set, ...stale.flatMap((id) => [id, this.recordKey(kind, id)]));
      return found.sort();
    });
  }
}

/** The scripts defineCommand adds to the client (EVALSHA, falling back to EVAL once). */
interface GrantCommands {
  switchboardGrantPut(...numberOfKeysThenArgs: string[]): Promise<number>;
  switchboardGrantCreate(...numberOfKeysThenArgs: string[]): Promise<string>;
  switchboardGrantDelete(key: string, id: string): Promise<number>;
  switchboardGrantPrune(set: string, ...idsAndKeys: string[]): Promise<number>;
}
