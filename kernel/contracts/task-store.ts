/**
 * Where tasks (2025-11-25 tasks: a tool call the caller asked to run as a task) are kept,
 * service `task-store`. Absent, the tasks plugin keeps one JSON file per task under the
 * data directory's tasks/; cluster-redis keeps them in Redis, so any replica answers
 * tasks/get, tasks/result and tasks/list for a task another replica runs.
 *
 * Every read is scoped by owner: a task another owner asks for does not exist, so no caller
 * can tell someone else's task from an unknown id. Expired tasks (past `expiresAt`) do not
 * exist either, whether or not they were removed yet.
 */
import type { LateEnd } from './executions.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export type TerminalTaskStatus = 'completed' | 'failed' | 'cancelled';

export function isTerminalStatus(status: TaskStatus): status is TerminalTaskStatus {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

export interface TaskRecord {
  taskId: string;
  /** `person:<sub>` for a signed-in person; `session:<id>` for a caller known by no identity. */
  owner: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  lastUpdatedAt: string;
  /** How long the task is kept from its creation, in ms (the caller's ttl capped by the configured maximum). */
  ttl: number;
  /** Epoch ms: createdAt + ttl; past it the task is gone. */
  expiresAt: number;
  /** How often a caller should poll, in ms. */
  pollInterval: number;
  /** The meta-tool called (call_tool, call_tools) and, for call_tool, the tool it ran. */
  metaTool: string;
  tool?: string;
  /** `workflow` when the task is a workflow's run: its id is the run's execution_id. */
  kind: 'call' | 'workflow';
  /** Upstream tasks the call runs as (TaskCall.runsAs). */
  upstream?: { server: string; taskId: string }[];
  /** The call's result, once terminal (a CallToolResult). */
  result?: Record<string, unknown>;
  /** Set when the call finished on its replica after the others had ended the task (LateEnd); statusMessage says so too. */
  late?: LateEnd;
}

/** What a non-final change may set. */
export interface TaskChange {
  status?: 'working' | 'input_required';
  statusMessage?: string;
  upstream?: { server: string; taskId: string };
}

export interface TaskPage {
  tasks: TaskRecord[];
  nextCursor?: string;
}

/**
 * Asynchronous because the store may be shared by replicas. Writes to a task that is already
 * terminal change nothing and resolve to undefined: the first final status wins (a cancel
 * racing a result).
 */
export interface TaskStore {
  /**
   * Loads what the store keeps; resolves to the tasks a previous run of this process left
   * unfinished, for the caller to end (a store shared by replicas returns none: those tasks
   * may be running on another replica).
   */
  open(): Promise<TaskRecord[]>;
  /** Waits for pending writes. */
  close(): Promise<void>;
  /** Adds a new task; rejects with TaskLimitError (kernel/errors.ts) when its owner already keeps `maxPerOwner` tasks. */
  create(record: TaskRecord, maxPerOwner: number): Promise<void>;
  /** The task, when `owner` owns it and it has not expired. */
  get(taskId: string, owner: string): Promise<TaskRecord | undefined>;
  /** A status before the final one, a message, an upstream ref; the updated task, or undefined when it is gone or terminal. */
  update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined>;
  /** The final status and result; the updated task, or undefined when it is gone or already terminal. */
  finish(taskId: string, status: TerminalTaskStatus, result: Record<string, unknown>, statusMessage?: string): Promise<TaskRecord | undefined>;
  /** The owner's unexpired tasks, newest first, `limit` at a time; `cursor` is a previous page's nextCursor. */
  list(owner: string, limit: number, cursor?: string): Promise<TaskPage>;
}
