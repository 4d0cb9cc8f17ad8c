/**
 * core_events' arguments in both spellings: Switchboard's snake_case and the reference's
 * camelCase (`resourceType`, `resourceName`, `eventType` for `type`), with `since`/`until`
 * as an RFC 3339 time or a Go duration meaning "that long ago" (reference-behaviour.md §10).
 * Read once per call, before the log is touched, so a bad argument never opens a follow.
 */
import { parseDuration } from '#gotpl/duration';
import { SwitchboardError, type EventQuery, type JsonObject } from '../../kernel/index.js';

/** Each argument's two spellings: [snake_case, camelCase]. */
const SPELLINGS = [
  ['resource_type', 'resourceType'],
  ['resource_name', 'resourceName'],
  ['type', 'eventType'],
] as const;

/** Long enough for any resource name or reason; a longer value is a mistake or an attack. */
const MAX_TEXT = 256;
/** An RFC 3339 date-time as the reference writes it; `Date.parse` alone also takes looser forms. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

const text = { type: 'string', minLength: 1, maxLength: MAX_TEXT } as const;
const time = (what: string) =>
  ({ type: 'string', minLength: 1, maxLength: 64, description: `${what} (RFC 3339), or a duration such as 1h or 30m meaning that long ago.` }) as const;

/** The input schema's properties: both spellings of each, so a client finds either in tools/list. */
export const EVENT_ARGUMENTS = {
  resource_type: { ...text, description: 'MCPServer, Workflow, WorkflowExecution, Aggregator or Tool; any other matches nothing.' },
  resourceType: { ...text, description: 'Alias of resource_type.' },
  resource_name: { ...text, description: 'The resource name; with WorkflowExecution, the execution id.' },
  resourceName: { ...text, description: 'Alias of resource_name.' },
  namespace: { ...text, description: 'Accepted for compatibility; Switchboard serves one namespace, so it does not filter.' },
  type: { ...text, description: 'Normal or Warning; any other matches nothing.' },
  eventType: { ...text, description: 'Alias of type.' },
  since: time('Only events at or after this time'),
  until: time('Only events at or before this time'),
  limit: { type: 'integer', minimum: 1, maximum: 1000, default: 50 },
  follow: {
    type: 'boolean',
    default: false,
    description: 'Without follow_seconds: answer at once, then push each new matching event to the session until it ends or follows again.',
  },
  follow_seconds: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 3600,
    description: 'With follow: keep this call open this long, sending each new matching event as a notification of the call.',
  },
} as const;

export type FollowMode = { kind: 'none' } | { kind: 'session' } | { kind: 'bounded'; seconds: number };

export interface EventArguments {
  query: EventQuery;
  follow: FollowMode;
}

function invalid(tool: string, argument: string, message: string): SwitchboardError {
  return new SwitchboardError('INVALID_ARGUMENTS', `Invalid arguments for '${tool}': ${argument} ${message}`, {
    name: tool,
    problems: [{ path: `/${argument}`, message }],
  });
}

/** `since`/`until` as an ISO time: given as one, or as a duration before `now`. */
function instant(tool: string, argument: string, value: string, now: number): string {
  if (RFC3339.test(value)) {
    const t = Date.parse(value);
    if (!Number.isNaN(t)) return new Date(t).toISOString();
  } else {
    try {
      const at = new Date(now - Number(parseDuration(value) / 1_000_000n));
      if (!Number.isNaN(at.getTime())) return at.toISOString();
    } catch {
      // Neither form: said below, with the value.
    }
  }
  throw invalid(tool, argument, `must be an RFC 3339 time (2026-01-02T15:04:05Z) or a duration such as 1h (that long ago); it is ${JSON.stringify(value)}`);
}

/** Arguments already checked against EVENT_ARGUMENTS (types, bounds, unknown names). */
export function readEventArguments(tool: string, args: JsonObject, now = Date.now()): EventArguments {
  const chosen: Partial<Record<(typeof SPELLINGS)[number][0], string>> = {};
  for (const [snake, camel] of SPELLINGS) {
    const a = args[snake] as string | undefined;
    const b = args[camel] as string | undefined;
    // Both spellings of one argument that disagree: neither is guessed to win.
    if (a !== undefined && b !== undefined && a !== b)
      throw invalid(tool, camel, `is ${JSON.stringify(b)} but ${snake} is ${JSON.stringify(a)}: give one of the two spellings, or the same value`);
    const v = a ?? b;
    if (v !== undefined) chosen[snake] = v;
  }
  const at = (argument: 'since' | 'until'): string | undefined => {
    const v = args[argument];
    return typeof v === 'string' ? instant(tool, argument, v, now) : undefined;
  };
  const since = at('since');
  const until = at('until');
  const query: EventQuery = {
    limit: (args.limit as number | undefined) ?? 50,
    ...(chosen.resource_type !== undefined ? { resourceType: chosen.resource_type } : {}),
    ...(chosen.resource_name !== undefined ? { resourceName: chosen.resource_name } : {}),
    ...(chosen.type !== undefined ? { type: chosen.type } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
  };
  const seconds = args.follow_seconds as number | undefined;
  const follow: FollowMode = args.follow !== true ? { kind: 'none' } : seconds === undefined ? { kind: 'session' } : { kind: 'bounded', seconds };
  return { query, follow };
}
