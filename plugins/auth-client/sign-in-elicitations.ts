/**
 * core_auth_login's link offered as a URL-mode elicitation (MCP 2025-11-25) to a client that
 * declared `elicitation.url`, and notifications/elicitation/complete sent to it when the
 * sign-in that link started comes back to the callback.
 *
 * The client is a live session, so it is remembered on this replica only: in cluster mode a
 * callback that lands on another replica signs the person in all the same, but no completion
 * is sent (the client then learns of the sign-in from its tool list, as any client does).
 * Bounded like the tickets: MAX_WAITING at once, each forgotten after WAIT_MS.
 */
import { randomUUID } from 'node:crypto';
import type { ClientChannel, Logger } from '../../kernel/index.js';

export const MAX_WAITING = 1000;
/** The ticket's ten minutes and the flow's ten after the browser started it. */
export const WAIT_MS = 20 * 60_000;

export type Offer = { elicitationId: string; action: 'accept' | 'decline' | 'cancel' } | { failed: string };

export class SignInElicitations {
  private readonly waiting = new Map<string, { client: ClientChannel; expires: number }>();

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `client` is offered the link as a page to open rather than as text. */
  static offered(client: ClientChannel | undefined): client is ClientChannel {
    return client?.capabilities()?.elicitation?.url !== undefined;
  }

  /** A new id for the elicitation about to be offered to `client`; its completion will go there. */
  expect(client: ClientChannel): string {
    const now = this.now();
    for (const [id, w] of this.waiting) {
      // Insertion order is expiry order: stop at the first one still alive.
      if (w.expires > now && this.waiting.size < MAX_WAITING) break;
      this.waiting.delete(id);
    }
    const id = randomUUID();
    this.waiting.set(id, { client, expires: now + WAIT_MS });
    return id;
  }

  /** Asks `client` to open `url` (the elicitation `elicitationId`, from expect); what the person answered. */
  async offer(client: ClientChannel, elicitationId: string, url: string, message: string, signal: AbortSignal): Promise<Offer> {
    try {
      const result = await client.request('elicitation/create', { mode: 'url', elicitationId, url, message }, signal);
      const action = result.action;
      if (action !== 'accept' && action !== 'decline' && action !== 'cancel') throw new Error(`the client answered the action ${JSON.stringify(action)}`);
      // Declined or dismissed: the person may still open the link from the result, but this client asked not to be bothered.
      if (action !== 'accept') this.waiting.delete(elicitationId);
      return { elicitationId, action };
    } catch (err) {
      this.waiting.delete(elicitationId);
      return { failed: (err as Error).message };
    }
  }

  /** The sign-in started under `elicitationId` came back to the callback: tell its client, once. */
  completed(elicitationId: string): void {
    const w = this.waiting.get(elicitationId);
    this.waiting.delete(elicitationId);
    if (!w || w.expires <= this.now()) return;
    void w.client
      .notify('notifications/elicitation/complete', { elicitationId })
      .catch((err: unknown) => this.log.debug(`telling a client its sign-in completed: ${String(err)}`));
  }
}
