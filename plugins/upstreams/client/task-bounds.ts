/**
 * What an upstream may say about its own task, and what Switchboard does with it. The
 * upstream picks its task's id and the interval it would like to be polled at; neither may
 * make Switchboard spin, wait without end, or hold an unbounded string (decisions.md).
 */
import { SwitchboardError } from '../../../kernel/index.js';

/** Polling faster than this is spinning: an upstream asking for 0 ms gets this. */
export const POLL_FLOOR_MS = 100;
/** Polling slower than this would leave a finished task unnoticed for long: an upstream asking for an hour gets this. */
export const POLL_CEILING_MS = 5_000;
/** When the upstream suggests no interval. */
export const POLL_DEFAULT_MS = 1_000;
/** An upstream task id longer than this is refused: it is kept in records and echoed in messages. */
export const TASK_ID_MAX = 256;

/** The interval to wait before the next tasks/get: the upstream's wish, held between floor and ceiling. */
export function pollInterval(suggested: unknown): number {
  if (typeof suggested !== 'number' || !Number.isFinite(suggested)) return POLL_DEFAULT_MS;
  return Math.min(POLL_CEILING_MS, Math.max(POLL_FLOOR_MS, suggested));
}

/** The upstream answered a task request with something that is not one (no id, an id too long, an unknown status). */
export class UpstreamTaskError extends SwitchboardError {
  constructor(server: string, problem: string) {
    super('UPSTREAM_ERROR', `Server '${server}' answered a task request wrongly: ${problem}`, { server });
  }
}

/** The upstream's task id, checked as opaque data: a non-empty string of at most TASK_ID_MAX characters. */
export function upstreamTaskId(server: string, created: unknown): string {
  const task = (created as { task?: unknown } | undefined)?.task;
  if (typeof task !== 'object' || task === null)
    throw new UpstreamTaskError(server, 'it answered the task-augmented tools/call with neither a task nor a tool result (no `task`, no `content` list)');
  const id = (task as { taskId?: unknown }).taskId;
  if (typeof id !== 'string' || id.length === 0) throw new UpstreamTaskError(server, 'the created task has no taskId');
  if (id.length > TASK_ID_MAX) throw new UpstreamTaskError(server, `the task id is ${id.length} characters long (at most ${TASK_ID_MAX})`);
  return id;
}

export type UpstreamTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
const STATUSES: ReadonlySet<string> = new Set<UpstreamTaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** A task's state as tasks/get or a status notification reports it; anything else is refused. */
export interface UpstreamTaskState {
  status: UpstreamTaskStatus;
  statusMessage?: string;
  pollInterval?: number;
}

/** Status messages are mirrored to the caller's task: at most this many characters of them. */
const MESSAGE_MAX = 1_000;

export function taskState(server: string, raw: unknown): UpstreamTaskState {
  const r = raw as { status?: unknown; statusMessage?: unknown; pollInterval?: unknown } | undefined;
  if (typeof r?.status !== 'string' || !STATUSES.has(r.status)) throw new UpstreamTaskError(server, `unknown task status "${String(r?.status).slice(0, 40)}"`);
  const state: UpstreamTaskState = { status: r.status as UpstreamTaskStatus };
  if (typeof r.statusMessage === 'string') state.statusMessage = r.statusMessage.slice(0, MESSAGE_MAX);
  if (typeof r.pollInterval === 'number') state.pollInterval = r.pollInterval;
  return state;
}
