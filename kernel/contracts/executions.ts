/**
 * Workflow execution history (service `executions`, provided by the workflows plugin):
 * what ran, how each step went. Read by the admin pages; core_workflow_execution_* serve the
 * same records to clients.
 */
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
  /** Who ran it: the principal key (`person:<sub>`, `local`); its owner for reads. */
  caller?: string;
  /** The caller as people read it (an email, `local`). */
  caller_name?: string;
  result?: unknown;
  error?: string;
  /** The failing step and tool of a failed run, and the upstream's own message. */
  failure?: { step: string; tool: string; message: string };
  steps: StepRecord[];
  /** onFailure steps that ran after the failure, best-effort. */
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

export interface ExecutionPage {
  executions: ExecutionRecord[];
  total: number;
}

/**
 * Asynchronous because the history may be shared by replicas (cluster mode); a read sees
 * every write this process made before it. Rejects (SHARED_STATE_UNAVAILABLE) when the
 * shared history cannot be reached.
 */
export interface ExecutionHistory {
  get(id: string): Promise<ExecutionRecord | undefined>;
  /** Newest first. */
  list(q: ExecutionListQuery): Promise<ExecutionPage>;
}

export interface ExecutionRetention {
  maxCount: number;
  maxAgeDays: number;
  /** Live `aggregator.limits.executions.maxTotalBytes`: a lowered limit applies at the next write. */
  maxTotalBytes: () => number;
}

/**
 * Where the workflows plugin keeps its records: the engine adds a record when a run starts
 * and saves it as each step and the run end. Retention (count, age, total bytes) drops the
 * oldest finished records; running ones stay.
 */
export interface ExecutionRecords extends ExecutionHistory {
  /**
   * Read by other processes (replicas), which see the stored copy rather than the record the
   * engine changes in place: the engine then also saves after each top-level step.
   */
  readonly shared: boolean;
  /** A new run (the newest), stored in the background. */
  add(record: ExecutionRecord): void;
  /** The record changed; stored in the background after its earlier writes. Resolves once stored (or the failure logged). */
  save(record: ExecutionRecord): Promise<void>;
  open(): Promise<void>;
  /** Waits for every pending write (shutdown, tests). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Service `execution-storage`: absent, the workflows plugin keeps one JSON file per record
 * under executions/; cluster-redis keeps them in Redis, shared by every replica.
 */
export interface ExecutionStorage {
  create(retention: ExecutionRetention): ExecutionRecords;
}
