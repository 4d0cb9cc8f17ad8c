/**
 * Each replica says it is alive: a key `<keyPrefix>replica:<id>` holding its epoch, that
 * expires after TTL_MS unless renewed (every RENEW_MS). What a replica leaves behind that only
 * it can finish (a workflow run, a task in progress) names its token, `<id>#<epoch>`; once
 * the key no longer holds that epoch (the replica was killed, or stopped: the key is deleted
 * then), the other replicas know it never will, and take those records over.
 *
 * Fencing: a replica that was only paused (SIGSTOP, a long GC, a frozen VM) may come back
 * after the others took its work over. Before taking over anything of `<id>#<e>`, a survivor
 * sets the fence key `<keyPrefix>replica-fence:<id>#<e>` in one script that first checks the
 * replica did not come back meanwhile. Every write the replica makes to a record of epoch e
 * checks that key inside its own script (execution-records.ts, task-store.ts), so a late
 * write is refused atomically, whatever runs first after SIGCONT: the timer that renews or
 * the I/O that finishes the work. The renewal reads the fence too; a fenced replica takes the
 * next epoch and carries on serving new work under it (docs/scale-out.md, docs/decisions.md).
 *
 * The id names the host and process (a pod's name in Kubernetes), so an operator reading
 * "replica <id> ended during the run" knows which one it was; a random suffix keeps two
 * processes that reuse a pid apart. Epochs count per id (the id is this process's alone).
 *
 * Redis full (out of memory under `noeviction`) refuses the renewal's PSETEX: the key is kept
 * alive by PEXPIRE then, which Redis takes while full. A renewal that fails (Redis unreachable,
 * the key gone while full) is not silent: once the last renewal that landed is TTL_MS old, the
 * key may have lapsed and the others may take this replica for ended; it says so (an error in
 * its log, /health degraded through `problem`, `onLapse` listeners), and again when a renewal
 * lands.
 *
 * An outage of Redis is everyone's: while this replica's own renewals fail, and for a renewal
 * period after they land again, it takes no other replica for ended (`alive` says all are);
 * the others' keys lapsed in the same outage and they renew as they come back.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../../kernel/index.js';
import { MAX_RECONNECT_DELAY_MS, type RedisConnection } from '../../lib/redis/connection.js';

/** A replica unheard of for this long is taken as ended: three renewals missed. */
export const TTL_MS = 15_000;
/** How often a replica renews its key (three renewals fit in TTL_MS). */
const RENEW_MS = 5_000;
/** Redis' refusal of a write under `maxmemory` (`noeviction`). */
const OUT_OF_MEMORY = /^OOM\b/;
/**
 * How long a fence is kept: longer than a fenced replica can hold a write of that epoch back
 * (a pause past this would find every record it held already taken over: their own
 * compare-and-set refuses it then).
 */
const FENCE_TTL_MS = 24 * 3_600_000;

// KEYS[1] the replica's liveness key, KEYS[2] the fence of the epoch. ARGV: the epoch, the fence's ttl.
// 0 when the replica is alive at that epoch again (it came back before anything was taken over).
const FENCE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return 0 end
redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
return 1
`;

interface FenceCommands {
  switchboardReplicaFence(live: string, fence: string, epoch: string, ttl: string): Promise<number>;
}

/** Who runs a record: a replica at one epoch. */
export interface ReplicaToken {
  id: string;
  /** Undefined for a record written before epochs existed (alive while the key exists). */
  epoch?: number;
}

export function tokenText(t: ReplicaToken): string {
  return t.epoch === undefined ? t.id : `${t.id}#${t.epoch}`;
}

export function parseToken(text: string): ReplicaToken {
  const at = text.lastIndexOf('#');
  const epoch = at < 0 ? NaN : Number(text.slice(at + 1));
  return Number.isInteger(epoch) && epoch > 0 ? { id: text.slice(0, at), epoch } : { id: text };
}

