/**
 * How a task that will never be finished by its runner ends (its process stopped, or the
 * replica running it died), the same wherever that is found: a workflow's task as its
 * execution record says (the run is the task), any other `failed` with the reason given.
 */
import type { CallToolResult } from '#mcp-sdk/types.js';
import { errorResult, objectResult, SwitchboardError, type ExecutionRecord, type TaskRecord, type TerminalTaskStatus } from '../../kernel/index.js';

export interface TaskEnd {
  status: TerminalTaskStatus;
  result: CallToolResult;
  message: string;
}

/** `run`: the workflow task's execution record, when there is one; `reason`: why any other task ends. */
export function interruptedTaskEnd(r: TaskRecord, run: ExecutionRecord | undefined, reason: string): TaskEnd {
  if (r.kind !== 'workflow') run = undefined;
  if (run?.status === 'completed' && typeof run.result === 'object' && run.result !== null)
    return { status: 'completed', result: objectResult(run.result as Record<string, unknown>), message: 'completed' };
  if (run?.status === 'cancelled')
    return { status: 'cancelled', result: errorResult(new SwitchboardError('CANCELLED', run.error ?? 'cancelled')), message: run.error ?? 'cancelled' };
  const message = run?.error ?? reason;
  return { status: 'failed', result: errorResult(new SwitchboardError(run ? 'WORKFLOW_FAILED' : 'INTERNAL', message, { task_id: r.taskId })), message };
}
