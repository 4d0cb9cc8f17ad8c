/**
 * What a metrics plugin observes. Metrics are not a service other plugins call: they are
 * taps on the kernel's hooks, so a plugin that exports elsewhere (StatsD, logs) taps the same
 * ones. The payloads below are the contract; `metrics-otel` is one implementation.
 *
 * - `onCallEnd` (this file's CallEnd): every catalogue tool call, ended (call_tool,
 *   call_tools, workflow steps and the workflows themselves), with the REAL tool name.
 * - `onServiceStateChange`: upstream connection states (reconnects are transitions into
 *   `starting` from `failed` or `unreachable`).
 * - `onSessionOpen` / `onSessionClose`: client sessions.
 * - `onConfigLoad` (a reload when `previous` is set) and `onConfigRejected`: configuration.
 * - `onSharedWriteDropped` (this file's SharedWriteDrop): cluster mode, records dropped because
 *   Redis refused writes for longer than a replica's backlog holds.
 */
import type { ToolKind } from '../tools.js';

export type CallOutcome =
  /** The tool answered with a normal result. */
  | 'ok'
  /** The tool answered with an isError result. */
  | 'error_result'
  /** Running it failed (upstream gone, timeout): Switchboard's own error result. */
  | 'error'
  /** It never ran: unknown, outside the toolset, invalid arguments, refused by a tap (rate limit, auth). */
  | 'refused';

export interface CallEnd {
  /** The catalogue name; undefined when the name matched no tool (unbounded input, never a label). */
  tool: string | undefined;
  server: string | undefined;
  kind: ToolKind | undefined;
  outcome: CallOutcome;
  durationMs: number;
  /** The stable error code when Switchboard raised one (TIMEOUT, OUTSIDE_TOOLSET...). */
  errorCode?: string;
}

/**
 * Cluster mode: writes a replica kept while Redis could not take them (out of memory,
 * unreachable) and dropped, oldest first, once its bounded backlog was full.
 */
export interface SharedWriteDrop {
  /** What was dropped: an event of the event log, or a state of a workflow execution record. */
  kind: 'event' | 'execution';
  count: number;
}
