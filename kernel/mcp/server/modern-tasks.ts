/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for 2026-07-28 clients. Task
 * creation is the server's choice: a tools/call of a meta-tool that can run as a task (its
 * legacy `execution.taskSupport` is optional or required) from a request whose capabilities
 * declare the extension is answered at once with a flat `CreateTaskResult` (`resultType:
 * "task"`), and the call runs on as the same task record legacy sessions' tasks are (the task
 * surface: the tasks plugin, its store shared by replicas in cluster mode). A request without
 * the extension is answered directly, so a client chooses per request.
 *
 * `tasks/get` answers the DetailedTask (the result inlined once completed), `tasks/update`
 * acknowledges (Switchboard never asks through `inputRequests`: an upstream's question during a
 * modern task is refused to the upstream by name), `tasks/cancel` acknowledges and cancels the
 * call where it runs. There is no session: a task belongs to the caller (the person, or the
 * client's address when anonymous) and every read is scoped by it, so another caller's task
 * id reads exactly as an unknown one.
 */
import type { CallToolResult } from '#mcp-sdk/types.js';
import { ErrorCode, McpError } from '#mcp-sdk/types.js';
import type { TaskRecord } from '../../contracts/task-store.js';
import type { TaskSupport } from '../../tools.js';
import type { RequestEnvelope } from '../shared/modern-protocol.js';
import type { TaskCaller, TaskOrigin, TaskSurface, TaskWork } from './task-surface.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** 2026-07-28's Missing Required Client Capability. */
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

/** The methods of the extension; any other `tasks/*` (list, result: 2025-11-25 only) is not served to modern clients. */
export const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** What the stateless server lends: the surface (once the tasks plugin set it) and what a meta-tool says of tasks. */
export interface ModernTaskHost {
  tasks(): TaskSurface | undefined;
  /** The meta-tool's `execution.taskSupport`; 'forbidden' for anything else. */
  taskSupport(name: string): TaskSupport;
  /** What ran, for the record (the tool call_tool runs, whether it is a workflow). */
  taskOrigin(name: string, args: Record<string, unknown> | undefined): TaskOrigin;
}

export function declaresTasks(envelope: RequestEnvelope): boolean {
  const ext = (envelope.clientCapabilities as { extensions?: Record<string, unknown> }).extensions;
  const t = ext?.[TASKS_EXTENSION];
  return typeof t === 'object' && t !== null;
}

function missingCapability(method: string): McpError {
  return new McpError(
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    `Missing required client capability: ${method} needs the ${TASKS_EXTENSION} extension in this request's clientCapabilities`,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    },
  );
}

function taskIdOf(method: string, params: Record<string, unknown>): string {
  if (typeof params.taskId !== 'string') throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: 'taskId' must be a string`);
  return params.taskId;
}

/** Never repeats the id: an unknown one, another caller's and an expired one read the same. */
const NOT_FOUND = 'Failed to retrieve task: Task not found (or it expired, or it is not yours)';

/** The extension's Task fields of a record: `ttlMs` and `pollIntervalMs` (2025-11-25 said ttl and pollInterval). */
function taskFields(r: TaskRecord, status: string): Record<string, unknown> {
  return {
    taskId: r.taskId,
    status,
    ...(r.statusMessage !== undefined ? { statusMessage: r.statusMessage } : {}),
    createdAt: r.createdAt,
    lastUpdatedAt: r.lastUpdatedAt,
    ttlMs: r.ttl,
    pollIntervalMs: r.pollInterval,
  };
}

/**
 * tasks/get's DetailedTask. A call that ended with a tool error is `completed` with the result
 * (`isError: true`): the extension keeps `failed` for JSON-RPC errors, and Switchboard turns
 * every failure of a call into a tool result. A task of a person's legacy session waiting on
 * that session's answer reads `working` here: a modern client cannot answer it.
 */
export function detailedTask(r: TaskRecord): Record<string, unknown> {
  if (r.status === 'completed' || r.status === 'failed') {
    const result = { ...(r.result ?? { content: [] }) };
    const meta = result._meta as Record<string, unknown> | undefined;
    if (meta && RELATED_TASK_META_KEY in meta) {
      const { [RELATED_TASK_META_KEY]: _related, ...rest } = meta;
      if (Object.keys(rest).length > 0) result._meta = rest;
      else delete result._meta;
    }
    return { ...taskFields(r, 'completed'), result };
  }
  return taskFields(r, r.status === 'input_required' ? 'working' : r.status);
}

export class ModernTasks {
  constructor(private readonly host: ModernTaskHost) {}

  /** The extension, for server/discover, once calls can run as tasks. */
  extensions(): Record<string, object> | undefined {
    return this.host.tasks() ? { [TASKS_EXTENSION]: {} } : undefined;
  }

  /**
   * Whether this tools/call runs as a task: the request declared the extension and the
   * meta-tool can run as one. A meta-tool that only runs as a task, called without the
   * extension, is -32021 (the extension says so).
   */
  runsAsTask(params: Record<string, unknown>, envelope: RequestEnvelope): boolean {
    if (!this.host.tasks() || typeof params.name !== 'string') return false;
    const support = this.host.taskSupport(params.name);
    if (support === 'forbidden') return false;
    if (declaresTasks(envelope)) return true;
    if (support === 'required') throw missingCapability(`tools/call of '${params.name}'`);
    return false;
  }

  /** Creates the caller's task, runs `run` on as it, and answers the flat CreateTaskResult (without `resultType`: the caller sets it). */
  async start(params: Record<string, unknown>, caller: TaskCaller, run: (work: TaskWork) => Promise<CallToolResult>): Promise<Record<string, unknown>> {
    const surface = this.host.tasks()!;
    const name = params.name as string;
    const args = params.arguments as Record<string, unknown> | undefined;
    const record = await surface.startFor(caller, {}, this.host.taskOrigin(name, args), run);
    return taskFields(record, record.status);
  }

  /** A `tasks/*` request; undefined when the method is not the extension's or no surface is set (the caller answers -32601). */
  async serve(method: string, params: Record<string, unknown>, envelope: RequestEnvelope, caller: TaskCaller): Promise<Record<string, unknown> | undefined> {
    const surface = this.host.tasks();
    if (!surface || !TASK_METHODS.has(method)) return undefined;
    if (!declaresTasks(envelope)) throw missingCapability(method);
    const taskId = taskIdOf(method, params);
    if (method === 'tasks/get') {
      const r = await surface.find(taskId, caller);
      if (!r) throw new McpError(ErrorCode.InvalidParams, NOT_FOUND);
      return detailedTask(r);
    }
    if (method === 'tasks/update') {
      const responses = params.inputResponses;
      if (typeof responses !== 'object' || responses === null || Array.isArray(responses))
        throw new McpError(ErrorCode.InvalidParams, "Invalid params for tasks/update: 'inputResponses' must be an object");
      if (!(await surface.find(taskId, caller))) throw new McpError(ErrorCode.InvalidParams, NOT_FOUND);
      // No request of Switchboard's is ever outstanding on a task: every key is one to ignore (the extension says so).
      return {};
    }
    if ((await surface.cancelFor(taskId, caller)) === 'unknown') throw new McpError(ErrorCode.InvalidParams, NOT_FOUND);
    return {};
  }
}
