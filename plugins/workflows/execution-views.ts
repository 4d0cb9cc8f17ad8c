/**
 * What core_workflow_execution_get and _list show of a record (reference-behaviour.md §7):
 * the whole record, the record without any step id, one step alone, or a list summary.
 * Arguments are checked here, in the words clients match on.
 */
import { SwitchboardError, type ExecutionRecord, type JsonObject } from '../../kernel/index.js';
import type { ExecutionStatus, StepRecord } from './execution-record.js';

export const STATUSES = ['running', 'inprogress', 'completed', 'failed', 'cancelled'] as const;
export const MAX_LIMIT = 1000;

function invalid(tool: string, message: string): SwitchboardError {
  return new SwitchboardError('INVALID_ARGUMENTS', `Invalid arguments for '${tool}': ${message}`, { name: tool, problems: [{ path: '', message }] });
}

export interface GetQuery {
  executionId: string;
  includeSteps: boolean;
  stepId?: string;
  summary: boolean;
}

export function getQuery(tool: string, a: JsonObject): GetQuery {
  if (typeof a.execution_id !== 'string' || a.execution_id === '') throw invalid(tool, 'execution_id is required');
  if (a.include_steps !== undefined && typeof a.include_steps !== 'boolean') throw invalid(tool, 'include_steps must be a boolean value');
  if (a.step_id === null) throw invalid(tool, 'step_id cannot be null');
  if (a.step_id === '') throw invalid(tool, 'step_id is invalid: cannot be empty');
  if (a.step_id !== undefined && typeof a.step_id !== 'string') throw invalid(tool, 'step_id must be a string value');
  if (a.summary !== undefined && typeof a.summary !== 'boolean') throw invalid(tool, 'summary must be a boolean value');
  return {
    executionId: a.execution_id,
    includeSteps: a.include_steps !== false,
    ...(a.step_id !== undefined ? { stepId: a.step_id } : {}),
    summary: a.summary === true,
  };
}

export function executionNotFound(id: string): SwitchboardError {
  return new SwitchboardError('NOT_FOUND', `execution ${id} not found`, { kind: 'execution', name: id });
}

/** The timings and identity every view starts with. */
function head(r: ExecutionRecord): JsonObject {
  const out: JsonObject = { execution_id: r.execution_id, workflow_name: r.workflow_name, status: r.status, started_at: r.started_at };
  // A run_code script's run (code mode) says so; a workflow's carries no kind, as before.
  if (r.kind !== undefined) out.kind = r.kind;
  if (r.completed_at !== undefined) out.completed_at = r.completed_at;
  if (r.duration_ms !== undefined) out.duration_ms = r.duration_ms;
  return out;
}

/** A step found by its plain id or its qualified path (`loop[2].sub`, `onFailure.undo`), first match; older records' `rollback` too. */
function findStep(r: ExecutionRecord, stepId: string): StepRecord | undefined {
  const all = r.rollback ? [...r.steps, ...r.rollback] : r.steps;
  return all.find((s) => s.step_id === stepId || s.id === stepId || s.path === stepId);
}

export function executionView(r: ExecutionRecord, q: GetQuery): JsonObject {
  if (q.stepId !== undefined) {
    const step = findStep(r, q.stepId);
    if (!step) throw new SwitchboardError('NOT_FOUND', `step not found: '${q.stepId}' in execution ${r.execution_id}`, { kind: 'step', name: q.stepId });
    // Nothing about the other steps: not the run's result, not its failure.
    const failed = step.status === 'failed';
    return { ...head(r), input: failed ? r.input : {}, ...(failed && step.error !== undefined ? { error: step.error } : {}), steps: [step] };
  }
  const { steps, rollback, result, error, ...rest } = r;
  const out: JsonObject = { ...rest };
  if (r.status === 'completed' && result !== undefined) out.result = result;
  if (error !== undefined) out.error = error;
  if (!q.includeSteps) {
    // No step id anywhere: not in steps, not in the result's steps or template_vars, not in the failure.
    delete out.failure;
    if (out.result && typeof out.result === 'object' && !Array.isArray(out.result)) {
      const { steps: _s, template_vars: _t, ...doc } = out.result as Record<string, unknown>;
      out.result = doc;
    }
    return out;
  }
  if (q.summary) {
    const brief = (list: StepRecord[]) => list.map(({ args: _args, input: _input, result: _result, ...s }) => s);
    out.steps = brief(steps);
    if (rollback) out.rollback = brief(rollback);
    delete out.result;
    return out;
  }
  out.steps = steps;
  if (rollback) out.rollback = rollback;
  return out;
}

export interface ListArgs {
  limit: number;
  offset: number;
  status?: ExecutionStatus;
  workflow_name?: string;
}

export function listArgs(tool: string, a: JsonObject): ListArgs {
  const limit = a.limit ?? 50;
  const offset = a.offset ?? 0;
  if (typeof limit !== 'number' || !Number.isFinite(limit)) throw invalid(tool, 'limit must be a number value');
  if (limit < 1) throw invalid(tool, 'limit must be at least 1 (minimum value)');
  if (limit > MAX_LIMIT) throw invalid(tool, `limit must be at most ${MAX_LIMIT} (maximum value)`);
  if (typeof offset !== 'number' || !Number.isFinite(offset)) throw invalid(tool, 'offset must be a number value');
  if (offset < 0) throw invalid(tool, 'offset must be at least 0 (minimum value)');
  const out: ListArgs = { limit: Math.floor(limit), offset: Math.floor(offset) };
  if (a.status !== undefined && a.status !== '') {
    if (typeof a.status !== 'string' || !(STATUSES as readonly string[]).includes(a.status))
      throw invalid(tool, `status must be one of the enum values: ${STATUSES.join(', ')}`);
    // `inprogress` is the reference's name for a running execution.
    out.status = (a.status === 'inprogress' ? 'running' : a.status) as ExecutionStatus;
  }
  if (a.workflow_name !== undefined && a.workflow_name !== '') {
    if (typeof a.workflow_name !== 'string') throw invalid(tool, 'workflow_name must be a string value');
    out.workflow_name = a.workflow_name;
  }
  return out;
}

/** A list entry: no input or result, whose contents would make a filtered list mention other workflows. */
export function listSummary(r: ExecutionRecord): JsonObject {
  return { ...head(r), step_count: r.steps.length, ...(r.error !== undefined ? { error: r.error } : {}) };
}
