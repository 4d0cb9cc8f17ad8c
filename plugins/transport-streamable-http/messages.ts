/** Shape checks for incoming JSON-RPC, cheap enough for every request. */
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '#mcp-sdk/types.js';

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

/**
 * JSON-RPC batches left MCP in 2025-06-18. A session that negotiated an earlier revision
 * (2025-03-26, which named them) keeps them, up to this many messages: a batch is one POST
 * whose work is many requests, and an uncapped one is a request flood in a single body.
 */
export const MAX_BATCH_MESSAGES = 32;

/** The first revision without batches; revisions are dates, so they compare as strings. */
const BATCHES_REMOVED_IN = '2025-06-18';

/** Whether any member of a batch is an initialize (members not yet checked to be objects). */
export function batchOpensSession(batch: readonly unknown[]): boolean {
  return batch.some((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize');
}

/** Why a session that negotiated `version` may not batch at all, or undefined when it may. */
export function batchesRefused(version: string | undefined): string | undefined {
  if (!version || version >= BATCHES_REMOVED_IN)
    return `Invalid Request: JSON-RPC batches are not part of MCP ${version || "this session's protocol revision"} (they were removed in ${BATCHES_REMOVED_IN}); send one message per POST`;
  return undefined;
}

/** Why a batch is refused for a session that negotiated `version`, or undefined when it is taken. */
export function batchRefusal(batch: readonly unknown[], version: string | undefined): string | undefined {
  return (
    batchesRefused(version) ??
    (batch.length > MAX_BATCH_MESSAGES ? `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages; this one has ${batch.length}` : undefined)
  );
}

export const INITIALIZE_BATCH = 'Invalid Request: initialize cannot be batched; send it alone, as one JSON-RPC object';
