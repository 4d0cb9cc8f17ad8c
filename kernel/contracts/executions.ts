/**
 * Workflow execution history (service `executions`, provided by the workflows plugin):
 * what ran, how each step went. Read by the admin pages; core_workflow_execution_* serve the
 * same records to clients.
 */
export type ExecutionStatus = 'running' | 'completed' | 'failed' | 'cancelled';
/**
 * `pending` and `running` exist only while the execution runs. `tolerated` is found only in
 * records written before the reference result shapes (docs/changelog.md): a failure that
 * allowFailure let the run survive is now `failed` with `tolerated: true`.
 */
export type StepStatus = 'pending' | 'running' | 'completed' | 'failed' | 'tolerated' | 'skipped' | 'cancelled';

/**
 * One entry per step the run reached, in the order of the returned document's `steps`:
 * loop iterations and group members under their plain ids, onFailure steps after the
 * failed one (reference-behaviour.md §7).
 */
export interface StepRecord {
  /** The step's plain id (the name clients look it up by). */
  step_id: string;
  /** The same id, Switchboard's earlier name for it. */
  id: string;
  /** Where it ran, when that says more than the id: `deploy[2].apply` (loop iteration 2), `onFailure.undo`. */
  path?: string;
  /** The tool run, or `forEach` / `parallel` for a loop or a group that has an entry of its own (skipped, or failed before its body ran). */
  tool: string;
  status: StepStatus;
  started_at?: string;
  completed_at?: string;
  duration_ms?: number;
  /** The rendered arguments; `{}` when none were rendered. */
  input?: unknown;
  /** The same, Switchboard's earlier name for it. */
  args?: unknown;
  result?: unknown;
  error?: string;
  /** A failure that allowFailure (of the step, or of its loop or group) let the run survive. */
  tolerated?: true;
}

export interface ExecutionRecord {
  execution_id: string;
  workflow_name: string;
  status: ExecutionStatus;
  started_at: string;
  completed_at?: string;
  duration_ms?: number;
  input: Record<string, unknown>;
  /** Who ran it: the principal key (`person:<sub>`, `local`); its owner for reads. */
  caller?: string;
  /** The caller as people read it (an email, `local`). */
  caller_name?: string;
  result?: unknown;
  error?: string;
  /** The failing step and tool of a failed run, and the upstream's own message. */
  failure?: { step: string; tool: string; message: string };
  steps: StepRecord[];
  /** onFailure steps, in records written before the reference result shapes; they are in `steps` now, with `path: onFailure.<id>`. */
  rollback?: StepRecord[];
}

export interface ExecutionListQuery {
  limit: number;
  offset: number;
  status?: ExecutionStatus;
  workflow_name?: string;
  /** Only the records the asker may read (authorization); applied before paging. */
  visible?: (record: ExecutionRecord) => boolean;
}

export interface ExecutionHistory {
  get(id: string): ExecutionRecord | undefined;
  /** Newest first. */
  list(q: ExecutionListQuery): { executions: ExecutionRecord[]; total: number };
}