export class ReplicaLiveness {
  readonly id = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private current = 1;
  private timer: NodeJS.Timeout | undefined;
  private warned = false;
  /** When the last renewal landed (ms). */
  private renewedAt = 0;
  private lastError: string | undefined;
  /** A renewal failed since the last one that landed. */
  private outOfTouch = false;
  /** When renewals landed again after an outage (see `inTouch`). */
  private backSince: number | undefined;
  private offHealth: (() => void) | undefined;
  private lapsed = false;
  private readonly lapseListeners = new Set<(lapsed: boolean) => void>();
  private readonly fences: FenceCommands;

  constructor(
    private readonly redis: RedisConnection,
    private readonly log: Logger,
    /** RENEW_MS; shorter only where a test waits for renewals. */
    private readonly renewMs = RENEW_MS,
  ) {
    redis.client.defineCommand('switchboardReplicaFence', { lua: FENCE, numberOfKeys: 2 });
    this.fences = redis.client as unknown as FenceCommands;
  }

  /** The epoch new work is recorded under. */
  get epoch(): number {
    return this.current;
  }

  /** This replica now, as records name their runner. */
  get token(): string {
    return tokenText({ id: this.id, epoch: this.current });
  }

  private keyOf(id: string): string {
    return this.redis.key('replica', id);
  }

  /** The key whose presence says `token` was declared dead; every write of its records checks it. */
  fenceKey(token: string): string {
    return this.redis.key('replica-fence', token);
  }

  async start(): Promise<void> {
    await this.renew();
    this.timer = setInterval(() => void this.tick(), this.renewMs);
    this.timer.unref();
    // Back in touch after an outage: say so at once rather than at the next tick, so the
    // others (who wait a renewal period after their own return) find this replica alive.
    this.offHealth = this.redis.onHealthChange((healthy) => {
      if (healthy) void this.tick();
    });
  }

  /** One renewal, its outcome said once per change (never rejects). */
  private async tick(): Promise<void> {
    try {
      await this.renew();
    } catch (err) {
      this.lastError = (err as Error).message;
      this.outOfTouch = true;
      // Said once per outage: the connection's own warning says the rest.
      if (!this.warned) this.log.warn(`this replica could not say it is alive (${this.lastError}); its runs in progress may be marked failed by the others`);
      this.warned = true;
      if (!this.lapsed && Date.now() - this.renewedAt >= TTL_MS) {
        this.lapsed = true;
        this.log.error(
          `this replica cannot prove it is alive: its liveness key was last renewed ${Math.round((Date.now() - this.renewedAt) / 1000)} s ago (${this.lastError}); the others may take it for ended`,
        );
        for (const l of [...this.lapseListeners]) l(true);
      }
      return;
    }
    this.warned = false;
    this.lastError = undefined;
    if (this.lapsed) {
      this.lapsed = false;
      this.log.info('this replica says it is alive again');
      for (const l of [...this.lapseListeners]) l(false);
    }
  }

  /**
   * Whether this replica may take another for ended now: not while its own renewals fail,
   * nor for a renewal period and the others' longest reconnect backoff after they land again.
   * An outage that kept this replica from Redis kept the others too; their keys lapsed
   * meanwhile, and they renew within a renewal period of Redis coming back (at once, on
   * reconnecting). Judging before then would end the work of every replica that merely
   * shared the outage.
   */
  private inTouch(): boolean {
    return this.lastError === undefined && (this.backSince === undefined || Date.now() - this.backSince >= this.renewMs + MAX_RECONNECT_DELAY_MS);
  }

  /** Why /health is degraded while renewals fail (Redis refusing writes or away), else undefined. */
  get problem(): string | undefined {
    if (this.lastError === undefined) return undefined;
    return `replica ${this.id} cannot renew its liveness key (${this.lastError})${this.lapsed ? '; it may have lapsed: the others may take this replica for ended' : ''}`;
  }

  /** `listener(true)` once this replica can no longer prove it is alive (its key may have lapsed), `listener(false)` once it can again. */
  onLapse(listener: (lapsed: boolean) => void): () => void {
    this.lapseListeners.add(listener);
    return () => this.lapseListeners.delete(listener);
  }

