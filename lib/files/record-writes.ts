/**
 * The write chains of a store kept as one file per record (execution history, tasks): a
 * record's writes and its removal land in the order they were made, never a removal before a
 * write it would miss, while different records write in parallel. A chain goes once its
 * last write has landed, so the map holds only records with writes in flight.
 */
import { SerialQueue } from '../../kernel/index.js';

export class RecordWrites {
  private readonly chains = new Map<string, SerialQueue>();

  /** `failed` hears a write that did not land (the chain goes on: a later write may repair it). */
  constructor(private readonly failed: (id: string, what: string, err: Error) => void) {}

  /** Runs `op` after the record's earlier writes; `what` names it in the failure. */
  run(id: string, op: () => Promise<unknown>, what: string): Promise<void> {
    let chain = this.chains.get(id);
    if (!chain) this.chains.set(id, (chain = new SerialQueue()));
    const mine = chain;
    const next = mine.run(op).then(
      () => undefined,
      (err: unknown) => this.failed(id, what, err instanceof Error ? err : new Error(String(err))),
    );
    void next.then(() => {
      if (mine.pending === 0 && this.chains.get(id) === mine) this.chains.delete(id);
    });
    return next;
  }

  /** Resolves once every write made so far has landed (shutdown, tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.chains.values()].map((q) => q.idle()));
  }
}
