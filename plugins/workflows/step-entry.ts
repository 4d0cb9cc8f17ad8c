/**
 * One entry per tool call a run reached (and per loop or group skipped, or failed before its
 * body ran): what the returned document's `steps` show and what the execution record keeps,
 * built once (reference-behaviour.md §1.1, §7). The record's copy of the result may be
 * truncated; the document's never is.
 */
import type { StepRecord } from './execution-record.js';
import type { ConditionReport } from './conditions.js';

export interface StepEntry {
  id: string;
  tool: string;
  status: 'running' | 'completed' | 'skipped' | 'failed' | 'cancelled';
  /** Date.now() when it started. */
  started: number;
  condition?: ConditionReport;
  /** Shown as `allow_failure: true`: the step (or its loop or group) allows failure, or it is an onFailure step. */
  allowFailure: boolean;
  /** Output-enabled: the document shows its `result` (every entry's, with `_debug`). */
  outputEnabled: boolean;
  /** Its result, whole: the tool's, or the failure object (failure-value.ts). */
  value?: unknown;
  error?: string;
  record: StepRecord;
}

/** Where a step's entries go: an array, or the run's sink that also shows them in the live record. */
export type EntrySink = Pick<StepEntry[], 'push'>;

export function newEntry(
  id: string,
  tool: string,
  step: { output: boolean; allowFailure: boolean },
  path?: string,
  rollback = false,
  started = Date.now(),
): StepEntry {
  const record: StepRecord = { step_id: id, id, tool, status: 'running', started_at: new Date(started).toISOString(), input: {} };
  if (path !== undefined) record.path = path;
  return { id, tool, status: 'running', started, allowFailure: step.allowFailure || rollback, outputEnabled: step.output, record };
}

/** The entry as the document shows it; `showResult` for output-enabled steps, or all with `_debug`. */
export function documentEntry(e: StepEntry, showResult: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { id: e.id, tool: e.tool, status: e.status };
  if (e.condition) {
    out.condition_evaluation = e.condition.holds;
    out.condition_tool = e.condition.tool;
    out.condition_result = e.condition.result;
  }
  if (e.allowFailure) out.allow_failure = true;
  if (e.error !== undefined) out.error = e.error;
  if (showResult && e.value !== undefined) out.result = e.value;
  return out;
}
