/** The persisted record of one workflow run (decisions.md, "Workflows"). */
export type ExecutionStatus = 'running' | 'completed' | 'failed' | 'cancelled';
/** `pending` and `running` exist only while the execution runs. */
export type StepStatus = 'pending' | 'running' | 'completed' | 'failed' | 'skipped' | 'cancelled';

export interface StepRecord {
  id: string;
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
  steps: StepRecord[];
}
