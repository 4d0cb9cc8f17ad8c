/**
 * Writes Redis cannot take now wait here, in order, and are written when it takes writes
 * again: an event appended or an execution record saved while Redis refuses writes (out of
 * memory under `noeviction`) or cannot be reached. Nothing that recorded them waits: the
 * engine's run goes on and ends as it would, the recorder of an event never blocked anyway.
 *
 * Bounded (BACKLOG_BOUND: entries and bytes): beyond the bound the oldest waiting write is
 * dropped, counted (`onDropped`: a metric) and, once writing resumes, reported (`onResumed`:
 * an event saying how many were lost). Writes of one record (`key`) replace each other while
 * they wait, so a run saving after each step costs one entry, its latest state.
 *
 * A write Redis refuses for a reason that will not pass (a wrong type, a script error) is
 * not retried: it is logged and dropped, as before there was a backlog.
 */
import type { Logger } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';

export interface BacklogBound {
  /** Writes kept waiting at most. */
  maxEntries: number;
  /** Their payloads' bytes at most (the JSON each would write). */
  maxBytes: number;
}

/** Per backlog (one for the event log, one for execution records, per replica): docs/scale-out.md. */
export const BACKLOG_BOUND: BacklogBound = { maxEntries: 10_000, maxBytes: 8 * 1024 * 1024 };

/** How often a waiting backlog tries its oldest write again (also at once when the connection comes back). */
const RETRY_MS = 1000;

/** Replies that say "not now" rather than "never": memory full, loading, a read-only replica, a busy script. */
const PASSING = /^(OOM|LOADING|READONLY|MASTERDOWN|BUSY|TRYAGAIN|NOREPLICAS)\b|OOM command not allowed/;

/** A write that failed and may succeed later: Redis refused it for now, or it never got an answer. */
export function mayPass(err: unknown): boolean {
  if (!(err instanceof Error)) return true;
  // ioredis' ReplyError is Redis' answer; anything else is the connection (closed, timed out, offline).
  if (err.name !== 'ReplyError') return true;
  return PASSING.test(err.message);
}

interface Entry<V> {
  key: string | undefined;
  bytes: number;
  write: () => Promise<void>;
  what: string;
  value: V;
}

export class WriteBacklog<V = undefined> {
  private readonly waiting: Entry<V>[] = [];
  private readonly byKey = new Map<string, Entry<V>>();
  private bytes = 0;
  /** Writes dropped since writing last resumed (reported then). */
  private droppedSinceReport = 0;
  private droppedTotal = 0;
  /** Direct writes in order; a submission waits for the one before it. */
  private tail: Promise<void> = Promise.resolve();
  private draining: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastError: string | undefined;
  private readonly offHealth: () => void;
  private closed = false;

  constructor(
    redis: RedisConnection,
    private readonly log: Logger,
    /** What the backlog holds, for log lines ("event log", "execution history"). */
    private readonly name: string,
    private readonly hooks: {
      onDropped?: (count: number) => void;
      onResumed?: (dropped: number) => void;
    } = {},
    private readonly bound: BacklogBound = BACKLOG_BOUND,
  ) {
    this.offHealth = redis.onHealthChange((healthy) => {
      if (healthy) this.drainSoon(0);
    });
  }

  /** Writes waiting for Redis now. */
  get size(): number {
    return this.waiting.length;
  }

  /** Writes dropped by the bound since this process started. */
  get dropped(): number {
    return this.droppedTotal;
  }

  /** Why /health is degraded while writes wait, else undefined. */
  get problem(): string | undefined {
    if (this.waiting.length === 0) return undefined;
    return `${this.name}: ${this.waiting.length} writes wait for Redis to take writes again (${this.lastError ?? 'refused'})`;
  }

  /**
   * `write` runs after every write submitted before it; when Redis cannot take it (or
   * something is already waiting), it waits here. Resolves once written or waiting, never
   * rejects: a failure that will not pass is logged.
   */
  submit(what: string, bytes: number, write: () => Promise<void>, value: V, key?: string): Promise<void> {
    const entry: Entry<V> = { key, bytes, write, what, value };
    const done = this.tail.then(() => this.attempt(entry));
    this.tail = done;
    return done;
  }

