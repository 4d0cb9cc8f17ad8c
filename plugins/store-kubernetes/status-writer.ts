/**
 * What the reconciler observed, written to each MCPServer's status subresource (state,
 * health, tool count, last error, next retry, the restartRequestedAt value last processed as
 * lastRestartedAt) and to each Workflow's (available, the tools it misses). Written only by
 * the replica that holds the status Lease (status-lease.ts), only when it changed, as a merge
 * patch of the status alone (no resourceVersion: a concurrent spec edit cannot make it
 * conflict), debounced so a burst of state changes is one write per resource. A write the
 * API server refuses (other than for a resource deleted meanwhile) is tried again on its own,
 * backing off from 1 s to 30 s: a state that changes no more would otherwise stay stale until
 * the next change, which may never come.
 */
import type { KernelApi, Logger, ResourceKindDefinition } from '../../kernel/index.js';
import { KubeApiError, type KubeApi } from './kube-api.js';
import { SerialQueue } from '../../kernel/index.js';

const DEBOUNCE_MS = 150;
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

export interface StatusWriterOptions {
  /** metadata.generation of a resource as the store last read it. */
  readonly generationOf: (plural: string, name: string) => number | undefined;
  /** Whether this replica may write status now (it holds the Lease). */
  readonly mayWrite: () => boolean;
}

export class StatusWriter {
  /** What was last written, by `plural/name`: a write that would change nothing is skipped. */
  private readonly written = new Map<string, string>();
  /** The restartRequestedAt value processed per server (the reconciler acted on it). */
  private readonly processed = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly flushing = new SerialQueue();
  private warned = false;
  /** How long after a flush with a failed write it is tried again (doubles up to RETRY_MAX_MS). */
  private retryMs = RETRY_FIRST_MS;
  private closed = false;

  constructor(
    private readonly kernel: KernelApi,
    private readonly api: KubeApi,
    private readonly log: Logger,
    private readonly options: StatusWriterOptions,
  ) {}

  attach(): void {
    this.kernel.hooks.onServiceStateChange.tap('store-kubernetes', () => this.schedule());
    this.kernel.hooks.onCatalogueChange.tap('store-kubernetes', () => this.schedule());
    // After upstreams reconciled a snapshot, every restartRequestedAt in it has been acted on.
    this.kernel.hooks.onConfigLoad.tap({ name: 'store-kubernetes', stage: 10 }, (next) => {
      for (const [name, { value }] of next.mcpServers) if (value.restartRequestedAt) this.processed.set(name, value.restartRequestedAt);
      for (const name of [...this.processed.keys()]) if (!next.mcpServers.has(name)) this.processed.delete(name);
      this.schedule();
    });
  }

  /**
   * This replica just became the writer: what the previous one wrote may not be what this one
   * sees (each replica has its own connections), so every status is written again.
   */
  rewriteAll(): void {
    this.written.clear();
    this.schedule();
  }

  schedule(delayMs = DEBOUNCE_MS): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flushing.run(() => this.flush());
    }, delayMs);
    this.timer.unref();
  }

  /** No more writes, also none tried again (the replica stops). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Resolves once what is scheduled now has been written. */
  async settled(): Promise<void> {
    await this.flushing.idle();
  }

  /** The plugin's kind that fills a snapshot field (the kernel names none: plugins register them). */
  private kindOf(field: 'mcpServers' | 'workflows'): ResourceKindDefinition | undefined {
    return this.kernel.config.kinds().find((k) => k.snapshotField === field);
  }

  private async flush(): Promise<void> {
    if (!this.options.mayWrite()) return;
    if (await this.writeAll()) {
      this.retryMs = RETRY_FIRST_MS;
      return;
    }
    // A change scheduled meanwhile flushes sooner, and that flush tries the failed writes too.
    if (this.timer === undefined) this.schedule(this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  /** Whether every write landed (or had nothing to write). */
  private async writeAll(): Promise<boolean> {
    let landed = true;
    const upstreams = this.kernel.services.find('upstreams');
    const servers = this.kindOf('mcpServers');
    if (upstreams && servers) {
      for (const s of upstreams.list()) {
        landed =
          (await this.write(servers, s.name, {
            state: s.state,
            health: s.health,
            tools: upstreams.toolCount(s.name),
            lastError: s.error ?? null,
            nextRetryAfter: s.nextRetryAfter ?? null,
            lastRestartedAt: this.processed.get(s.name) ?? null,
            observedGeneration: this.options.generationOf(servers.plural, s.name) ?? null,
          })) && landed;
      }
    }
    const workflows = this.kernel.services.find('workflow-availability');
    const workflowKind = this.kindOf('workflows');
    if (workflows && workflowKind) {
      for (const w of workflows.list()) {
        landed =
          (await this.write(workflowKind, w.name, {
            available: w.available,
            missing: [...w.missing],
            observedGeneration: this.options.generationOf(workflowKind.plural, w.name) ?? null,
          })) && landed;
      }
    }
    return landed;
  }

  /** False when the API server refused the write (it is to be tried again). */
  private async write(kind: ResourceKindDefinition, name: string, status: Record<string, unknown>): Promise<boolean> {
    const key = `${kind.plural}/${name}`;
    const text = JSON.stringify(status);
    // Leadership is checked per write: it can lapse during a flush of many resources.
    if (this.written.get(key) === text || !this.options.mayWrite()) return true;
    try {
      await this.api.request('PATCH', this.api.path(kind.plural, name, 'status'), { status }, { contentType: 'application/merge-patch+json' });
      this.written.set(key, text);
      this.warned = false;
      return true;
    } catch (err) {
      // Deleted meanwhile: nothing to report on. Anything else: said once, tried again (flush).
      if (err instanceof KubeApiError && err.status === 404) return true;
      if (!this.warned) this.log.warn(`writing the status of ${kind.kind} '${name}' failed: ${(err as Error).message}`);
      this.warned = true;
      return false;
    }
  }
}
