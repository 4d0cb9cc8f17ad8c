/**
 * URL-mode elicitations relayed and not yet completed. The person opens the page after the
 * call may well have ended, so the upstream's notifications/elicitation/complete cannot be
 * matched to a call: it is matched to the elicitation. Each one the client sees gets an id of
 * Switchboard's own (an upstream's ids are unique only among its own, and one client hears
 * from many upstreams); the completion goes to that client under that id.
 *
 * Bounded: at most MAX_ROUTES at once (the oldest goes first) and each forgotten after
 * ROUTE_TTL_MS, so an upstream that never completes, or invents ids, holds nothing for long.
 */
import { randomUUID } from 'node:crypto';
import type { ClientChannel } from '../../../kernel/index.js';

export const MAX_ROUTES = 1000;
/** Longer than any sign-in page stays open in practice; a completion after it is dropped. */
export const ROUTE_TTL_MS = 30 * 60_000;

interface Route {
  id: string;
  client: ClientChannel;
  expires: number;
}

export class ElicitationRoutes {
  private readonly routes = new Map<string, Route>();

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.routes.size;
  }

  /** The id `client` is given for the upstream's `upstreamId`, remembered for its completion. */
  open(upstreamId: string, client: ClientChannel): string {
    const now = this.now();
    for (const [key, route] of this.routes) {
      // Insertion order is expiry order: stop at the first one still alive.
      if (route.expires > now && this.routes.size < MAX_ROUTES) break;
      this.routes.delete(key);
    }
    const id = randomUUID();
    this.routes.delete(upstreamId);
    this.routes.set(upstreamId, { id, client, expires: now + ROUTE_TTL_MS });
    return id;
  }

  /** The elicitation will not complete (declined, cancelled, failed): forget it. */
  drop(upstreamId: string): void {
    this.routes.delete(upstreamId);
  }

  /** The upstream says `upstreamId` is complete: whom to tell, under which id (once). */
  complete(upstreamId: string): { id: string; client: ClientChannel } | undefined {
    const route = this.routes.get(upstreamId);
    if (!route) return undefined;
    this.routes.delete(upstreamId);
    return route.expires > this.now() ? { id: route.id, client: route.client } : undefined;
  }
}
