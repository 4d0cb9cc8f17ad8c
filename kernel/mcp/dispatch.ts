/**
 * Classifying incoming JSON-RPC messages by shape instead of by zod. The SDK's Protocol runs
 * up to three zod safeParse calls on every message before dispatching it (is it a result? an
 * error? a request?), and on the call_tool path, where a result can be large, that was the
 * largest share of Switchboard's own CPU. The JSON-RPC 2.0 rules tell the kinds apart by
 * their members; this applies them and hands each message to the same Protocol method the
 * SDK would. Anything that is not plainly one of the kinds goes the SDK's way, so malformed
 * input is reported exactly as before.
 */
import type { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

/** The Protocol methods the SDK's own classifier calls (private in its typings, stable in its code). */
interface Dispatching {
  _onresponse(message: JSONRPCMessage): void;
  _onrequest(message: JSONRPCMessage, extra?: MessageExtraInfo): void;
  _onnotification(message: JSONRPCMessage): void;
}

type AnyProtocol = Protocol<never, never, never>;

type RawHandler = (request: { method: string; params?: Record<string, unknown> }, extra: never) => Promise<unknown>;

/**
 * A request handler without the SDK's per-request zod parse of the whole request: for the
 * one method on the hot path (tools/call), whose few members the handler checks itself.
 */
export function setRawRequestHandler(protocol: AnyProtocol | object, method: string, handler: RawHandler): void {
  (protocol as unknown as { _requestHandlers: Map<string, RawHandler> })._requestHandlers.set(method, handler);
}

function isId(id: unknown): boolean {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Call after `protocol.connect(transport)` and before anything else wraps the transport's onmessage. */
export function dispatchByShape(protocol: AnyProtocol | { transport?: unknown }): void {
  const p = protocol as unknown as Dispatching & { transport?: { onmessage?: (m: JSONRPCMessage, extra?: MessageExtraInfo) => void } };
  const transport = p.transport;
  const sdk = transport?.onmessage;
  if (!transport || !sdk || typeof p._onresponse !== 'function' || typeof p._onrequest !== 'function' || typeof p._onnotification !== 'function') return;
  transport.onmessage = (message, extra) => {
    const m = message as unknown as Record<string, unknown>;
    if (m.jsonrpc === '2.0') {
      if (typeof m.method === 'string' && (m.params === undefined || isObject(m.params))) {
        if (!('id' in m)) return p._onnotification(message);
        if (isId(m.id)) return p._onrequest(message, extra);
      } else if (m.method === undefined && isId(m.id)) {
        if (isObject(m.result) && !('error' in m)) return p._onresponse(message);
        if (isObject(m.error) && typeof m.error.code === 'number' && typeof m.error.message === 'string' && !('result' in m)) return p._onresponse(message);
      }
    }
    sdk(message, extra);
  };
}
