/**
 * The endpoint's seam with whatever runs tool calls as tasks (2025-11-25 tasks; the tasks
 * plugin). The endpoint knows only this: when a tools/call carries `params.task` it hands the
 * call here and answers the CreateTaskResult it gets; each session's SDK Server is built with
 * the task store and message queue bound to that session, so the SDK itself answers
 * tasks/get, tasks/result, tasks/list and tasks/cancel, and delivers what the running work
 * asks the client (queued with `related-task`) on tasks/result.
 */
import type { TaskMessageQueue, TaskStore as SdkTaskStore } from '#mcp-sdk/experimental/tasks/interfaces.js';
import type { CallToolResult, CreateTaskResult } from '#mcp-sdk/types.js';
import type { Cancellation } from '../../cancellation.js';
import type { TaskRecord } from '../../contracts/task-store.js';
import type { Identity } from '../../request-context.js';
import type { Session } from '../../sessions.js';
import type { TaskCall } from '../../tools.js';
import type { ClientChannel } from '../shared/client-channel.js';

/** What a task-augmented tools/call asked for (`params.task`), checked. */
export interface TaskParams {
  ttl?: number;
}

/** What ran, for the task record. */
export interface TaskOrigin {
  metaTool: string;
  /** call_tool's tool. */
  tool?: string;
  /** The tool is a workflow: the task is its run (the task id becomes the execution_id). */
  workflow: boolean;
}

/** How the work of a task runs: with the task, its own cancellation (tasks/cancel) and its way to the client. */
export interface TaskWork {
  task: TaskCall;
  cancellation: Cancellation;
  client: ClientChannel;
}

/**
 * Who a 2026-07-28 (stateless) caller is, for the tasks extension: there is no session, so a
 * task belongs to the signed-in person, or to the client's address when anonymous.
 */
export interface TaskCaller {
  identity?: Identity;
  clientAddress?: string;
}

/** What `cancelFor` found: cancelled now, already ended (the ack is the same: cancel is idempotent), or no such task of this caller. */
export type CancelOutcome = 'cancelled' | 'ended' | 'unknown';

export interface TaskSurface {
  /** The SDK's task store and message queue for one session, bound to its owner. */
  forSession(session: Pick<Session, 'id'> & { identity?: Identity }): { taskStore: SdkTaskStore; taskMessageQueue: TaskMessageQueue };
  /** Creates the task, starts `run` in the background and resolves at once with the task. */
  start(session: Session, params: TaskParams, origin: TaskOrigin, run: (work: TaskWork) => Promise<CallToolResult>): Promise<CreateTaskResult>;
  /**
   * The tasks extension (2026-07-28): a task owned by `caller`, with no session to tell;
   * resolves once the record is stored (any replica's tasks/get finds it) and runs `run` on.
   */
  startFor(caller: TaskCaller, params: TaskParams, origin: TaskOrigin, run: (work: TaskWork) => Promise<CallToolResult>): Promise<TaskRecord>;
  /** The caller's task (any replica's, from the shared store); undefined for another caller's, an expired or an unknown id alike. */
  find(taskId: string, caller: TaskCaller): Promise<TaskRecord | undefined>;
  /** tasks/cancel of the extension: ends the caller's running task `cancelled` where it runs. */
  cancelFor(taskId: string, caller: TaskCaller): Promise<CancelOutcome>;
}
