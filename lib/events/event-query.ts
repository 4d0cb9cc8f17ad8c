/**
 * One answer to an EventQuery over events held oldest first, whatever journal holds them (the
 * events plugin's memory, a Redis stream), so every journal filters and pages alike.
 */
import type { EventPage, EventQuery, SwitchboardEvent } from '../../kernel/index.js';

/** The query's filters without its limit: also what a follower checks each new event against. */
export function eventMatches(q: Omit<EventQuery, 'limit'>, e: SwitchboardEvent): boolean {
  return (
    (!q.resourceType || e.resource.type === q.resourceType) &&
    (!q.resourceName || e.resource.name === q.resourceName) &&
    (!q.type || e.type === q.type) &&
    (!q.since || e.time >= q.since) &&
    (!q.until || e.time <= q.until) &&
    (!q.visible || q.visible(e))
  );
}

/** Newest first, at most `limit`; `visible` is applied before the limit, so `total` counts only what the asker may read. */
export function queryEvents(events: readonly SwitchboardEvent[], q: EventQuery): EventPage {
  const matched = events.filter((e) => eventMatches(q, e));
  return { events: matched.slice(-q.limit).reverse(), total: matched.length };
}
