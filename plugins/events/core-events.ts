/**
 * core_events: the event log, filtered, newest first; with `follow`, the call stays open and
 * every new matching event reaches the caller as a log notification (logger
 * `switchboard.events`, the event as data) until follow_seconds pass or the client cancels.
 */
import { ANNOTATIONS } from '../../kernel/core-tool.js';
import type { EventLog, EventQuery, SwitchboardEvent } from '../../kernel/contracts/events.js';
import { objectResult } from '../../kernel/mcp/shared/results.js';
import { coreToolName, type CallContext, type JsonObject, type ToolDefinition } from '../../kernel/tools.js';

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
      const page = log.query(q);
      const out: JsonObject = { events: page.events as unknown as JsonObject[], total: page.total };
      if (args.follow !== true) return objectResult(out);
      let followed = 0;
      const matches = (e: SwitchboardEvent) =>
        (!visible || visible(e)) &&
        (!q.resourceType || e.resource.type === q.resourceType) &&
        (!q.resourceName || e.resource.name === q.resourceName) &&
        (!q.type || e.type === q.type);
      const ended = await new Promise<'timeout' | 'cancelled'>((resolve) => {
        const unsubscribe = log.subscribe((e) => {
          if (!matches(e)) return;
          followed++;
          void call.client?.log({ level: e.type === 'Warning' ? 'warning' : 'notice', logger: 'switchboard.events', data: e });
        });
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
