/**
 * How often an upstream may ask one session's person something (elicitation/create, form or
 * URL mode). Every request reaches a person: an upstream that sends 300 of them in half a
 * second (it was seen) buries the page that matters under 299 that do not, or opens 300
 * browser tabs. So each session gets a token bucket per upstream connection: a burst of
 * ELICITATION_BURST, refilled at that many per ELICITATION_WINDOW_MS; a request beyond it is
 * answered at once with a JSON-RPC error naming the limit, and never reaches the client.
 *
 * Buckets are kept by session object (a WeakMap): a closed session's bucket goes with it.
 */
import type { Session } from '../../../kernel/index.js';

export const ELICITATION_BURST = 5;
export const ELICITATION_WINDOW_MS = 10_000;
/** The JSON-RPC code of the refusal: implementation-defined server error (-32000 to -32099). */
export const ELICITATION_RATE_CODE = -32000;

const REFILL_MS = ELICITATION_WINDOW_MS / ELICITATION_BURST;

interface Bucket {
  tokens: number;
  at: number;
}

export class ElicitationRate {
  private readonly buckets = new WeakMap<Session, Bucket>();

  /** Takes one token for `session`: undefined when the request may go, else the milliseconds until one may. */
  take(session: Session, now = Date.now()): number | undefined {
    const b = this.buckets.get(session) ?? { tokens: ELICITATION_BURST, at: now };
    b.tokens = Math.min(ELICITATION_BURST, b.tokens + (now - b.at) / REFILL_MS);
    b.at = now;
    this.buckets.set(session, b);
    if (b.tokens < 1) return Math.ceil((1 - b.tokens) * REFILL_MS);
    b.tokens -= 1;
    return undefined;
  }
}

/** The error an upstream gets for a request beyond the limit. */
export function rateRefusal(server: string, retryMs: number): { code: number; message: string; data: Record<string, number> } {
  return {
    code: ELICITATION_RATE_CODE,
    message: `Switchboard relays at most ${ELICITATION_BURST} elicitation requests from '${server}' to one session per ${ELICITATION_WINDOW_MS / 1000} s; this one was refused (the next may go in ${retryMs} ms)`,
    data: { limit: ELICITATION_BURST, windowMs: ELICITATION_WINDOW_MS, retryAfterMs: retryMs },
  };
}
