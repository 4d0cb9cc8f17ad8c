/**
 * core_mcpserver_detect: what is at a URL? Tries a streamable-HTTP initialize, then a
 * legacy SSE stream, and reports what answered. Never fails for an unreachable or
 * unclassifiable URL: that is transport `unknown` with the reason in `detail`.
 *
 * The URL is the caller's, so it obeys the outbound policy (lib/net/outbound-policy.ts):
 * an address the policy refuses is an error result (FORBIDDEN), not a detection; the name is
 * resolved once and every probe goes to that checked address; a redirect is reported, never
 * followed (following one would let a public URL lead the probe to a refused address).
 * Alongside the probes it reads the server's card (server-card-reader.ts) under the same rules.
 */
import type { ReadableStreamDefaultReader } from 'node:stream/web';
import { Client } from '#mcp-sdk/client/index.js';
import type { FetchLike } from '#mcp-sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION } from '#mcp-sdk/types.js';
import { SERVER_INFO } from '../../kernel/index.js';
import { SseParser } from '../../lib/mcp/sse-parser.js';
import { pinnedFetch } from '../../lib/net/pinned-fetch.js';
import { normalHost, OutboundRefusedError, type OutboundPolicy, type PinnedAddress } from '../../lib/net/outbound-policy.js';
import { MAX_CARD_BYTES, readCard, type CardReport } from './server-card-reader.js';

/** A probe reads this much of an answer that is not an event stream: an initialize result is small. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export interface Detection {
  url: string;
  transport: 'streamable-http' | 'sse' | 'unknown';
  reachable: boolean;
  requiresAuth: boolean;
  serverName?: string;
  serverVersion?: string;
  detail: string;
  /** The server's card at <origin>/.well-known/mcp/server-card.json; absent when the URL could not be resolved. */
  card?: CardReport;
}

interface ServerInfo {
  name?: string;
  version?: string;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: `${SERVER_INFO.name}-detect`, version: SERVER_INFO.version } },
};

/** The first SSE event named `name` (or any `message` with an id-1 result for initialize). */
async function firstEvent(res: Response, want: (event: string, data: string) => boolean, signal: AbortSignal): Promise<string | undefined> {
  if (!res.body) return undefined;
  const reader = res.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const decoder = new TextDecoder();
  let found: string | undefined;
  const parser = new SseParser((e) => {
    if (found === undefined && want(e.event, e.data)) found = e.data;
  });
  try {
    while (found === undefined && !signal.aborted) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return found;
}

/** The body as text, at most MAX_ANSWER_BYTES of it (a probe must not be made to swallow an endless answer). */
async function textOf(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size <= MAX_ANSWER_BYTES) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function serverInfoOf(text: string | undefined): ServerInfo | undefined {
  if (!text) return undefined;
  try {
    const msg = JSON.parse(text) as { result?: { serverInfo?: ServerInfo } } | { result?: { serverInfo?: ServerInfo } }[];
    const one = Array.isArray(msg) ? msg[0] : msg;
    return one?.result?.serverInfo;
  } catch {
    return undefined;
  }
}

function challenged(res: Response): boolean {
  return res.status === 401;
}

/** "redirected to <location>, not followed" for a 3xx, else undefined. */
function redirect(method: string, res: Response): string | undefined {
  if (res.status < 300 || res.status > 399) return undefined;
  const location = (res.headers.get('location') ?? '').slice(0, 512);
  return `${method} answered ${res.status}, redirected to ${location || '(no Location)'}, not followed`;
}

/** Throws OutboundRefusedError (FORBIDDEN) when `policy` refuses where `url` leads. */
export async function detect(url: string, headers: Record<string, string>, timeoutSeconds: number, policy: OutboundPolicy): Promise<Detection> {
  const out: Detection = { url, transport: 'unknown', reachable: false, requiresAuth: false, detail: '' };
  let target: URL;
  try {
    target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`unsupported scheme '${target.protocol}'`);
  } catch (err) {
    out.detail = `not a usable URL: ${(err as Error).message}`;
    return out;
  }
  const deadline = AbortSignal.timeout(timeoutSeconds * 1000);
  let pinned: PinnedAddress;
  try {
    pinned = await policy.resolve(target.hostname, 'url');
  } catch (err) {
    if (err instanceof OutboundRefusedError) throw err;
    out.detail = `unreachable: ${(err as Error).message}`;
    return out;
  }
  const host = normalHost(target.hostname);
  // Every probe (and the SDK's SSE handshake) connects to the checked address; anything else is checked afresh.
  const resolve = (u: URL) => (normalHost(u.hostname) === host ? Promise.resolve(pinned) : policy.resolve(u.hostname, 'url'));
  const fetch: FetchLike = pinnedFetch({ stream: true, resolve });

  // The card is asked for alongside the probes, within the same deadline.
  const card = readCard(target.origin, pinnedFetch({ maxBodyBytes: MAX_CARD_BYTES, resolve }), deadline);
  await probe(target, headers, timeoutSeconds, deadline, fetch, out);
  out.card = await card;
  return out;
}

