/**
 * The event log on Redis: one stream every replica appends to, so `core_events` answers the
 * same ordered history on each of them and a follower sees what any replica recorded.
 *
 * Ids: one Lua script INCRs a counter and XADDs the event with `<counter>-0` as its stream
 * id, atomically, so the event's number (the contract's increasing id) and the stream's
 * order are the same thing on every replica. The stream keeps maxEvents entries (exact
 * MAXLEN, as the single-process log keeps exactly that many); age retention is applied as
 * the single-process log applies it, by leaving older events out of every answer.
 *
 * Follow reads the stream (XREAD BLOCK on a connection of its own, opened while anyone
 * follows) rather than pub/sub: a stream read resumes from the last id it saw, so an event
 * recorded while the connection was re-established is delivered late, not lost, and every
 * replica's followers see the events in the stream's order.
 *
 * An event Redis cannot take now (out of memory, unreachable) waits in a bounded backlog and
 * is appended, in order, when it can (write-backlog.ts): its id is given then, its time is
 * when it happened.
 */
import type { Redis } from 'ioredis';
import type { EventJournal, EventJournalFactory, EventPage, EventQuery, EventRetention, Logger, SwitchboardEvent } from '../../kernel/index.js';
import type { WriteLosses } from './write-losses.js';
import { queryEvents } from '../../lib/events/event-query.js';
import type { RedisConnection } from '../../lib/redis/connection.js';
import { unanswered } from '../../lib/redis/silent-connection-probe.js';
import { shared } from './shared-state.js';
import { WriteBacklog } from './write-backlog.js';

// KEYS[1] the stream, KEYS[2] the id counter. ARGV: the event's JSON (no id), maxEvents.
const APPEND = `
local id = redis.call('INCR', KEYS[2])
redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], id .. '-0', 'e', ARGV[1])
return id
`;

const WHAT = 'the event log';
/** Shorter than the connection's command timeout, so a quiet stream never reads as a dead Redis. */
const BLOCK_MS = 2000;
/** Entries read per round trip while answering a query (the whole retained stream is read). */
const PAGE = 1000;
/** Longest wait for a lost connection before the read is tried again anyway. */
const MAX_WAIT_MS = 5000;

type StreamEntries = [id: string, fields: string[]][];

interface JournalCommands {
  switchboardEventAppend(stream: string, counter: string, event: string, maxEvents: string): Promise<number>;
}

function toEvent(id: string, fields: string[]): SwitchboardEvent | undefined {
  const json = fields[1];
  if (fields[0] !== 'e' || json === undefined) return undefined;
  try {
    return { id: Number.parseInt(id, 10), ...(JSON.parse(json) as Omit<SwitchboardEvent, 'id'>) };
  } catch {
    return undefined;
  }
}

