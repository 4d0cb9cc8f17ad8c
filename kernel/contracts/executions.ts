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

/**
 * Work a replica finished after the other replicas had ended it (cluster mode: the replica
 * was paused or cut off past its liveness period and declared dead, docs/scale-out.md). The
 * end they recorded stands, since a client may have acted on it already (retried a tool with
 * side effects); this says the work did finish, how, when, and where. Recorded once, the same
 * on a workflow's run and on its task.
 */
export interface LateEnd {
  status: 'completed' | 'failed' | 'cancelled';
  completed_at: string;
  /** The replica that finished it. */
  replica: string;
}

export interface ExecutionRecord {
  execution_id: string;
  /**
   * What ran: absent (or `workflow`) for a workflow's run; `code` for a run_code script (code
   * mode, docs/decisions.md), whose `workflow_name` is `run_code`, `input` its arguments
   * (`code`, `timeoutSeconds`) and `steps` the calls it made, in the order they ended.
   */
  kind?: 'workflow' | 'code';
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
  /** What a run_code script logged (kind `code`), bounded by plugins.code-mode.options.maxLogBytes. */
  logs?: string[];
  /** Set when the run finished on its replica after the others had marked it failed (LateEnd). */
  late_result?: LateEnd;
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
