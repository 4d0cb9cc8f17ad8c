/**
 * Resource subscriptions to a 2026-07-28 upstream, which has no resources/subscribe: the URIs
 * are named in a `subscriptions/listen` request's `resourceSubscriptions`, and the server sends
 * `notifications/resources/updated` for them on that stream until it ends. A listen's filter is
 * fixed when it is opened, so Switchboard holds **one** resource listen per connection naming
 * every URI watched, and replaces it when the set changes: the new one is opened (and
 * acknowledged) before the old one is closed, so no update falls between them; an update heard
 * on both at that moment reaches the sessions twice, which costs them a re-read. Changes made
 * while a replacement is being opened are gathered into the next one. The updates reach the
 * v2 client's notification handler (modern-upstream.ts), whichever listen carried them.
 *
 * A URI the server's acknowledgement leaves out is refused to its subscriber. When the
 * server ends a listen that lasted (a proxy cut an idle stream), it is opened again; one that
 * ends within REOPEN_AFTER_MS, or that cannot be opened again, makes the connection again
 * (`lost`), as the list-change listen's end does: never a loop of listens.
 */
import type { Client as ModernClient, McpSubscription } from '@modelcontextprotocol/client';

/** A listen the server ended sooner than this after it was acknowledged is not opened again. */
export const REOPEN_AFTER_MS = 5_000;

export class ModernResourceListen {
  private readonly uris = new Set<string>();
  private current: McpSubscription | undefined;
  /** The replacement waiting for its turn, which later changes join. */
  private queued: Promise<readonly string[]> | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    /** Only its listen(): a fake stands in for it in test/unit/modern-resource-listen.test.ts. */
    private readonly client: Pick<ModernClient, 'listen'>,
    private readonly timeoutMs: number,
    /** The listen could not be opened again after the server ended it. */
    private readonly lost: () => void,
  ) {}

  /** Watches `uri` (resolves once the server acknowledged it) or stops watching it. */
  async set(uri: string, on: boolean): Promise<void> {
    if (on === this.uris.has(uri)) return;
    if (on) this.uris.add(uri);
    else this.uris.delete(uri);
    let honored: readonly string[];
    try {
      honored = await this.replace();
    } catch (err) {
      if (on) this.uris.delete(uri);
      throw err;
    }
    if (on && !honored.includes(uri)) {
      this.uris.delete(uri);
      throw new Error(`the server did not acknowledge a subscription to '${uri}'`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const open = this.current;
    this.current = undefined;
    await open?.close().catch(() => undefined);
  }

  /** Schedules a listen naming the URIs as they are when its turn comes; resolves to what the server acknowledged. */
  private replace(): Promise<readonly string[]> {
    if (this.queued) return this.queued;
    const next = this.turn.then(() => {
      this.queued = undefined;
      return this.open();
    });
    this.queued = next;
    this.turn = next.catch(() => undefined);
    return next;
  }

  private async open(): Promise<readonly string[]> {
    const previous = this.current;
    const uris = [...this.uris];
    if (this.closed || uris.length === 0) {
      this.current = undefined;
      await previous?.close().catch(() => undefined);
      return [];
    }
    const listen = await this.client.listen({ resourceSubscriptions: uris }, { timeout: this.timeoutMs });
    const since = Date.now();
    this.current = listen;
    await previous?.close().catch(() => undefined);
    void listen.closed.then((how) => {
      if (how === 'local' || this.current !== listen || this.closed) return;
      if (Date.now() - since < REOPEN_AFTER_MS) return this.lost();
      this.replace().catch(() => this.lost());
    });
    return listen.honoredFilter.resourceSubscriptions ?? [];
  }
}
