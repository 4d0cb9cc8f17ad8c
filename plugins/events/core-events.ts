/**
 * core_events: the event log, filtered, newest first, its arguments in either spelling
 * (event-arguments.ts). `follow` has two modes: without `follow_seconds` the call answers at
 * once and later events go to the session (session-follow.ts, the reference's); with it the
 * call stays open and every new matching event reaches the caller as a log notification of
 * the call (logger `switchboard.events`, the event as data) until the seconds pass or the
 * client cancels.
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
import { EVENT_ARGUMENTS, readEventArguments } from './event-arguments.js';
import { EVENTS_LOGGER, type SessionFollows } from './session-follow.js';

/**
 * `readable(call)` says which events the caller may read: every event (administrators), or
 * only those it is the actor of (its own runs and operations).
 */
export function coreEventsTool(
  prefix: string,
  log: EventLog,
  follows: SessionFollows,
  readable: (call: CallContext) => ((e: SwitchboardEvent) => boolean) | undefined,
): ToolDefinition {
  const name = coreToolName(prefix, 'core_events');
  return {
    name,
    kind: 'core',
    description:
      'Events of servers, workflows and executions (MCPServerStarted, MCPServerFailed, MCPServerToolsDiscovered, WorkflowExecutionCompleted, WorkflowStepFailed, Denied...), newest first; administrators read every event, others the events of their own runs and operations. Filter by resourceType/resource_type and resourceName/resource_name (a run: resource_type WorkflowExecution with its execution id), eventType/type (Normal or Warning), since/until (RFC 3339 or a duration such as 1h); limit (default 50). follow: true answers at once and pushes each later matching event to the session as a notifications/message (logger switchboard.events) until the session ends or follows again; with follow_seconds the call instead stays open that long, sending them as notifications of the call.',
    annotations: ANNOTATIONS.read,
    inputSchema: { type: 'object', additionalProperties: false, properties: EVENT_ARGUMENTS },
    async invoke(args: JsonObject, call) {
      const { query, follow } = readEventArguments(name, args);
      const visible = readable(call);
      const q: EventQuery = { ...query, ...(visible ? { visible } : {}) };
      if (follow.kind === 'session') {
        const page = await follows.start(call.request.session, q);
        return objectResult({ events: page.events, total: page.total, following: 'session' });
      }
      if (follow.kind === 'none') {
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
        void call.client?.log({ level: e.type === 'Warning' ? 'warning' : 'notice', logger: EVENTS_LOGGER, data: e });
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
        const timer = setTimeout(() => finish('timeout'), follow.seconds * 1000);
        const stopListening = call.cancellation.listen(() => finish('cancelled'));
      });
      return objectResult({ ...out, followed, follow_ended: ended });
    },
  };
}
