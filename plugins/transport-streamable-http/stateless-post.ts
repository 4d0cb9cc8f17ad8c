/**
 * A 2026-07-28 POST on the same /mcp path as legacy sessions: no Mcp-Session-Id read or
 * minted, no session opened, nothing written to the session directory. Checked in the order
 * the specification's server validation gives (basic/transports/streamable-http.mdx): one
 * JSON-RPC message; the version the body claims against the MCP-Protocol-Version header
 * (-32020), supported (-32022); the `_meta` envelope (-32602, 400); the Mcp-Method and Mcp-Name
 * headers against the body (-32020); then the kernel answers the method (an unknown one 404).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KernelApi } from '../../kernel/index.js';
import {
  ALL_PROTOCOL_VERSIONS,
  bodyVersionClaim,
  Cancellation,
  decodeHeaderValue,
  HEADER_MISMATCH,
  isModernVersion,
  mcpNameSource,
  readEnvelope,
  UNSUPPORTED_PROTOCOL_VERSION,
} from '../../kernel/index.js';
import { callerOf, type ListenStreams } from './listen-streams.js';
import type { StreamKeepAlive } from '../../lib/http/stream-keep-alive.js';
import { PostExchange } from './post-exchange.js';

type Id = string | number | null;

function answer(res: ServerResponse, status: number, id: Id, code: number, message: string, data?: unknown): true {
  const body = JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
  return true;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/** Serves one modern POST whose body is already parsed (not an array); a subscriptions/listen stays open on `listens`. */
export function serveStateless(
  kernel: KernelApi,
  listens: ListenStreams,
  keptAlive: StreamKeepAlive,
  body: unknown,
  req: IncomingMessage,
  res: ServerResponse,
): true | Promise<true> {
  if (typeof body !== 'object' || body === null) return answer(res, 400, null, -32600, 'Invalid Request: the body must be one JSON-RPC request object');
  const m = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  const id: Id = typeof m.id === 'string' || (typeof m.id === 'number' && Number.isSafeInteger(m.id)) ? m.id : null;
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string')
    return answer(res, 400, id, -32600, 'Invalid Request: a 2026-07-28 POST carries one JSON-RPC request or notification (jsonrpc "2.0" and a method)');
  if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params)))
    return answer(res, 400, id, -32600, "Invalid Request: 'params' must be an object");
  // 2026-07-28 defines no client notification over HTTP (closing the stream is the cancellation): accepted, nothing to do.
  if (!('id' in m)) {
    res.writeHead(202).end();
    return true;
  }
  if (id === null) return answer(res, 400, null, -32600, "Invalid Request: 'id' must be a string or an integer");
  const method = m.method;
  const params = m.params as Record<string, unknown> | undefined;

  const headerVersion = header(req, 'mcp-protocol-version');
  // A claim that is not a string is a malformed envelope (-32602 below), not another version.
  const raw = bodyVersionClaim(body);
  const claim = typeof raw === 'string' ? raw : undefined;
  if (claim !== undefined && headerVersion !== undefined && claim !== headerVersion)
    return answer(
      res,
      400,
      id,
      HEADER_MISMATCH,
      `Header mismatch: MCP-Protocol-Version header '${headerVersion}' does not match params._meta['io.modelcontextprotocol/protocolVersion'] '${claim}'`,
    );
  const version = claim ?? headerVersion;
  if (!isModernVersion(version))
    return answer(res, 400, id, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version '${version ?? '(none)'}'`, {
      supported: [...ALL_PROTOCOL_VERSIONS],
      requested: version,
    });
  const envelope = readEnvelope(params);
  if (typeof envelope === 'string') return answer(res, 400, id, -32602, envelope);
  if (headerVersion === undefined) return answer(res, 400, id, HEADER_MISMATCH, 'Header mismatch: the MCP-Protocol-Version header is required');
  const mcpMethod = header(req, 'mcp-method');
  if (mcpMethod === undefined) return answer(res, 400, id, HEADER_MISMATCH, 'Header mismatch: the Mcp-Method header is required');
  if (mcpMethod !== method)
    return answer(res, 400, id, HEADER_MISMATCH, `Header mismatch: Mcp-Method header value '${mcpMethod}' does not match body value '${method}'`);
  const named = mcpNameSource(method, params);
  if (named) {
    const raw = header(req, 'mcp-name');
    if (raw === undefined)
      return answer(res, 400, id, HEADER_MISMATCH, `Header mismatch: the Mcp-Name header is required for ${method} (params.${named.field})`);
    const value = decodeHeaderValue(raw);
    if (value === undefined) return answer(res, 400, id, HEADER_MISMATCH, 'Header mismatch: the Mcp-Name header carries an invalid Base64 sentinel value');
    if (value !== named.value)
      return answer(res, 400, id, HEADER_MISMATCH, `Header mismatch: Mcp-Name header value '${value}' does not match body value '${String(named.value)}'`);
  }
  const request: { id: string | number; method: string; params?: Record<string, unknown> } = params ? { id, method, params } : { id, method };
  if (method === 'subscriptions/listen') return listens.serve(request, envelope, callerOf(kernel, req), res);
  return run(kernel, keptAlive, request, envelope, req, res);
}

async function run(
  kernel: KernelApi,
  keptAlive: StreamKeepAlive,
  request: { id: string | number; method: string; params?: Record<string, unknown> },
  envelope: Exclude<ReturnType<typeof readEnvelope>, string>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<true> {
  const cancellation = new Cancellation();
  let done = false;
  const exchange = new PostExchange(
    res,
    [request.id],
    false,
    {},
    (completed) => {
      // Closing the response before the answer is the client's cancellation (2026-07-28 has no notifications/cancelled over HTTP).
      if (!completed && !done) cancellation.abort(new Error('the client closed the request'));
    },
    keptAlive,
  );
  // A relayed result answered as it arrives (ResultSink) completes the exchange; the answer
  // returned after it is then the same message, and respond() ignores it.
  const outcome = await kernel.endpoint.serveStateless(
    request,
    envelope,
    callerOf(kernel, req),
    (n) => exchange.notify(n),
    cancellation,
    (message) => exchange.respond(message),
  );
  done = true;
  if (outcome.status === 200) exchange.respond(outcome.message);
  else exchange.refuse(outcome.status, outcome.message, {});
  return true;
}