/** The streamable-HTTP, then the legacy SSE probe: what answered goes into `out`. */
async function probe(
  target: URL,
  headers: Record<string, string>,
  timeoutSeconds: number,
  deadline: AbortSignal,
  fetch: FetchLike,
  out: Detection,
): Promise<void> {
  const notes: string[] = [];
  // 1. Streamable HTTP: POST initialize.
  try {
    const res = await fetch(target, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(INITIALIZE),
      signal: deadline,
    });
    out.reachable = true;
    const moved = redirect('POST', res);
    if (moved) {
      notes.push(moved);
      await res.body?.cancel();
    } else if (challenged(res)) {
      out.requiresAuth = true;
      notes.push(`POST answered 401${res.headers.get('www-authenticate') ? ` (WWW-Authenticate: ${res.headers.get('www-authenticate')})` : ''}`);
      await res.body?.cancel();
    } else if (res.ok) {
      const type = res.headers.get('content-type') ?? '';
      const body = type.includes('text/event-stream')
        ? await firstEvent(res, (event, data) => event === 'message' && data.includes('"id":1'), deadline)
        : await textOf(res);
      const info = serverInfoOf(body);
      if (info) {
        out.transport = 'streamable-http';
        if (info.name) out.serverName = info.name;
        if (info.version) out.serverVersion = info.version;
        notes.push('streamable-HTTP handshake completed');
        const session = res.headers.get('mcp-session-id');
        if (session) {
          // Be polite: end the session the probe opened.
          await fetch(target, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': session }, signal: deadline }).then(
            (r) => r.body?.cancel(),
            () => undefined,
          );
        }
        out.detail = notes.join('; ');
        return;
      }
      notes.push(`POST answered ${res.status} without an MCP initialize result`);
    } else {
      notes.push(`POST answered ${res.status}`);
      await res.body?.cancel();
    }
  } catch (err) {
    if (deadline.aborted) {
      out.detail = `no answer within ${timeoutSeconds} s`;
      return;
    }
    out.detail = `unreachable: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`;
    return;
  }

  // 2. Legacy SSE: GET must open an event stream announcing the POST endpoint.
  try {
    const res = await fetch(target, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' }, signal: deadline });
    const moved = redirect('GET', res);
    if (moved) {
      notes.push(moved);
      await res.body?.cancel();
    } else if (challenged(res)) {
      out.requiresAuth = true;
      notes.push('GET answered 401');
      await res.body?.cancel();
    } else if (res.ok && (res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      const endpoint = await firstEvent(res, (event) => event === 'endpoint', deadline);
      if (endpoint !== undefined) {
        out.transport = 'sse';
        notes.push(`SSE stream announced endpoint ${endpoint}`);
        const info = await sseHandshake(target, headers, deadline, fetch);
        if (info) {
          if (info.name) out.serverName = info.name;
          if (info.version) out.serverVersion = info.version;
          notes.push('SSE handshake completed');
        }
      } else {
        notes.push('GET opened an event stream without an endpoint event');
      }
    } else {
      notes.push(`GET answered ${res.status}`);
      await res.body?.cancel();
    }
  } catch (err) {
    notes.push(deadline.aborted ? `no SSE answer within ${timeoutSeconds} s` : `GET failed: ${(err as Error).message}`);
  }
  out.detail = notes.join('; ');
  return;
}

async function sseHandshake(url: URL, headers: Record<string, string>, signal: AbortSignal, fetch: FetchLike): Promise<ServerInfo | undefined> {
  const client = new Client({ name: `${SERVER_INFO.name}-detect`, version: SERVER_INFO.version });
  try {
    // Loaded for a detection that gets this far: it brings eventsource, which a start does not need.
    const { SSEClientTransport } = await import('#mcp-sdk/client/sse.js');
    await client.connect(new SSEClientTransport(url, { requestInit: { headers }, fetch }), { signal });
    return client.getServerVersion();
  } catch {
    return undefined;
  } finally {
    await client.close().catch(() => undefined);
  }
}
