/** Reading a JSON request body within a byte limit, with the HTTP answers for when it is not. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_DEPTH, nestsDeeperThan, OPEN_BRACKET, SCAN_FROM_BYTES } from './nesting.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', id: null, error: { code, message } });
}

/** The first byte of `chunk` that is not JSON whitespace, or -1. */
function firstByte(chunk: Buffer): number {
  for (const b of chunk) if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return b;
  return -1;
}

type BodyRead = { ok: true; body: unknown } | { ok: false };

/**
 * The body parsed; `{ ok: false }` when it was refused (answered here: over the limit, an
 * array refused, not JSON) or the request went away.
 */
export function readJsonBody(req: IncomingMessage, res: ServerResponse, limit: number, refuseArray?: string): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    jsonRpcError(res, 413, -32600, `Request body of ${declared} bytes exceeds the limit of ${limit} bytes`);
    req.resume();
    return Promise.resolve({ ok: false });
  }
  // One promise, settled from the request's events: an async iterator costs a promise per
  // chunk, and an async function around this promise two more, on the hot path. Plain `on`
  // (the request is read once): `once` wraps every listener per request.
  return new Promise<BodyRead>((resolve) => {
    // Settled once: after a refusal the request's `end` still comes, and must not parse what
    // was let through unread (nor answer a second time).
    let settled = false;
    const settle = (read: BodyRead) => {
      if (settled) return;
      settled = true;
      resolve(read);
    };
    const got: Buffer[] = [];
    let size = 0;
    // Whether the first byte is still to be seen (only when an array is to be refused).
    let looking = refuseArray !== undefined;
    const gone = () => settle({ ok: false });
    req.on('data', (chunk: Buffer) => {
      if (size > limit) return;
      if (looking) {
        const first = firstByte(chunk);
        looking = first === -1;
        if (first === OPEN_BRACKET) {
          // Refused whole from its first byte: the rest is let through unread (the connection stays usable).
          jsonRpcError(res, 400, -32600, refuseArray!);
          size = limit + 1;
          settle({ ok: false });
          return;
        }
      }
      size += chunk.length;
      if (size > limit) {
        jsonRpcError(res, 413, -32600, `Request body exceeds the limit of ${limit} bytes`);
        req.destroy();
        settle({ ok: false });
        return;
      }
      got.push(chunk);
    });
    req.on('end', () => {
      if (!settled) settle(parsed(got, res));
    });
    req.on('error', gone);
    req.on('close', gone);
  });
}

/** The chunks of a body read whole, parsed; a body that is not JSON is answered 400 here. */
function parsed(chunks: readonly Buffer[], res: ServerResponse): BodyRead {
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  if (bytes.length > SCAN_FROM_BYTES && nestsDeeperThan(bytes, MAX_BODY_DEPTH)) {
    jsonRpcError(res, 400, -32600, `Invalid Request: the request body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep`);
    return { ok: false };
  }
  const text = bytes.toString('utf8');
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch (err) {
    jsonRpcError(res, 400, -32700, `Parse error: request body is not valid JSON (${(err as Error).message})`);
    return { ok: false };
  }
}
