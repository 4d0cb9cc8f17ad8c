/**
 * What a tools/call run as a task (2025-11-25's `params.task`) takes from its request: the
 * task's parameters, checked, and the way its progress reaches the caller for the task's life.
 */
import { ErrorCode, McpError, RELATED_TASK_META_KEY, type ProgressToken } from '#mcp-sdk/types.js';
import type { Session } from '../../sessions.js';
import type { CallContext } from '../../tools.js';
import type { TaskParams } from './task-surface.js';

/** `params.task` of a tools/call: an object whose `ttl`, when there, is a non-negative number of ms. */
export function taskParams(value: unknown): TaskParams {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new McpError(ErrorCode.InvalidParams, "Invalid params for tools/call: 'task' must be an object");
  const ttl = (value as { ttl?: unknown }).ttl;
  if (ttl === undefined || ttl === null) return {};
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0)
    throw new McpError(ErrorCode.InvalidParams, "Invalid params for tools/call: 'task.ttl' must be a non-negative number of milliseconds");
  return { ttl };
}

/**
 * Progress of a call run as a task (MCP keeps the request's progressToken valid for the
 * task's life): sent on the session's own channel (its GET stream), not queued for
 * tasks/result, so the caller sees it while the task works; with the related-task metadata;
 * dropped once the task is terminal (`ended`: the call returned or the task was cancelled).
 */
export function taskProgress(session: Session, progressToken: ProgressToken, taskId: string, ended: () => boolean): NonNullable<CallContext['progress']> {
  return async (progress, total, message) => {
    if (ended()) return;
    await session.server.notification({
      method: 'notifications/progress',
      params: {
        progressToken,
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message ? { message } : {}),
        _meta: { [RELATED_TASK_META_KEY]: { taskId } },
      },
    });
  };
}
