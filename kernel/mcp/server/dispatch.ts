/**
 * How a session's Server takes its incoming messages: classified by shape
 * (shared/message-shape.ts) and handed to the same Protocol method the SDK would, without
 * its zod parses; plain requests (no `_meta`: no progress token, no task) of the hot method
 * (tools/call) are answered here without the SDK's request machinery at all. Anything not
 * plainly one kind goes the SDK's own way, so malformed input is reported exactly as before.
 */
import type { TransportSendOptions } from '#mcp-sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '#mcp-sdk/types.js';
import { ErrorCode, McpError } from '#mcp-sdk/types.js';
import { plainWireError } from '../shared/wire-errors.js';
import { Cancellation } from '../../cancellation.js';
import { hasMeta, messageKind } from '../shared/message-shape.js';
import { abortControllers, protocolDispatch, type AbortControllers, type ProtocolDispatch } from '../shared/sdk-internals.js';

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

/** The public Protocol members a request served directly uses. */
interface Sending {
  notification(notification: { method: string; params?: Record<string, unknown> }, options?: { relatedRequestId?: string | number }): Promise<void>;
  request(request: { method: string; params?: Record<string, unknown> }, schema: unknown, options?: Record<string, unknown>): Promise<unknown>;
}

interface ServedTransport {
  sessionId?: string;
  onmessage?: (m: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  send(m: JSONRPCMessage, options?: TransportSendOptions): Promise<void>;
}

/** The `extra` of a request served directly: what the SDK's would hold, made per request. */
class Extra implements DirectExtra {
  sessionId?: string;
  requestInfo?: MessageExtraInfo['requestInfo'];
  authInfo?: MessageExtraInfo['authInfo'];

  constructor(
    private readonly p: Sending,
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

/** A request answered without the SDK's _onrequest: a cancellable handler, its answer or its error sent as the SDK would send them. */
function serve(
  p: Sending,
  sdk: ProtocolDispatch,
  controllers: AbortControllers,
  transport: ServedTransport,
  handler: DirectHandler,
  message: JSONRPCMessage,
  info: MessageExtraInfo | undefined,
): void {
  const request = message as unknown as { id: string | number; method: string; params?: Record<string, unknown> };
  const id = request.id;
  const cancellation = new Cancellation();
  // Where the SDK looks when the client sends notifications/cancelled for this id (it calls abort()).
  controllers.set(id, cancellation);
  const extra = new Extra(p, id, cancellation);
  if (transport.sessionId !== undefined) extra.sessionId = transport.sessionId;
  if (info?.requestInfo) extra.requestInfo = info.requestInfo;
  if (info?.authInfo) extra.authInfo = info.authInfo;
  const failed = (err: unknown) => sdk.error(new Error(`Failed to send response: ${String(err)}`));
  const answer = (message: JSONRPCMessage) => {
    if (controllers.get(id) === cancellation) controllers.delete(id);
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

/**
 * Call after `server.connect(transport)`: replaces the transport's onmessage (the SDK's
 * dispatch) with one that classifies by shape. `direct`: methods whose plain requests skip
 * the SDK's _onrequest. An SDK whose internals moved keeps its own dispatch, only slower.
 */
export function dispatchByShape(server: Sending & { transport?: unknown }, direct: ReadonlyMap<string, DirectHandler> = new Map()): void {
  const transport = server.transport as ServedTransport | undefined;
  const sdkOnMessage = transport?.onmessage;
  const sdk = protocolDispatch(server);
  if (transport) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(plainWireError(message), options);
  }
  if (!transport || !sdkOnMessage || !sdk) return;
  const controllers = abortControllers(server);
  if (!controllers) direct = new Map();
  transport.onmessage = (message, extra) => {
    switch (messageKind(message)) {
      case 'notification':
        return sdk.notification(message);
      case 'request': {
        const handler = direct.get((message as { method: string }).method);
        if (handler && !hasMeta(message)) return serve(server, sdk, controllers!, transport, handler, message, extra);
        return sdk.request(message, extra);
      }
      case 'response':
        return sdk.response(message);
      default:
        sdkOnMessage(message, extra);
    }
  };
}
