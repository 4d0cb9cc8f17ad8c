/**
 * The Lua scripts the shared task store runs, one atomic step each (task-store.ts says why
 * each write is a compare-and-set, and how a runner's epoch fences its writes), and the
 * commands they become on the Redis client.
 */
import type { RedisConnection } from '../../lib/redis/connection.js';

// KEYS[1] the owner's set, KEYS[2] the task's hash, KEYS[3] the running tasks' replicas, KEYS[4] the fence of the
// creating replica's epoch. ARGV: id, JSON, created ms, ttl ms, maxPerOwner, task key prefix, the creating replica
// (replica#epoch, which runs the task). -2 when that epoch is fenced.
// Ids of expired tasks leave the owner's set here; the set itself lives as long as its longest task.
const CREATE = `
if redis.call('EXISTS', KEYS[4]) == 1 then return -2 end
local live = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if redis.call('EXISTS', ARGV[6] .. id) == 1 then live = live + 1 else redis.call('ZREM', KEYS[1], id) end
end
if live >= tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[2], 'json', ARGV[2], 'status', 'working', 'ver', '1')
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[7])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 1
`;

// KEYS[1] the task's hash, KEYS[2] the running tasks' replicas, KEYS[3] the fence of the runner's epoch. ARGV: the
// version read, the new JSON, the new status, the task's id, the replica#epoch the task must still be run by ('' for
// any: a cancel on another replica), '1' for the runner's own writes (-2 when its epoch is fenced).
// A final status takes the task out of the running ones.
const CHANGE = `
if ARGV[6] == '1' and redis.call('EXISTS', KEYS[3]) == 1 then return -2 end
if redis.call('HGET', KEYS[1], 'ver') ~= ARGV[1] then return 0 end
local s = redis.call('HGET', KEYS[1], 'status')
if s == 'completed' or s == 'failed' or s == 'cancelled' then return -1 end
if ARGV[5] ~= '' and redis.call('HGET', KEYS[2], ARGV[4]) ~= ARGV[5] then return -1 end
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'status', ARGV[3], 'ver', tostring(tonumber(ARGV[1]) + 1))
if ARGV[3] == 'completed' or ARGV[3] == 'failed' or ARGV[3] == 'cancelled' then redis.call('HDEL', KEYS[2], ARGV[4]) end
return 1
`;

// A late end's note on a task already ended. KEYS[1] the task's hash. ARGV: the version read, the new JSON.
const NOTE = `
if redis.call('HGET', KEYS[1], 'ver') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'ver', tostring(tonumber(ARGV[1]) + 1))
return 1
`;

// KEYS[1] the owner's set, KEYS[2] the task's hash, KEYS[3] the running tasks' replicas, KEYS[4] the fence of the
// runner's epoch. ARGV: id, JSON, status, created ms, ttl ms, the replica#epoch running it. Only when the hash is
// absent; 1 when written back, -2 when that epoch is fenced.
const RESTORE = `
if redis.call('EXISTS', KEYS[4]) == 1 then return -2 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[2], 'json', ARGV[2], 'status', ARGV[3], 'ver', '1')
redis.call('PEXPIRE', KEYS[2], ARGV[5])
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
if ARGV[3] == 'completed' or ARGV[3] == 'failed' or ARGV[3] == 'cancelled' then redis.call('HDEL', KEYS[3], ARGV[1]) else redis.call('HSET', KEYS[3], ARGV[1], ARGV[6]) end
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
return 1
`;

export interface TaskCommands {
  switchboardTaskCreate(
    owner: string,
    task: string,
    running: string,
    fence: string,
    id: string,
    json: string,
    created: string,
    ttl: string,
    max: string,
    prefix: string,
    replica: string,
  ): Promise<number>;
  switchboardTaskChange(
    task: string,
    running: string,
    fence: string,
    version: string,
    json: string,
    status: string,
    id: string,
    replica: string,
    own: '1' | '0',
  ): Promise<number>;
  switchboardTaskNote(task: string, version: string, json: string): Promise<number>;
  switchboardTaskRestore(
    owner: string,
    task: string,
    running: string,
    fence: string,
    id: string,
    json: string,
    status: string,
    created: string,
    ttl: string,
    runner: string,
  ): Promise<number>;
}

/** Defines the task scripts on `redis`'s client; the client, typed with them. */
export function defineTaskCommands(redis: RedisConnection): TaskCommands {
  redis.client.defineCommand('switchboardTaskCreate', { lua: CREATE, numberOfKeys: 4 });
  redis.client.defineCommand('switchboardTaskChange', { lua: CHANGE, numberOfKeys: 3 });
  redis.client.defineCommand('switchboardTaskNote', { lua: NOTE, numberOfKeys: 1 });
  redis.client.defineCommand('switchboardTaskRestore', { lua: RESTORE, numberOfKeys: 4 });
  return redis.client as unknown as TaskCommands;
}
