/**
 * core_events: the event log, filtered, newest first; with `follow`, the call stays open and
 * every new matching event reaches the caller as a log notification (logger
 * `switchboard.events`, the event as data) until follow_seconds pass or the client cancels.
 */
import {
  ANNOTATIONS,
  coreToolName,
  objectResult,
  type CallContext,
  type EventLog,
  type EventQuery,
  type JsonObject,
  type SwitchboardEvent,
  type ToolDefinition,
} from '../../kernel/index.js';
import { eventMatches } from '../../lib/events/event-query.js';

const RESOURCE_TYPES = ['MCPServer', 'Workflow', 'WorkflowExecution', 'Aggregator', 'Tool'];

function isoOrUndefined(v: unknown): string | undefined {
  return typeof v === 'string' ? new Date(v).toISOString() : undefined;
}

/**
 * `readable(call)` says which events the caller may read: every event (administrators), or
 * only those it is the actor of (its own runs and operations).
 */
export function coreEventsTool(prefix: string, log: EventLog, readable: (call: CallContext) => ((e: SwitchboardEvent) => boolean) | undefined): ToolDefinition {
  return {
    name: coreToolName(prefix, 'core_events'),
    kind: 'core',
    description:
      'Events of servers, workflows and executions (created, started, failed, recovered, tools discovered, execution completed, denied...), newest first; administrators read every event, others the events of their own runs and operations. Filter by resource_type and resource_name, type (Normal or Warning), since/until; limit (default 50). follow: true keeps the call open and sends each new matching event as a notifications/message (logger switchboard.events) for follow_seconds.',
    annotations: ANNOTATIONS.read,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        resource_type: { enum: RESOURCE_TYPES },
        resource_name: { type: 'string', minLength: 1 },
        type: { enum: ['Normal', 'Warning'] },
        since: { type: 'string', format: 'date-time', description: 'Only events at or after this time (RFC 3339).' },
        until: { type: 'string', format: 'date-time', description: 'Only events at or before this time (RFC 3339).' },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 50 },
        follow: { type: 'boolean', default: false },
        follow_seconds: { type: 'number', exclusiveMinimum: 0, maximum: 3600, default: 60, description: 'How long a follow lasts.' },
      },
    },
    async invoke(args: JsonObject, call) {
      const visible = readable(call);
      const q: EventQuery = {
        limit: args.limit as number,
        ...(visible ? { visible } : {}),
        ...(args.resource_type ? { resourceType: args.resource_type as EventQuery['resourceType'] } : {}),
        ...(args.resource_name ? { resourceName: args.resource_name as string } : {}),
        ...(args.type ? { type: args.type as EventQuery['type'] } : {}),
        ...(args.since ? { since: isoOrUndefined(args.since)! } : {}),
        ...(args.until ? { until: isoOrUndefined(args.until)! } : {}),
      };
      if (args.follow !== true) {
        const page = await log.query(q);
        return objectResult({ events: page.events, total: page.total });
      }
      // Listening starts before the query, so an event recorded while the (possibly shared)
      // log answers is followed once: those the answer holds are not sent again.
      const { since: _since, until: _until, limit: _limit, ...filters } = q;
      let followed = 0;
      let seenUpTo = -1;
      const early: SwitchboardEvent[] = [];
      const send = (e: SwitchboardEvent) => {
        if (e.id <= seenUpTo) return;
        followed++;
        void call.client?.log({ level: e.type === 'Warning' ? 'warning' : 'notice', logger: 'switchboard.events', data: e });
      };
      let answered = false;
      const unsubscribe = log.subscribe((e) => {
        if (!eventMatches(filters, e)) return;
        if (answered) send(e);
        else early.push(e);
      });
      let page;
      try {
        page = await log.query(q);
      } catch (err) {
        unsubscribe();
        throw err;
      }
      const out: JsonObject = { events: page.events, total: page.total };
      seenUpTo = page.events[0]?.id ?? -1;
      answered = true;
      for (const e of early) send(e);
      const ended = await new Promise<'timeout' | 'cancelled'>((resolve) => {
        const finish = (why: 'timeout' | 'cancelled') => {
          clearTimeout(timer);
          stopListening();
          unsubscribe();
          resolve(why);
        };
        const timer = setTimeout(() => finish('timeout'), (args.follow_seconds as number) * 1000);
        const stopListening = call.cancellation.listen(() => finish('cancelled'));
      });
      return objectResult({ ...out, followed, follow_ended: ended });
    },
  };
}
