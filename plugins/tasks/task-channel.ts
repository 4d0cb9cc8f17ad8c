/**
 * The way back to the caller for work running as a task (kernel ClientChannel). The call
 * that created the task was answered at once, so there is no response stream to ask on:
 * requests (elicitation, sampling, roots) and log lines go with `related-task` metadata, and
 * the SDK queues them for the session's tasks/result, which delivers them on its own stream
 * and routes the answer back here. While a request waits, the task is `input_required`.
 */
import { ErrorCode, McpError, type ClientCapabilities, type LoggingLevel } from '#mcp-sdk/types.js';
import { logLevelPasses, PASSTHROUGH, type ClientChannel, type LogMessage, type Session, type TaskCall } from '../../kernel/index.js';

export class TaskChannel implements ClientChannel {
  constructor(
    private readonly session: Session,
    private readonly task: TaskCall,
  ) {}

  capabilities(): ClientCapabilities | undefined {
    return this.session.server.getClientCapabilities();
  }

  async request(method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Record<string, unknown>> {
    this.task.status('input_required', `waiting for the client to answer ${method}`);
    try {
      return await this.session.server.request({ method, ...(params ? { params } : {}) }, PASSTHROUGH, {
        signal,
        relatedTask: { taskId: this.task.id },
      });
    } finally {
      this.task.status('working');
    }
  }

  notify(method: string, params: Record<string, unknown>): Promise<void> {
    // Not tied to the task (a URL-mode elicitation's completion may come after it ended): the session's own channel.
    return this.session.server.notification({ method, params });
  }

  logLevel(): LoggingLevel {
    return this.session.logLevel ?? 'debug';
  }

  async log(message: LogMessage): Promise<void> {
    if (!logLevelPasses(message.level, this.session.logLevel)) return;
    // Dropped, not failed, when the caller lets too many wait: a log line is not worth the task.
    await this.session.server
      .notification({ method: 'notifications/message', params: message }, { relatedTask: { taskId: this.task.id } })
      .catch(() => undefined);
  }
}

/**
 * The way back for a 2026-07-28 caller's task (the tasks extension): none. The caller was
 * answered with the task and polls; it declared nothing to be asked with here, so an
 * upstream's question is refused to the upstream by name, and log lines are dropped (the
 * extension sends no notifications/message for tasks).
 */
export const DETACHED: ClientChannel = {
  capabilities: () => ({}),
  request: (method) =>
    Promise.reject(
      new McpError(
        ErrorCode.InvalidRequest,
        `'${method}' cannot reach a 2026-07-28 client from a task: Switchboard does not ask through tasks/get inputRequests`,
      ),
    ),
  log: async () => undefined,
  notify: async () => undefined,
};
