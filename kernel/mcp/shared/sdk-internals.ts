/**
 * Every use Switchboard makes of the MCP SDK's private members, and nowhere else. The SDK's
 * Protocol parses each message with zod before dispatching it and keeps its request handlers,
 * request ids and cancellations behind members its typings mark private; the hot call_tool
 * path goes around the parsing (server/dispatch.ts, the upstreams plugin's message router)
 * and so needs these members. They are stable in the SDK's code but not promised by it:
 * test/unit/sdk-internals.test.ts pins the SDK version they were checked against and
 * asserts each member below on real Server, Client and Protocol instances, so an SDK upgrade
 * fails that test first. Each accessor checks the member's shape and answers `undefined`
 * (or throws, where there is no slower way) when it moved, never a half-working object.
 */
import type { Server } from '#mcp-sdk/server/index.js';
import type { ClientCapabilities, Implementation, JSONRPCMessage, MessageExtraInfo } from '#mcp-sdk/types.js';

/**
 * The SDK version these members were last checked against. The unit test compares it (and
 * MODERN_SDK_VERSION_CHECKED) with the exact versions package-lock.json pins, so a lock file
 * that moves either SDK fails that test until this file is checked again (decisions.md, "The
 * SDKs": v1 serves legacy, v2's client reaches modern upstreams).
 */
export const SDK_VERSION_CHECKED = '1.32.2';

/**
 * The v2 SDK client (`@modelcontextprotocol/client`) that speaks to 2026-07-28 upstreams
 * (plugins/upstreams/client/modern-upstream.ts) is used through its public API only: nothing
 * here reaches into it. It is pinned all the same, because that file relies on behaviour the
 * typings do not promise: a connect that adopts a prior server/discover answer registers the
 * list-changed handlers but opens no subscriptions/listen stream (Switchboard opens it), and a
 * request with `allowInputRequired` answers input_required results instead of fulfilling them.
 */
export const MODERN_SDK_VERSION_CHECKED = '2.4.0';

/** The Protocol methods the SDK's own transport.onmessage dispatches to, bound to their protocol. */
export interface ProtocolDispatch {
  response(message: JSONRPCMessage): void;
  request(message: JSONRPCMessage, extra?: MessageExtraInfo): void;
  notification(message: JSONRPCMessage): void;
  error(error: Error): void;
}

type Method<A extends unknown[]> = (this: object, ...args: A) => void;

/** Where the SDK looks up a request's canceller when notifications/cancelled names it (it only ever calls `abort(reason)`). */
export type AbortControllers = Map<string | number, Pick<AbortController, 'abort'>>;

/** A request handler as the SDK's request map holds it (the SDK calls it with the raw request). */
export type RawRequestHandler = (request: { method: string; params?: Record<string, unknown> }, extra: never) => Promise<unknown>;

interface Private {
  _onresponse?: unknown;
  _onrequest?: unknown;
  _onnotification?: unknown;
  _onerror?: unknown;
  _requestHandlers?: unknown;
  _requestHandlerAbortControllers?: unknown;
  _requestMessageId?: unknown;
}

/** The members that private name lists: what the unit test checks on real instances. */
export const PRIVATE_MEMBERS = {
  _onresponse: 'function',
  _onrequest: 'function',
  _onnotification: 'function',
  _onerror: 'function',
  _requestHandlers: 'Map',
  _requestHandlerAbortControllers: 'Map',
  _requestMessageId: 'number',
} as const satisfies Record<keyof Private, 'function' | 'Map' | 'number'>;

/** The SDK's per-message dispatch of a Protocol (Server or Client), made once per connection; undefined when it moved. */
export function protocolDispatch(protocol: object): ProtocolDispatch | undefined {
  const p = protocol as Private;
  const ok =
    typeof p._onresponse === 'function' && typeof p._onrequest === 'function' && typeof p._onnotification === 'function' && typeof p._onerror === 'function';
  if (!ok) return undefined;
  return {
    response: (p._onresponse as Method<[JSONRPCMessage]>).bind(protocol),
    request: (p._onrequest as Method<[JSONRPCMessage, MessageExtraInfo | undefined]>).bind(protocol),
    notification: (p._onnotification as Method<[JSONRPCMessage]>).bind(protocol),
    error: (p._onerror as Method<[Error]>).bind(protocol),
  };
}

/** The map of running requests' cancellers, or undefined when it moved. */
export function abortControllers(protocol: object): AbortControllers | undefined {
  const map = (protocol as Private)._requestHandlerAbortControllers;
  return map instanceof Map ? (map as AbortControllers) : undefined;
}

/**
 * Registers a request handler without the SDK's per-request zod parse of the whole request:
 * for the one method on the hot path (tools/call), whose few members the handler checks
 * itself. No slower way exists that keeps results unvalidated, so a moved map is an error.
 */
export function setRawRequestHandler(protocol: object, method: string, handler: RawRequestHandler): void {
  const handlers = (protocol as Private)._requestHandlers;
  if (!(handlers instanceof Map))
    throw new Error('this version of the MCP SDK keeps its request handlers elsewhere; kernel/mcp/shared/sdk-internals.ts needs updating');
  handlers.set(method, handler);
}

/**
 * The id the protocol's next request() will be sent under, or undefined when that is not
 * known. request() takes it synchronously, so read just before calling request() it names
 * that request: the upstream's messages about it can then be matched to the calling client.
 */
export function nextRequestId(protocol: object): number | undefined {
  const id = (protocol as Private)._requestMessageId;
  return typeof id === 'number' ? id : undefined;
}

/** What a Server learns from its client's initialize, as the SDK keeps it. */
export interface ClientState {
  capabilities: ClientCapabilities;
  clientInfo?: Implementation;
}

interface ServerPrivate {
  _clientCapabilities?: unknown;
  _clientVersion?: unknown;
}

/**
 * Makes a new Server answer as one its client initialized: a session rebuilt on another
 * replica (cluster mode) serves the client's next request without a new initialize. The SDK
 * sets these two members in its initialize handler and reads them through
 * getClientCapabilities() and getClientVersion(); there is no public setter. A Server that
 * does not read them back after the write is refused, never served half-restored.
 */
export function restoreClientState(server: Server, state: ClientState): void {
  const p = server as unknown as ServerPrivate;
  p._clientCapabilities = state.capabilities;
  p._clientVersion = state.clientInfo;
  if (server.getClientCapabilities() !== state.capabilities || server.getClientVersion() !== state.clientInfo)
    throw new Error('this version of the MCP SDK keeps client capabilities elsewhere; kernel/mcp/shared/sdk-internals.ts needs updating');
}
