/**
 * Leader election for status writes: one coordination.k8s.io/v1 Lease per deployment, held
 * by one replica at a time, so N replicas do not write N views of the same servers into
 * status (each replica runs its own upstream connections, and their views may differ for a
 * moment). The algorithm is client-go's leaderelection: the holder renews the Lease every
 * period with optimistic concurrency (the resourceVersion it read); the others take it over
 * once they have seen it unchanged for leaseDurationSeconds, judged by their own clock from
 * when they saw it change (never by comparing clocks between machines); a clean stop
 * releases it (no holder), so the next replica takes it at its next look.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../kernel/index.js';
import { KubeApiError, type KubeApi } from './kube-api.js';

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

interface LeaseObject {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: { name: string; namespace?: string; resourceVersion?: string; labels?: Record<string, string> };
  spec?: LeaseSpec;
}

export interface StatusLeaseOptions {
  /** The Lease's name in the API's namespace (one per deployment: the chart derives it from the release). */
  readonly name: string;
  /** Who holds it: the pod's name (POD_NAME, from the downward API) or a generated replica id. */
  readonly identity: string;
  readonly durationSeconds: number;
}

/** Where this replica stands; `holder` is who holds it as last seen (undefined: nobody). */
export type Leadership = { readonly leading: true } | { readonly leading: false; readonly holder: string | undefined };

/** The replica's identity: POD_NAME when the chart sets it, else the host name and a random suffix (two processes on one host differ). */
export function replicaIdentity(env: NodeJS.ProcessEnv = process.env): string {
  const pod = env.POD_NAME?.trim();
  if (pod) return pod.slice(0, 128);
  return `${hostname().slice(0, 100)}-${randomBytes(4).toString('hex')}`;
}

