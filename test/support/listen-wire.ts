/**
 * A 2026-07-28 `subscriptions/listen` as any client could send it, read off the wire: the
 * SSE events as they arrive, or the JSON answer of a refusal (test/e2e/modern-listen,
 * test/security/listen-abuse).
 */
import { request as httpRequest, type ClientRequest } from 'node:http';

const MODERN = '2026-07-28';

export type Message = {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

export interface RawListen {
  status: number;
  /** The refusal, when the answer was JSON rather than a stream. */
  refusal?: Message;
  /** Every message so far, in order. */
  readonly messages: Message[];
  /** Keep-alive comments so far. */
  keepAlives: number;
  /** Resolves when the stream ended (either side). */
  readonly ended: Promise<void>;
  /** Resolves with the first message (from the start) that `match` accepts. */
  next(match: (m: Message) => boolean, timeoutMs?: number): Promise<Message>;
  close(): void;
}

export function listenBody(id: string | number, notifications: Record<string, unknown>): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: {
      notifications,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'wire', version: '1' },
      },
    },
  });
}

/** Opens a listen; `read: false` never reads the response (the socket is paused once the head arrived). */
export function openListen(
  url: string,
  notifications: Record<string, unknown>,
  options: { id?: string | number; headers?: Record<string, string>; read?: boolean } = {},
): Promise<RawListen> {
  const body = listenBody(options.id ?? 'listen-1', notifications);
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined;
    const waiters: { match: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
    let endedResolve: () => void = () => undefined;
    const raw: RawListen = {
      status: 0,
      messages: [],
      keepAlives: 0,
      ended: new Promise<void>((r) => (endedResolve = r)),
      next(match, timeoutMs = 10_000) {
        const found = raw.messages.find(match);
        if (found) return Promise.resolve(found);
        return new Promise((res, rej) => {
          const timer = setTimeout(
            () => rej(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(raw.messages).slice(0, 2000)}`)),
            timeoutMs,
          );
          waiters.push({
            match,
            resolve: (m) => {
              clearTimeout(timer);
              res(m);
            },
          });
        });
      },
      close: () => req?.destroy(),
    };
    req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': 'subscriptions/listen',
          'content-length': Buffer.byteLength(body),
          ...options.headers,
        },
      },
      (res) => {
        raw.status = res.statusCode ?? 0;
        res.once('close', () => endedResolve());
        res.once('error', () => endedResolve());
        if (!String(res.headers['content-type']).includes('text/event-stream')) {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.once('end', () => {
            raw.refusal = JSON.parse(text) as Message;
            resolve(raw);
          });
          return;
        }
        if (options.read === false) {
          res.pause();
          resolve(raw);
          return;
        }
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const event = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (event.startsWith(':')) {
              raw.keepAlives++;
              continue;
            }
            const data = event
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (!data) continue;
            const message = JSON.parse(data) as Message;
            raw.messages.push(message);
            for (const w of [...waiters]) {
              if (w.match(message)) {
                waiters.splice(waiters.indexOf(w), 1);
                w.resolve(message);
              }
            }
          }
        });
        resolve(raw);
      },
    );
    req.once('error', (err) => {
      endedResolve();
      if (raw.status === 0) reject(err);
    });
    req.end(body);
  });
}

export const isMethod = (method: string) => (m: Message) => m.method === method;
