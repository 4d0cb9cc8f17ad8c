/**
 * One answer to an EventQuery over events held oldest first, whatever journal holds them (the
 * events plugin's memory, a Redis stream), so every journal filters and pages alike.
 */
import type { EventPage, EventQuery, SwitchboardEvent } from '../../kernel/index.js';

/** The query's filters without its limit: also what a follower checks each new event against. */
export function eventMatches(q: Omit<EventQuery, 'limit'>, e: SwitchboardEvent): boolean {
  return (
    resourceMatches(q, e) &&
    (!q.type || e.type === q.type) &&
    (!q.since || e.time >= q.since) &&
    (!q.until || e.time <= q.until) &&
    (!q.visible || q.visible(e))
  );
}

/**
 * Runs are filed under their workflow (reference-behaviour.md §10); `WorkflowExecution` stays a
 * way to ask for a run: the events carrying its id, and the audit entries about it (which are
 * filed under `WorkflowExecution`/<id> because an authorization decision names the run only).
 */
function resourceMatches(q: Pick<EventQuery, 'resourceType' | 'resourceName'>, e: SwitchboardEvent): boolean {
  if (q.resourceType === 'WorkflowExecution') {
    const id = e.execution_id ?? (e.resource.type === 'WorkflowExecution' ? e.resource.name : undefined);
    return id !== undefined && (!q.resourceName || id === q.resourceName);
  }
  return (!q.resourceType || e.resource.type === q.resourceType) && (!q.resourceName || e.resource.name === q.resourceName);
}

/** Newest first, at most `limit`; `visible` is applied before the limit, so `total` counts only what the asker may read. */
export function queryEvents(events: readonly SwitchboardEvent[], q: EventQuery): EventPage {
  const matched = events.filter((e) => eventMatches(q, e));
  return { events: matched.slice(-q.limit).reverse(), total: matched.length };
}