  /** Resolves once every write submitted so far is written or waiting. */
  settled(): Promise<void> {
    return this.tail;
  }

  /** The value of `key`'s waiting write (its record's newest state, not yet in Redis), if one waits. */
  waitingValue(key: string): V | undefined {
    return this.byKey.get(key)?.value;
  }

  /** The values of every waiting write, oldest first. */
  waitingValues(): V[] {
    return this.waiting.map((e) => e.value);
  }

  /** Stops retrying; what still waits after one last try is lost, and said so. */
  async close(): Promise<void> {
    await this.tail;
    this.closed = true;
    clearTimeout(this.timer);
    this.offHealth();
    await this.draining;
    if (this.waiting.length > 0) await this.drain();
    if (this.waiting.length > 0)
      this.log.error(
        `${this.name}: ${this.waiting.length} writes Redis could not take are lost as this replica stops (${this.lastError ?? 'Redis refused them'})`,
      );
  }

  private async attempt(entry: Entry<V>): Promise<void> {
    if (this.waiting.length > 0) {
      this.enqueue(entry);
      return;
    }
    try {
      await entry.write();
    } catch (err) {
      if (!mayPass(err)) {
        this.log.error(`${this.name}: ${entry.what} not written: ${(err as Error).message}`);
        return;
      }
      this.lastError = (err as Error).message;
      this.log.warn(
        `${this.name}: Redis cannot take writes now (${this.lastError}); keeping them here until it can (at most ${this.bound.maxEntries} writes, ${this.bound.maxBytes} bytes)`,
      );
      this.enqueue(entry);
      this.drainSoon(RETRY_MS);
    }
  }

  private enqueue(entry: Entry<V>): void {
    const previous = entry.key === undefined ? undefined : this.byKey.get(entry.key);
    if (previous) {
      // The record's newer state replaces the older one where it waits: order between records is kept.
      this.bytes += entry.bytes - previous.bytes;
      previous.bytes = entry.bytes;
      previous.write = entry.write;
      previous.what = entry.what;
      previous.value = entry.value;
    } else {
      this.waiting.push(entry);
      this.bytes += entry.bytes;
      if (entry.key !== undefined) this.byKey.set(entry.key, entry);
    }
    let dropped = 0;
    while (this.waiting.length > 1 && (this.waiting.length > this.bound.maxEntries || this.bytes > this.bound.maxBytes)) {
      this.remove(this.waiting[0]!);
      dropped++;
    }
    if (dropped > 0) {
      this.droppedSinceReport += dropped;
      this.droppedTotal += dropped;
      this.hooks.onDropped?.(dropped);
    }
  }

  private remove(entry: Entry<V>): void {
    const i = this.waiting.indexOf(entry);
    if (i < 0) return;
    this.waiting.splice(i, 1);
    this.bytes -= entry.bytes;
    if (entry.key !== undefined && this.byKey.get(entry.key) === entry) this.byKey.delete(entry.key);
  }

  private drainSoon(ms: number): void {
    if (this.closed || this.waiting.length === 0 || this.draining) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.draining ??= this.drain().finally(() => {
        this.draining = undefined;
        this.drainSoon(RETRY_MS);
      });
    }, ms);
    this.timer.unref();
  }

  /** Writes the waiting entries oldest first, stopping at the first Redis still refuses. */
  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const entry = this.waiting[0]!;
      const write = entry.write;
      try {
        await write();
      } catch (err) {
        if (mayPass(err)) {
          this.lastError = (err as Error).message;
          return;
        }
        this.log.error(`${this.name}: ${entry.what} not written: ${(err as Error).message}`);
      }
      // A newer state of the same record that arrived during the write waits for the next round.
      if (entry.write === write) this.remove(entry);
    }
    this.log.info(
      `${this.name}: Redis takes writes again; every write kept meanwhile is written${this.droppedSinceReport > 0 ? ` but ${this.droppedSinceReport} dropped by the bound` : ''}`,
    );
    const dropped = this.droppedSinceReport;
    this.droppedSinceReport = 0;
    if (dropped > 0) this.hooks.onResumed?.(dropped);
  }
}
