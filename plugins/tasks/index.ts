/**
 * tasks: calls run as tasks (MCP 2025-11-25 tasks; docs/protocol.md). Sets the endpoint's
 * task surface, so sessions declare the tasks capability and a call_tool, call_tools or
 * workflow asked as a task answers at once and runs on. Tasks are kept by cluster-redis's
 * `task-store` when it provides one (every replica answers for them), else as files under
 * `<config-path>/tasks/`. Ttl and per-owner limits: `aggregator.limits.tasks`.
 */
import { join } from 'node:path';
import { definePlugin, type ExecutionHistory, type TaskRecord } from '../../kernel/index.js';
import { interruptedTaskEnd, type TaskEnd } from '../../lib/tasks/interrupted-task.js';
import { FileTaskStore } from './file-task-store.js';
import { TaskRuntime } from './runtime.js';

const STOPPED = 'Switchboard stopped while this task was running; its result is lost';

/** How a task left running by a stopped process ends: a workflow's as its execution record says; any other failed. */
async function endOf(r: TaskRecord, executions: ExecutionHistory | undefined): Promise<TaskEnd> {
  return interruptedTaskEnd(r, r.kind === 'workflow' ? await executions?.get(r.taskId) : undefined, STOPPED);
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
