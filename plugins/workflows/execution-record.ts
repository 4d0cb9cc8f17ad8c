/** The persisted record of one workflow run (decisions.md, "Workflows"). */
export type ExecutionStatus = 'running' | 'completed' | 'failed' | 'cancelled';
/**
 * `pending` and `running` exist only while the execution runs; `tolerated` is a failure
 * that allowFailure let the run survive.
 */
export type StepStatus = 'pending' | 'running' | 'completed' | 'failed' | 'tolerated' | 'skipped' | 'cancelled';

export interface StepRecord {
  /** The step's id; `deploy[2].apply` for a loop body's step in iteration 2. */
  id: string;
  /** The tool run, or `forEach` / `parallel` for a loop or a group. */
  tool: string;
  status: StepStatus;
  started_at?: string;
  completed_at?: string;
  duration_ms?: number;
  args?: unknown;
  result?: unknown;
  error?: string;
}

export interface ExecutionRecord {
  execution_id: string;
  workflow_name: string;
  status: ExecutionStatus;
  started_at: string;
  completed_at?: string;
  duration_ms?: number;
  input: Record<string, unknown>;
  result?: unknown;
  error?: string;
  /** The failing step and tool of a failed run, and the upstream's own message. */
  failure?: { step: string; tool: string; message: string };
  steps: StepRecord[];
  /** onFailure steps that ran after the failure, best-effort. */
  rollback?: StepRecord[];
}

/** A result as the record keeps it: whole, or truncated with a marker past `maxBytes`. */
export function recordedValue(value: unknown, maxBytes: number): unknown {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value) ?? '';
  if (json.length <= maxBytes) return value;
  return { truncated: true, original_bytes: Buffer.byteLength(json), preview: json.slice(0, Math.min(maxBytes, 1024)) };
}
