/**
 * What one session's SDK Server is built with (kernel/mcp/server/task-surface.ts): the SDK's
 * TaskStore bound to the session's owner, so the SDK's own tasks/get, tasks/result,
 * tasks/list and tasks/cancel answer only that owner's tasks (any other id is "not found",
 * -32602, whoever owns it), and the queue of what running work sends the client, delivered
 * by the SDK on this session's tasks/result.
 *
 * A task id is the caller's input, and the SDK's answers repeat it ("Task not found: <id>"):
 * an id longer than any Switchboard issues is refused before any lookup, without repeating it,
 * so a 100,000-character id costs neither a store lookup nor a 100,000-character error.
 */
import type { QueuedMessage, TaskMessageQueue, TaskStore as SdkTaskStore } from '#mcp-sdk/experimental/tasks/interfaces.js';
import { ErrorCode, McpError, type Result, type Task } from '#mcp-sdk/types.js';
import { SwitchboardError, type TaskRecord, type TaskStore } from '../../kernel/index.js';
import { TASK_PAGE_SIZE } from '../../lib/tasks/task-page.js';

/** Task ids Switchboard issues are UUIDs (36 characters); room to spare, and no more. */
export const MAX_TASK_ID_LENGTH = 128;

/** `taskId` when it could be one of ours; otherwise -32602 naming its length, never its text. */
export function boundedId(taskId: string): string {
  if (taskId.length > MAX_TASK_ID_LENGTH)
    throw new McpError(
      ErrorCode.InvalidParams,
      `taskId is ${taskId.length} characters long; task ids are at most ${MAX_TASK_ID_LENGTH} characters (Switchboard's are UUIDs)`,
    );
  return taskId;
}

/** The task as MCP shows it: no owner, no result, nothing Switchboard keeps for itself. */
export function taskOf(r: TaskRecord): Task {
  return {
    taskId: r.taskId,
    status: r.status,
    ...(r.statusMessage !== undefined ? { statusMessage: r.statusMessage } : {}),
    createdAt: r.createdAt,
    lastUpdatedAt: r.lastUpdatedAt,
    ttl: r.ttl,
    pollInterval: r.pollInterval,
  };
}

/** How the runtime ends a task a client cancels (runtime.ts). */
export type CancelTask = (taskId: string, owner: string) => Promise<void>;

export class OwnerTaskStore implements SdkTaskStore {
  constructor(
    private readonly store: TaskStore,
    private readonly owner: string,
    private readonly cancel: CancelTask,
  ) {}

  createTask(): Promise<Task> {
    // Tasks start from tools/call with `params.task` (the endpoint hands them to the runtime), never from a handler's extra.
    return Promise.reject(new McpError(ErrorCode.InvalidRequest, 'tasks are created by tools/call with params.task'));
  }

  // Every SDK task handler (tasks/get, tasks/result, tasks/cancel) asks getTask first.
  async getTask(taskId: string): Promise<Task | null> {
    const r = await this.store.get(boundedId(taskId), this.owner);
    return r ? taskOf(r) : null;
  }

  async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result): Promise<void> {
    if (await this.store.get(taskId, this.owner)) await this.store.finish(taskId, status, result);
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const r = await this.store.get(boundedId(taskId), this.owner);
    if (!r) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
    if (!r.result) throw new McpError(ErrorCode.InvalidParams, `Task ${taskId} has no result yet (status: ${r.status})`);
    return r.result;
  }

  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string): Promise<void> {
    if (status === 'cancelled') return this.cancel(boundedId(taskId), this.owner);
    if (status === 'working' || status === 'input_required') {
      if (await this.store.get(taskId, this.owner)) await this.store.update(taskId, { status, ...(statusMessage !== undefined ? { statusMessage } : {}) });
      return;
    }
    throw new McpError(ErrorCode.InvalidRequest, `a task ends ${status} only when its call does`);
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    try {
      const page = await this.store.list(this.owner, TASK_PAGE_SIZE, cursor);
      return { tasks: page.tasks.map(taskOf), ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
    } catch (err) {
      if (err instanceof SwitchboardError && err.code === 'INVALID_ARGUMENTS') throw new McpError(ErrorCode.InvalidParams, err.message);
      throw err;
    }
  }
}

/** Messages one task may have waiting for its caller's tasks/result; beyond it, more are refused (a request fails, a log line is dropped). */
export const MAX_QUEUED = 100;

/**
 * One session's queue. Per session because the answer to a queued request must come back to
 * the Server that sent it: a queued elicitation is delivered only on tasks/result of the
 * session whose call asked it.
 */
export class SessionMessageQueue implements TaskMessageQueue {
  private readonly queues = new Map<string, QueuedMessage[]>();

  enqueue(taskId: string, message: QueuedMessage, _sessionId?: string, maxSize?: number): Promise<void> {
    let q = this.queues.get(taskId);
    if (!q) this.queues.set(taskId, (q = []));
    const limit = Math.min(maxSize ?? MAX_QUEUED, MAX_QUEUED);
    if (q.length >= limit) return Promise.reject(new Error(`task ${taskId} already has ${limit} messages waiting for tasks/result`));
    q.push(message);
    return Promise.resolve();
  }

  dequeue(taskId: string): Promise<QueuedMessage | undefined> {
    const q = this.queues.get(taskId);
    const m = q?.shift();
    if (q?.length === 0) this.queues.delete(taskId);
    return Promise.resolve(m);
  }

  dequeueAll(taskId: string): Promise<QueuedMessage[]> {
    const q = this.queues.get(taskId) ?? [];
    this.queues.delete(taskId);
    return Promise.resolve(q);
  }
}
