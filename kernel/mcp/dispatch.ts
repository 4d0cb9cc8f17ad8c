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
import { ErrorCode, McpError, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { Cancellation } from '../cancellation.js';

/** The Protocol members the SDK's own dispatch uses (private in its typings, stable in its code). */
interface Dispatching {
  _onresponse(message: JSONRPCMessage): void;
  _onrequest(message: JSONRPCMessage, extra?: MessageExtraInfo): void;
  _onnotification(message: JSONRPCMessage): void;
  _onerror(error: Error): void;
  /** The SDK only ever calls `abort(reason)` on these. */
  _requestHandlerAbortControllers: Map<string | number, Pick<AbortController, 'abort'>>;
  notification(notification: { method: string; params?: Record<string, unknown> }, options?: { relatedRequestId?: string | number }): Promise<void>;
  request(request: { method: string; params?: Record<string, unknown> }, schema: unknown, options?: Record<string, unknown>): Promise<unknown>;
}

/** What a request handler gets as `extra`, the members Switchboard's handlers use. */
export interface DirectExtra {
  signal: AbortSignal;
  /** Set when the request came the direct way: its signal is made only if read (kernel/cancellation.ts). */
  cancellation?: Cancellation;
  sessionId?: string;
  requestId: string | number;
  requestInfo?: MessageExtraInfo['requestInfo'];
  authInfo?: MessageExtraInfo['authInfo'];
  sendNotification(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  sendRequest(request: { method: string; params?: Record<string, unknown> }, schema: unknown, options?: Record<string, unknown>): Promise<unknown>;
}

export type DirectHandler = (request: { method: string; params?: Record<string, unknown> }, extra: DirectExtra) => Promise<unknown>;

type Served = Dispatching & { transport?: { sessionId?: string; send(m: JSONRPCMessage): Promise<void> } };

/** The `extra` of a request served directly: what the SDK's would hold, made per request. */
class Extra implements DirectExtra {
  sessionId?: string;
  requestInfo?: MessageExtraInfo['requestInfo'];
  authInfo?: MessageExtraInfo['authInfo'];

  constructor(
    private readonly p: Served,
    readonly requestId: string | number,
    readonly cancellation: Cancellation,
  ) {}

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  async sendNotification(n: { method: string; params?: Record<string, unknown> }): Promise<void> {
    if (!this.cancellation.aborted) await this.p.notification(n, { relatedRequestId: this.requestId });
  }

  async sendRequest(r: { method: string; params?: Record<string, unknown> }, schema: unknown, options?: Record<string, unknown>): Promise<unknown> {
    if (this.cancellation.aborted) throw new McpError(ErrorCode.ConnectionClosed, 'Request was cancelled');
    return this.p.request(r, schema, { ...options, relatedRequestId: this.requestId });
  }
}

/**
 * A request answered without the SDK's _onrequest: a cancellable handler, its answer or its
 * error sent as the SDK would send them. Used for plain requests (no `_meta`: no progress
 * token, no task) of the hot method; everything else keeps the SDK's path.
 */
function serve(p: Served, handler: DirectHandler, message: JSONRPCMessage, info: MessageExtraInfo | undefined): void {
  const request = message as unknown as { id: string | number; method: string; params?: Record<string, unknown> };
  const id = request.id;
  const transport = p.transport!;
  const cancellation = new Cancellation();
  // Where the SDK looks when the client sends notifications/cancelled for this id (it calls abort()).
  p._requestHandlerAbortControllers.set(id, cancellation);
  const extra = new Extra(p, id, cancellation);
  if (transport.sessionId !== undefined) extra.sessionId = transport.sessionId;
  if (info?.requestInfo) extra.requestInfo = info.requestInfo;
  if (info?.authInfo) extra.authInfo = info.authInfo;
  const failed = (err: unknown) => p._onerror(new Error(`Failed to send response: ${String(err)}`));
  const answer = (message: JSONRPCMessage) => {
    if (p._requestHandlerAbortControllers.get(id) === cancellation) p._requestHandlerAbortControllers.delete(id);
    if (cancellation.aborted) return;
    try {
      transport.send(message).catch(failed);
    } catch (err) {
      failed(err);
    }
  };
  handler(request, extra).then(
    (result) => answer({ jsonrpc: '2.0', id, result: result as Record<string, unknown> }),
    (thrown: unknown) => {
      const error = (thrown ?? {}) as { code?: unknown; message?: string; data?: unknown };
      const code = Number.isSafeInteger(error.code) ? (error.code as number) : ErrorCode.InternalError;
      answer({ jsonrpc: '2.0', id, error: { code, message: error.message ?? 'Internal error', ...(error.data !== undefined ? { data: error.data } : {}) } });
    },
  );
}

type AnyProtocol = Protocol<never, never, never>;

type RawHandler = (request: { method: string; params?: Record<string, unknown> }, extra: never) => Promise<unknown>;

/**
 * A request handler without the SDK's per-request zod parse of the whole request: for the
 * one method on the hot path (tools/call), whose few members the handler checks itself.
 */
export function setRawRequestHandler(protocol: AnyProtocol | object, method: string, handler: RawHandler): void {
  const handlers = (protocol as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error('this version of the MCP SDK keeps its request handlers elsewhere; kernel/mcp/dispatch.ts needs updating');
  handlers.set(method, handler);
}

function isId(id: unknown): boolean {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Call after `protocol.connect(transport)` and before anything else wraps the transport's
 * onmessage. `direct`: methods whose plain requests (no `_meta`) skip the SDK's _onrequest.
 */
export function dispatchByShape(protocol: AnyProtocol | { transport?: unknown }, direct: ReadonlyMap<string, DirectHandler> = new Map()): void {
  const p = protocol as unknown as Dispatching & {
    transport?: { sessionId?: string; onmessage?: (m: JSONRPCMessage, extra?: MessageExtraInfo) => void; send(m: JSONRPCMessage): Promise<void> };
  };
  const transport = p.transport;
  const sdk = transport?.onmessage;
  // An SDK whose internals moved: its own dispatch stays, only slower.
  if (!transport || !sdk || typeof p._onresponse !== 'function' || typeof p._onrequest !== 'function' || typeof p._onnotification !== 'function') return;
  if (!(p._requestHandlerAbortControllers instanceof Map)) direct = new Map();
  transport.onmessage = (message, extra) => {
    const m = message as unknown as Record<string, unknown>;
    if (m.jsonrpc === '2.0') {
      if (typeof m.method === 'string' && (m.params === undefined || isObject(m.params))) {
        if (!('id' in m)) return p._onnotification(message);
        if (isId(m.id)) {
          const handler = direct.get(m.method);
          if (handler && !(m.params && '_meta' in m.params)) return serve(p, handler, message, extra);
          return p._onrequest(message, extra);
        }
      } else if (m.method === undefined && isId(m.id)) {
        if (isObject(m.result) && !('error' in m)) return p._onresponse(message);
        if (isObject(m.error) && typeof m.error.code === 'number' && typeof m.error.message === 'string' && !('result' in m)) return p._onresponse(message);
      }
    }
    sdk(message, extra);
  };
}