export class RedisEventJournal implements EventJournal {
  private readonly stream: string;
  private readonly counter: string;
  private readonly commands: JournalCommands;
  private readonly appends: WriteBacklog;
  private readonly listeners = new Set<(e: SwitchboardEvent) => void>();
  /** The newest stream id this process knows of: where a follow starts reading. */
  private lastSeen = '0-0';
  private reader: Redis | undefined;
  private reading: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly redis: RedisConnection,
    private readonly retention: EventRetention,
    private readonly log: Logger,
    losses?: WriteLosses,
  ) {
    this.appends = new WriteBacklog(redis, log, 'event log', {
      onDropped: (count) => losses?.dropped('event', count),
      onResumed: () => losses?.resumed(),
    });
    this.stream = redis.key('events');
    this.counter = redis.key('events', 'last-id');
    redis.client.defineCommand('switchboardEventAppend', { lua: APPEND, numberOfKeys: 2 });
    this.commands = redis.client as unknown as JournalCommands;
  }

  async open(): Promise<void> {
    const newest = (await shared(this.redis, WHAT, () => this.redis.client.xrevrange(this.stream, '+', '-', 'COUNT', 1))) as StreamEntries;
    this.see(newest[0]?.[0]);
  }

  append(event: Omit<SwitchboardEvent, 'id'>): void {
    const json = JSON.stringify(event);
    void this.appends.submit(
      `event ${event.reason} on ${event.resource.type} ${event.resource.name}`,
      Buffer.byteLength(json),
      async () => {
        const id = await this.commands.switchboardEventAppend(this.stream, this.counter, json, String(this.retention.maxEvents));
        // A follow started later begins after this process's own events.
        this.see(`${id}-0`);
      },
      undefined,
    );
  }

  /** Why /health is degraded while events wait for Redis. */
  get problem(): string | undefined {
    return this.appends.problem;
  }

  async query(q: EventQuery): Promise<EventPage> {
    // This process's own events are in the answer: its appends land first (those Redis cannot take now are not in it).
    await this.appends.settled();
    const events: SwitchboardEvent[] = [];
    const oldest = new Date(Date.now() - this.retention.maxAgeHours * 3_600_000).toISOString();
    let from = '-';
    for (;;) {
      const start = from;
      const batch = (await shared(this.redis, WHAT, () => this.redis.client.xrange(this.stream, start, '+', 'COUNT', PAGE))) as StreamEntries;
      for (const [id, fields] of batch) {
        const e = toEvent(id, fields);
        if (e && e.time >= oldest) events.push(e);
      }
      const last = batch.at(-1)?.[0];
      this.see(last);
      if (batch.length < PAGE || last === undefined) break;
      from = `(${last}`;
    }
    return queryEvents(events, q);
  }

  subscribe(listener: (event: SwitchboardEvent) => void): () => void {
    this.listeners.add(listener);
    this.reading ??= this.follow();
    return () => this.listeners.delete(listener);
  }

  flush(): Promise<void> {
    return this.appends.settled();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.appends.close();
    this.reader?.disconnect();
    await this.reading;
  }

  private see(id: string | undefined): void {
    if (id !== undefined && compareIds(id, this.lastSeen) > 0) this.lastSeen = id;
  }

  /** Reads the stream from the newest id known while anyone listens; a failed read waits for the connection to come back. */
  private async follow(): Promise<void> {
    const reader = (this.reader ??= this.redis.client.duplicate({ connectionName: 'switchboard-events-follow' }));
    // Fixed now: this process's appends and queries, landing while the read waits, must not move it past events still unread.
    let cursor = this.lastSeen;
    try {
      while (this.listeners.size > 0 && !this.closed) {
        let answer: [stream: string, entries: StreamEntries][] | null;
        try {
          if (reader.status !== 'ready') await ready(reader);
          answer = await reader.xread('COUNT', PAGE, 'BLOCK', BLOCK_MS, 'STREAMS', this.stream, cursor);
        } catch (err) {
          // A blocking read is answered within BLOCK_MS: one with no answer by the command
          // timeout waited on a connection that died without a word, which nothing else on this
          // connection would notice (lib/redis/silent-connection-probe.ts): closed and made again.
          if (unanswered(err) && reader.status === 'ready') reader.disconnect(true);
          // Closing ends the read too; the loop's condition then stops it.
          this.log.debug(`event log: following the shared stream paused: ${(err as Error).message}`);
          await retryAfter(reader);
          continue;
        }
        for (const [id, fields] of answer?.[0]?.[1] ?? []) {
          cursor = id;
          this.see(id);
          const e = toEvent(id, fields);
          if (e) for (const l of this.listeners) l(e);
        }
      }
    } finally {
      this.reading = undefined;
    }
  }
}

/** Resolves when the connection is ready again (ioredis reconnects on its own), or closed for good. */
function ready(reader: Redis): Promise<void> {
  if (reader.status === 'ready' || reader.status === 'end') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      reader.off('ready', done);
      reader.off('end', done);
      resolve();
    };
    reader.once('ready', done);
    reader.once('end', done);
  });
}

/** A read failed: waits for the connection to come back, or a second when it never went (a back-off, not a synchronisation). */
function retryAfter(reader: Redis): Promise<void> {
  // Closed for good (the journal closing): the loop's condition ends it.
  if (reader.status === 'end') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      reader.off('ready', done);
      reader.off('end', done);
      resolve();
    };
    const timer = setTimeout(done, reader.status === 'ready' ? 1000 : MAX_WAIT_MS);
    reader.once('ready', done);
    reader.once('end', done);
  });
}

/** Stream ids `<ms>-<seq>` compared as numbers. */
function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am - bm || as - bs;
}

export class RedisEventJournals implements EventJournalFactory {
  /** The journal the events plugin writes to (the newest created): where a loss report goes. */
  current: RedisEventJournal | undefined;

  constructor(
    private readonly redis: RedisConnection,
    private readonly log: Logger,
    private readonly losses: WriteLosses,
  ) {}

  create(retention: EventRetention): EventJournal {
    this.current = new RedisEventJournal(this.redis, retention, this.log, this.losses);
    return this.current;
  }
}
