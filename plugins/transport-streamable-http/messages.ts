/** Shape checks for incoming JSON-RPC, cheap enough for every request. */
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * The common case decided without zod: a request or notification with only the members the
 * SDK's schema allows, an integer or string id and plain-object params without `_meta`
 * (whose members the schema checks, so a message with one goes the full way).
 */
function plainRequest(o: Record<string, unknown>): boolean {
  if (typeof o.method !== 'string') return false;
  if ('id' in o && !(typeof o.id === 'string' || Number.isSafeInteger(o.id))) return false;
  const p = o.params;
  if (p !== undefined && (p === null || typeof p !== 'object' || Array.isArray(p) || '_meta' in p)) return false;
  for (const k in o) if (!REQUEST_KEYS.has(k)) return false;
  return true;
}

export function asMessages(body: unknown): { messages: JSONRPCMessage[]; batch: boolean } | string {
  const batch = Array.isArray(body);
  const list: unknown[] = batch ? (body as unknown[]) : [body];
  if (list.length === 0) return 'empty batch';
  for (const m of list) {
    if (!m || typeof m !== 'object' || Array.isArray(m)) return 'each message must be a JSON-RPC object';
    const o = m as Record<string, unknown>;
    if (o.jsonrpc !== '2.0') return '\'jsonrpc\' must be "2.0"';
    const hasMethod = typeof o.method === 'string';
    const isResponse = 'result' in o || 'error' in o;
    if (!hasMethod && !isResponse) return "a message needs a 'method' (request, notification) or 'result'/'error' (response)";
    if ('id' in o && typeof o.id !== 'string' && typeof o.id !== 'number' && !(isResponse && o.id === null)) return "'id' must be a string or a number";
    // The SDK silently drops what its schemas reject, and a request nobody answers would hold
    // this POST open for ever: anything the SDK would not take is refused here, by name.
    if (!plainRequest(o) && !(isJSONRPCRequest(o) || isJSONRPCNotification(o) || isJSONRPCResultResponse(o) || isJSONRPCErrorResponse(o))) {
      if ('id' in o && typeof o.id === 'number' && !Number.isSafeInteger(o.id)) return "'id' must be a string or an integer";
      if ('params' in o && (o.params === null || typeof o.params !== 'object' || Array.isArray(o.params))) return "'params' must be an object";
      return "not a JSON-RPC request, notification or response (no fields besides jsonrpc, id, method, params / result / error; 'params._meta' an object)";
    }
  }
  return { messages: list as JSONRPCMessage[], batch };
}

export function isInitialize(m: JSONRPCMessage): boolean {
  return 'method' in m && m.method === 'initialize' && 'id' in m;
}

export function protocolVersionSupported(version: string | undefined): boolean {
  return version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}
