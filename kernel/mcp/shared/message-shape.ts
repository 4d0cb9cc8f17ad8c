/**
 * Telling incoming JSON-RPC messages apart by shape instead of by zod. The SDK's Protocol
 * runs up to three zod safeParse calls on every message before dispatching it (is it a
 * result? an error? a request?), and on the call_tool path, where a result can be large,
 * that was the largest share of Switchboard's own CPU. The JSON-RPC 2.0 rules tell the kinds
 * apart by their members; this applies them. Anything that is not plainly one of the kinds is
 * `undefined`: the caller then lets the SDK judge it, so malformed input is reported as before.
 */
import type { JSONRPCMessage } from '#mcp-sdk/types.js';

export type MessageKind = 'request' | 'notification' | 'response';

function isId(id: unknown): boolean {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function messageKind(message: JSONRPCMessage): MessageKind | undefined {
  const m = message as unknown as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return undefined;
  if (typeof m.method === 'string' && (m.params === undefined || isObject(m.params))) {
    if (!('id' in m)) return 'notification';
    return isId(m.id) ? 'request' : undefined;
  }
  if (m.method === undefined && isId(m.id)) {
    if (isObject(m.result) && !('error' in m)) return 'response';
    if (isObject(m.error) && typeof m.error.code === 'number' && typeof m.error.message === 'string' && !('result' in m)) return 'response';
  }
  return undefined;
}

/** A request's params carry `_meta` (a progress token, a related task) or ask for a task (`task`): the SDK's own request path serves it. */
export function hasMeta(message: JSONRPCMessage): boolean {
  const params = (message as { params?: Record<string, unknown> }).params;
  return params !== undefined && ('_meta' in params || 'task' in params);
}
