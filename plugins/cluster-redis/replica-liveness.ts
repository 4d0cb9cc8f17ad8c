/**
 * Each replica says it is alive: a key `<keyPrefix>replica:<id>` that expires after
 * TTL_MS unless renewed (every RENEW_MS). What a replica leaves behind that only it can
 * finish (a workflow run in progress) names its id; once the key is gone (the replica was
 * killed, or stopped: the key is deleted then), the other replicas know it never will.
 *
 * The id names the host and process (a pod's name in Kubernetes), so an operator reading
 * "replica <id> ended during the run" knows which one it was; a random suffix keeps two
 * processes that reuse a pid apart.
 *
 * A renewal Redis refuses (out of memory under `noeviction`, unreachable) is not silent: once
 * the last renewal that landed is TTL_MS old, the key may have lapsed and the others may take
 * this replica for ended; it says so (an error in its log, /health degraded through `problem`,
 * `onLapse` listeners), and again when a renewal lands.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';

/** A replica unheard of for this long is taken as ended: three renewals missed. */
export const TTL_MS = 15_000;
const RENEW_MS = 5_000;

export class ReplicaLiveness {
  readonly id = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;
  private warned = false;
  /** When the last renewal landed (ms). */
  private renewedAt = 0;
  private lastError: string | undefined;
  private lapsed = false;
  private readonly lapseListeners = new Set<(lapsed: boolean) => void>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly log: Logger,
  ) {}

  private keyOf(id: string): string {
    return this.redis.key('replica', id);
  }

  async start(): Promise<void> {
    await this.renew();
    this.timer = setInterval(() => {
      this.renew().then(
        () => {
          this.warned = false;
          this.lastError = undefined;
          if (this.lapsed) {
            this.lapsed = false;
            this.log.info('this replica says it is alive again');
            for (const l of [...this.lapseListeners]) l(false);
          }
        },
        (err: unknown) => {
          this.lastError = (err as Error).message;
          // Said once per outage: the connection's own warning says the rest.
          if (!this.warned)
            this.log.warn(`this replica could not say it is alive (${this.lastError}); its runs in progress may be marked failed by the others`);
          this.warned = true;
          if (!this.lapsed && Date.now() - this.renewedAt >= TTL_MS) {
            this.lapsed = true;
            this.log.error(
              `this replica cannot prove it is alive: its liveness key was last renewed ${Math.round((Date.now() - this.renewedAt) / 1000)} s ago (${this.lastError}); the others may take it for ended`,
            );
            for (const l of [...this.lapseListeners]) l(true);
          }
        },
      );
    }, RENEW_MS);
    this.timer.unref();
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

  /** Which of `ids` are alive now (one round trip). */
  async alive(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await this.redis.client.mget(ids.map((id) => this.keyOf(id)));
    return new Set(ids.filter((_, i) => found[i] !== null));
  }

  /** Stopping: the others need not wait out the TTL to know this replica's runs will not finish. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.client.del(this.keyOf(this.id)).catch(() => undefined);
  }

  /** PSETEX, a command nothing else here sends: a measurement of the call path can tell this timer's traffic apart. */
  private async renew(): Promise<void> {
    await this.redis.client.psetex(this.keyOf(this.id), TTL_MS, '1');
    this.renewedAt = Date.now();
  }
}
