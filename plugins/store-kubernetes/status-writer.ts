/**
 * What the reconciler observed, written to each MCPServer's status subresource: state,
 * health, tool count, last error, next retry and the restartRequestedAt value last processed
 * (lastRestartedAt). Written only when it changed, as a merge patch of the status alone
 * (no resourceVersion: a concurrent spec edit cannot make it conflict), debounced so a burst
 * of state changes is one write per server.
 */
import type { KernelApi, Logger } from '../../kernel/index.js';
import { KubeApiError, type KubeApi } from './kube-api.js';
import { SerialQueue } from '../../kernel/index.js';

const DEBOUNCE_MS = 150;

export class StatusWriter {
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

  private async flush(): Promise<void> {
    const upstreams = this.kernel.services.find('upstreams');
    // The servers' own kind, as the plugin that keeps them registered it (the kernel names none).
    const kind = this.kernel.config.kinds().find((k) => k.snapshotField === 'mcpServers');
    if (!upstreams || !kind) return;
    for (const s of upstreams.list()) {
      const status: Record<string, unknown> = {
        state: s.state,
        health: s.health,
        tools: upstreams.toolCount(s.name),
        lastError: s.error ?? null,
        nextRetryAfter: s.nextRetryAfter ?? null,
        lastRestartedAt: this.processed.get(s.name) ?? null,
      };
      const text = JSON.stringify(status);
      if (this.written.get(s.name) === text) continue;
      try {
        await this.api.request('PATCH', this.api.path(kind.plural, s.name, 'status'), { status }, { contentType: 'application/merge-patch+json' });
        this.written.set(s.name, text);
        this.warned = false;
      } catch (err) {
        // Deleted meanwhile: nothing to report on. Anything else: said once, tried again on the next change.
        if (err instanceof KubeApiError && err.status === 404) continue;
        if (!this.warned) this.log.warn(`writing the status of ${kind.kind} '${s.name}' failed: ${(err as Error).message}`);
        this.warned = true;
      }
    }
  }
}