/** Kubernetes MicroTime: RFC 3339 with exactly six fractional digits. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export class StatusLease {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Until when this replica may act as the holder: the start of its last successful renewal, plus the duration, less one period of margin. */
  private leadingUntil = 0;
  private lastSeen: { resourceVersion: string; at: number } | undefined;
  private holder: string | undefined;
  private reported: boolean | undefined;
  private warned = false;
  private readonly periodMs: number;
  private readonly durationMs: number;

  constructor(
    private readonly api: KubeApi,
    private readonly options: StatusLeaseOptions,
    private readonly log: Logger,
    private readonly onChange: (leadership: Leadership) => void,
  ) {
    this.durationMs = options.durationSeconds * 1000;
    // Four looks per duration: a holder that misses one renewal still holds; a successor waits at most a period past expiry.
    this.periodMs = Math.max(250, Math.floor(this.durationMs / 4));
  }

  private path(name?: string): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.api.namespace)}/leases${name ? `/${encodeURIComponent(name)}` : ''}`;
  }

  /** True while this replica holds the Lease and its last renewal is recent enough that nobody else can have taken it. */
  leading(): boolean {
    return Date.now() < this.leadingUntil;
  }

  leadership(): Leadership {
    return this.leading() ? { leading: true } : { leading: false, holder: this.holder };
  }

  start(): void {
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick().finally(() => this.schedule(this.periodMs));
    }, ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const startedAt = Date.now();
    try {
      const lease = await this.api.request<LeaseObject>('GET', this.path(this.options.name)).catch((err: unknown) => {
        if (err instanceof KubeApiError && err.status === 404) return undefined;
        throw err;
      });
      if (!lease) await this.create(startedAt);
      else await this.consider(lease, startedAt);
      this.warned = false;
    } catch (err) {
      // A refusal other than a lost race: said once (RBAC missing leases is the usual one); leadership lapses by itself.
      if (!(err instanceof KubeApiError && err.status === 409) && !this.warned) {
        this.warned = true;
        this.log.warn(`status Lease '${this.api.namespace}/${this.options.name}': ${(err as Error).message}; retrying every ${this.periodMs} ms`);
      }
    }
    this.report();
  }

  private async create(startedAt: number): Promise<void> {
    const created = await this.api.request<LeaseObject>('POST', this.path(), {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.options.name, labels: { 'app.kubernetes.io/managed-by': 'switchboard' } },
      spec: this.holding(startedAt, startedAt, 0),
    });
    this.won(created, startedAt);
  }

  private async consider(lease: LeaseObject, startedAt: number): Promise<void> {
    const spec = lease.spec ?? {};
    const rv = lease.metadata.resourceVersion ?? '';
    if (this.lastSeen?.resourceVersion !== rv) this.lastSeen = { resourceVersion: rv, at: startedAt };
    this.holder = spec.holderIdentity || undefined;
    if (this.holder === this.options.identity) {
      // Renew (or, after a restart under the same pod name, simply carry on holding it).
      const acquired = spec.acquireTime ? Date.parse(spec.acquireTime) : startedAt;
      await this.replace(lease, this.holding(Number.isFinite(acquired) ? acquired : startedAt, startedAt, spec.leaseTransitions ?? 0), startedAt);
      return;
    }
    const duration = (spec.leaseDurationSeconds ?? this.options.durationSeconds) * 1000;
    const expired = this.holder === undefined || startedAt - this.lastSeen.at >= duration;
    if (!expired) {
      this.leadingUntil = 0;
      return;
    }
    const previous = this.holder;
    await this.replace(lease, this.holding(startedAt, startedAt, (spec.leaseTransitions ?? 0) + (previous === undefined ? 0 : 1)), startedAt);
    this.log.info(
      previous === undefined
        ? `took the status Lease '${this.options.name}' (it was released): this replica writes status`
        : `took over the status Lease '${this.options.name}' from '${previous}' (not renewed for ${Math.round(duration / 1000)} s): this replica writes status`,
    );
  }

  private holding(acquiredAt: number, renewedAt: number, transitions: number): LeaseSpec {
    return {
      holderIdentity: this.options.identity,
      leaseDurationSeconds: this.options.durationSeconds,
      acquireTime: microTime(acquiredAt),
      renewTime: microTime(renewedAt),
      leaseTransitions: transitions,
    };
  }

  /**
   * PUT with the resourceVersion read: a Conflict means another replica wrote in between and
   * this one did not get (or keep) it. Any other failure (a 5xx, a timeout, a refusal) changed
   * nothing anyone else can act on: nobody takes the Lease before it has gone unrenewed for its
   * duration, so a holder keeps writing status until its last renewal's margin runs out
   * (`leadingUntil`) instead of handing over at one refused renewal and writing every status
   * again at the next.
   */
  private async replace(lease: LeaseObject, spec: LeaseSpec, startedAt: number): Promise<void> {
    try {
      const written = await this.api.request<LeaseObject>('PUT', this.path(this.options.name), { ...lease, spec });
      this.won(written, startedAt);
    } catch (err) {
      if (err instanceof KubeApiError && err.status === 409) this.leadingUntil = 0;
      throw err;
    }
  }

  private won(lease: LeaseObject, startedAt: number): void {
    this.holder = this.options.identity;
    this.lastSeen = { resourceVersion: lease.metadata.resourceVersion ?? '', at: startedAt };
    this.leadingUntil = startedAt + this.durationMs - this.periodMs;
  }

  /** Tells the owner when leadership changed, including when it lapsed because renewals failed. */
  private report(): void {
    const leading = this.leading();
    if (leading === this.reported) return;
    this.reported = leading;
    this.onChange(this.leadership());
  }

  /** Stops looking; if this replica holds the Lease, releases it so a successor need not wait for it to expire. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    if (!this.leading()) return;
    this.leadingUntil = 0;
    try {
      const lease = await this.api.request<LeaseObject>('GET', this.path(this.options.name));
      if (lease.spec?.holderIdentity !== this.options.identity) return;
      const { holderIdentity: _released, ...rest } = lease.spec;
      await this.api.request('PUT', this.path(this.options.name), { ...lease, spec: { ...rest, renewTime: microTime(Date.now()) } });
      this.log.info(`released the status Lease '${this.options.name}'`);
    } catch (err) {
      this.log.warn(`releasing the status Lease '${this.options.name}' failed: ${(err as Error).message}; another replica takes it once it expires`);
    }
  }
}