  /**
   * Which of `tokens` are alive now (one round trip): the replica's key holds the token's
   * epoch. All of them while this replica is not in touch with Redis itself (`inTouch`).
   */
  async alive(tokens: readonly string[]): Promise<Set<string>> {
    if (tokens.length === 0) return new Set();
    if (!this.inTouch()) return new Set(tokens);
    const parsed = tokens.map(parseToken);
    const found = await this.redis.client.mget(parsed.map((t) => this.keyOf(t.id)));
    return new Set(tokens.filter((_, i) => found[i] !== null && (parsed[i]!.epoch === undefined || found[i] === String(parsed[i]!.epoch))));
  }

  /**
   * Declares `token` dead before its records are taken over: false when its replica came
   * back at that epoch meanwhile (then nothing of it may be taken). Idempotent.
   */
  async fence(token: string): Promise<boolean> {
    const t = parseToken(token);
    if (t.epoch === undefined) return true;
    return (await this.fences.switchboardReplicaFence(this.keyOf(t.id), this.fenceKey(token), String(t.epoch), String(FENCE_TTL_MS))) === 1;
  }

  /**
   * A write of this replica's was refused as fenced (its epoch `epoch` was declared dead):
   * new work goes on under the next epoch at once, without waiting for the renewal to see it.
   */
  fenced(epoch: number): void {
    if (epoch !== this.current) return;
    this.current++;
    this.log.warn(
      `this replica was declared dead by the others (it was not heard of for ${TTL_MS / 1000} s: paused or cut off); ` +
        `the work it had in progress is theirs now and its late results are recorded as notes; it goes on as epoch ${this.current}`,
    );
    void this.redis.client.psetex(this.keyOf(this.id), TTL_MS, String(this.current)).catch(() => undefined);
  }

  /** Stopping: the others need not wait out the TTL to know this replica's runs will not finish. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.offHealth?.();
    await this.redis.client.del(this.keyOf(this.id)).catch(() => undefined);
  }

  /**
   * PSETEX and EXISTS, one round trip, commands nothing on a call's path sends: a measurement
   * of the call path can tell this timer's traffic apart. The key is set before the fence is
   * read, so a survivor's FENCE either sees the replica alive (and takes nothing) or fenced it
   * before this read.
   *
   * Redis full (`noeviction`) refuses PSETEX but not PEXPIRE: the key this replica already
   * holds at its epoch is extended instead, so a full Redis does not make the replicas take
   * each other for ended once it frees. Only a key that is gone (or holds another epoch)
   * leaves the renewal failed.
   */
  private async renew(): Promise<void> {
    const epoch = this.current;
    const key = this.keyOf(this.id);
    const fence = this.fenceKey(tokenText({ id: this.id, epoch }));
    const replies = await this.redis.client.pipeline().psetex(key, TTL_MS, String(epoch)).exists(fence).exec();
    const refused = replies?.[0]?.[0];
    let fenced = replies?.[1];
    if (refused && OUT_OF_MEMORY.test(refused.message)) {
      const extended = await this.redis.client.pipeline().pexpire(key, TTL_MS).get(key).exists(fence).exec();
      for (const [err] of extended ?? []) if (err) throw err;
      if (extended?.[0]?.[1] !== 1 || extended[1]?.[1] !== String(epoch)) throw refused;
      fenced = extended[2];
    } else for (const [err] of replies ?? []) if (err) throw err;
    const now = Date.now();
    // A renewal that lands after failing, or long after the last one (Redis frozen, this
    // process paused), ends an outage: the others may still be on their way back.
    if (this.outOfTouch || (this.renewedAt > 0 && now - this.renewedAt > 2 * this.renewMs)) this.backSince = now;
    this.outOfTouch = false;
    this.renewedAt = now;
    if (fenced?.[1] === 1) this.fenced(epoch);
  }
}
