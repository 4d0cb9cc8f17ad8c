/**
 * What the bounded backlogs (write-backlog.ts) dropped, said twice: at once to the metrics
 * (kernel hook onSharedWriteDropped), and as one event once Redis takes writes again (the
 * event log could not hold it before), so an operator reading core_events sees the gap.
 */
import type { KernelHooks, SharedWriteDrop } from '../../kernel/index.js';
import type { RedisEventJournals } from './event-journal.js';

export class WriteLosses {
  private readonly unreported: Record<SharedWriteDrop['kind'], number> = { event: 0, execution: 0 };
  journals: RedisEventJournals | undefined;

  constructor(
    private readonly hooks: KernelHooks,
    private readonly replica: string,
  ) {}

  dropped(kind: SharedWriteDrop['kind'], count: number): void {
    this.unreported[kind] += count;
    if (this.hooks.onSharedWriteDropped.isUsed()) this.hooks.onSharedWriteDropped.call({ kind, count });
  }

  /** A backlog emptied: what was dropped since the last report is recorded as one event. */
  resumed(): void {
    const { event, execution } = this.unreported;
    const journal = this.journals?.current;
    if (event + execution === 0 || !journal) return;
    this.unreported.event = 0;
    this.unreported.execution = 0;
    journal.append({
      time: new Date().toISOString(),
      type: 'Warning',
      reason: 'SharedStateWritesDropped',
      resource: { type: 'Aggregator', name: 'aggregator' },
      message: `replica ${this.replica}: Redis refused writes for longer than this replica could keep them; ${event} events and ${execution} execution record states were dropped (oldest first)`,
    });
  }
}
