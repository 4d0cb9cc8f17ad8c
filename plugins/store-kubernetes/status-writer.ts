/**
 * What the reconciler observed, written to each MCPServer's status subresource (state,
 * health, tool count, last error, next retry, the restartRequestedAt value last processed as
 * lastRestartedAt) and to each Workflow's (available, the tools it misses). Written only by
 * the replica that holds the status Lease (status-lease.ts), only when it changed, as a merge
 * patch of the status alone (no resourceVersion: a concurrent spec edit cannot make it
 * conflict), debounced so a burst of state changes is one write per resource.
 */
import type { KernelApi, Logger, ResourceKindDefinition } from '../../kernel/index.js';
import { KubeApiError, type KubeApi } from './kube-api.js';
import { SerialQueue } from '../../kernel/index.js';

const DEBOUNCE_MS = 150;

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

  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.flushing.run(() => this.flush());
    }, DEBOUNCE_MS);
    this.timer.unref();
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
    const upstreams = this.kernel.services.find('upstreams');
    const servers = this.kindOf('mcpServers');
    if (upstreams && servers) {
      for (const s of upstreams.list()) {
        await this.write(servers, s.name, {
          state: s.state,
          health: s.health,
          tools: upstreams.toolCount(s.name),
          lastError: s.error ?? null,
          nextRetryAfter: s.nextRetryAfter ?? null,
          lastRestartedAt: this.processed.get(s.name) ?? null,
          observedGeneration: this.options.generationOf(servers.plural, s.name) ?? null,
        });
      }
    }
    const workflows = this.kernel.services.find('workflow-availability');
    const workflowKind = this.kindOf('workflows');
    if (workflows && workflowKind) {
      for (const w of workflows.list()) {
        await this.write(workflowKind, w.name, {
          available: w.available,
          missing: [...w.missing],
          observedGeneration: this.options.generationOf(workflowKind.plural, w.name) ?? null,
        });
      }
    }
  }

  private async write(kind: ResourceKindDefinition, name: string, status: Record<string, unknown>): Promise<void> {
    const key = `${kind.plural}/${name}`;
    const text = JSON.stringify(status);
    // Leadership is checked per write: it can lapse during a flush of many resources.
    if (this.written.get(key) === text || !this.options.mayWrite()) return;
    try {
      await this.api.request('PATCH', this.api.path(kind.plural, name, 'status'), { status }, { contentType: 'application/merge-patch+json' });
      this.written.set(key, text);
      this.warned = false;
    } catch (err) {
      // Deleted meanwhile: nothing to report on. Anything else: said once, tried again on the next change.
      if (err instanceof KubeApiError && err.status === 404) return;
      if (!this.warned) this.log.warn(`writing the status of ${kind.kind} '${name}' failed: ${(err as Error).message}`);
      this.warned = true;
    }
  }
}
