/**
 * tasks: calls run as tasks (MCP 2025-11-25 tasks; docs/protocol.md). Sets the endpoint's
 * task surface, so sessions declare the tasks capability and a call_tool, call_tools or
 * workflow asked as a task answers at once and runs on. Tasks are kept by cluster-redis's
 * `task-store` when it provides one (every replica answers for them), else as files under
 * `<config-path>/tasks/`. Ttl and per-owner limits: `aggregator.limits.tasks`.
 */
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  definePlugin,
  errorResult,
  objectResult,
  SwitchboardError,
  type ExecutionHistory,
  type TaskRecord,
  type TerminalTaskStatus,
} from '../../kernel/index.js';
import { FileTaskStore } from './file-task-store.js';
import { TaskRuntime } from './runtime.js';

const STOPPED = 'Switchboard stopped while this task was running; its result is lost';

/** How a task left running by a stopped process ends: a workflow's as its execution record says; any other failed. */
async function endOf(
  r: TaskRecord,
  executions: ExecutionHistory | undefined,
): Promise<{ status: TerminalTaskStatus; result: CallToolResult; message: string }> {
  const run = r.kind === 'workflow' ? await executions?.get(r.taskId) : undefined;
  if (run?.status === 'completed' && run.result !== undefined && typeof run.result === 'object' && run.result !== null)
    return { status: 'completed', result: objectResult(run.result as Record<string, unknown>), message: 'completed' };
  if (run?.status === 'cancelled')
    return { status: 'cancelled', result: errorResult(new SwitchboardError('CANCELLED', run.error ?? 'cancelled')), message: run.error ?? 'cancelled' };
  const message = run?.error ?? STOPPED;
  return { status: 'failed', result: errorResult(new SwitchboardError(run ? 'WORKFLOW_FAILED' : 'INTERNAL', message, { task_id: r.taskId })), message };
}

export default definePlugin({
  name: 'tasks',
  description: 'Tool calls and workflows run as MCP tasks (tasks/get, tasks/result, tasks/list, tasks/cancel).',
  provides: [],
  // cluster-redis's shared store and broadcast when it provides them; the workflows' history, to end a run's task after a restart.
  uses: ['task-store', 'broadcast', 'executions'],
  setup({ kernel, log }) {
    const shared = kernel.services.find('task-store');
    const store = shared ?? new FileTaskStore(join(kernel.config.configPath, 'tasks'), log);
    const runtime = new TaskRuntime(
      store,
      () => {
        const t = kernel.settings().aggregator.limits.tasks;
        return { maxTtlMs: t.maxTtlSeconds * 1000, maxPerOwner: t.maxPerOwner };
      },
      kernel.sessions,
      log,
      kernel.services.find('broadcast'),
    );
    kernel.endpoint.setTasks(runtime);
    return {
      async start() {
        const unfinished = await store.open();
        const executions = kernel.services.find('executions');
        await runtime.endUnfinished(unfinished, (r) => endOf(r, executions));
        await runtime.listen();
      },
      async stop() {
        await runtime.stop();
        await store.close();
      },
    };
  },
});
