/** Reading a JSON request body within a byte limit, with the HTTP answers for when it is not. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', id: null, error: { code, message } });
}

export async function readJsonBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<{ ok: true; body: unknown } | { ok: false }> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    jsonRpcError(res, 413, -32600, `Request body of ${declared} bytes exceeds the limit of ${limit} bytes`);
    req.resume();
    return { ok: false };
  }
  // Events rather than `for await`: an async iterator costs a promise per chunk on the hot
  // path. Plain `on` (the request is read once): `once` wraps every listener per request.
  const chunks = await new Promise<Buffer[] | undefined>((resolve) => {
    const got: Buffer[] = [];
    let size = 0;
    const gone = () => resolve(undefined);
    req.on('data', (chunk: Buffer) => {
      if (size > limit) return;
      size += chunk.length;
      if (size > limit) {
        jsonRpcError(res, 413, -32600, `Request body exceeds the limit of ${limit} bytes`);
        req.destroy();
        resolve(undefined);
        return;
      }
      got.push(chunk);
    });
    req.on('end', () => resolve(got));
    req.on('error', gone);
    req.on('close', gone);
  });
  if (!chunks) return { ok: false };
  const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch (err) {
    jsonRpcError(res, 400, -32700, `Parse error: request body is not valid JSON (${(err as Error).message})`);
    return { ok: false };
  }
}
