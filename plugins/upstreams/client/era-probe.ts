/**
 * Which MCP era an upstream speaks, asked once per connection before any SDK client attaches:
 * `server/discover` with a 2026-07-28 envelope first (the modern spec's MUST), and whatever a
 * legacy server answers to that (-32601, -32602, an HTTP 400/404/405 for a request without a
 * session, a -32022 that offers no modern version) means "initialize as before" on the same
 * transport. So a 2025-11-25 server costs one extra round trip per connect, nothing per call.
 * An HTTP server that does not answer at all is an outage (the connect timeout, as before); a
 * stdio server that stays silent is a legacy one that ignores requests before initialize.
 */
import type { Transport } from '#mcp-sdk/shared/transport.js';
import type { JSONRPCMessage } from '#mcp-sdk/types.js';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO,
  TimeoutError,
} from '../../../kernel/index.js';
import { HttpStatusError } from './http-answer.js';

/** What a modern upstream's server/discover said, as the v2 SDK client adopts it (`prior`). */
export interface DiscoverResult {
  supportedVersions: string[];
  capabilities: Record<string, unknown>;
  instructions?: string;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

export type Era = { era: 'legacy' } | { era: 'modern'; version: string; discover: DiscoverResult };

/** What Switchboard tells a modern upstream about itself (the same as the initialize of a legacy one). */
export const UPSTREAM_CLIENT_CAPABILITIES = { sampling: { tools: {} }, elicitation: { form: {}, url: {} }, roots: {} } as const;

const PROBE_ID = 'switchboard-era-probe';

/**
 * Starts `transport` and asks it. `modernHeaders` turns on the 2026-07-28 headers for the
 * probe (HTTP); it is called with false again when the answer is legacy, so the initialize
 * that follows goes out exactly as it did before.
 */
export async function probeEra(
  transport: Transport,
  timeoutMs: number,
  server: string,
  kind: 'stdio' | 'http',
  modernHeaders?: (on: boolean) => void,
): Promise<Era> {
  let settle: (m: JSONRPCMessage | undefined) => void = () => undefined;
  const answered = new Promise<JSONRPCMessage | undefined>((resolve) => (settle = resolve));
  transport.onmessage = (m) => {
    if ('id' in m && m.id === PROBE_ID && !('method' in m)) settle(m);
  };
  const closed = new Promise<'closed'>((resolve) => (transport.onclose = () => resolve('closed')));
  let failure: Error | undefined;
  transport.onerror = (err) => (failure ??= err);
  await transport.start();
  modernHeaders?.(true);
  const version = MODERN_PROTOCOL_VERSIONS[0]!;
  let timer: NodeJS.Timeout | undefined;
  try {
    const sent = transport
      .send({
        jsonrpc: '2.0',
        id: PROBE_ID,
        method: 'server/discover',
        params: {
          _meta: {
            [PROTOCOL_VERSION_META_KEY]: version,
            [CLIENT_CAPABILITIES_META_KEY]: UPSTREAM_CLIENT_CAPABILITIES,
            [CLIENT_INFO_META_KEY]: { name: SERVER_INFO.name, version: SERVER_INFO.version },
          },
        },
      })
      .then(() => 'sent' as const);
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const first = await Promise.race([sent, answered, timeout, closed]);
    const outcome = first === 'sent' ? await Promise.race([answered, timeout, closed]) : first;
    if (outcome === 'closed') throw failure ?? new Error(`'${server}' closed the connection when asked server/discover`);
    if (outcome === 'timeout') {
      if (kind === 'http') throw new TimeoutError(`connecting to '${server}'`, timeoutMs);
      return legacy(modernHeaders);
    }
    const result = outcome && 'result' in outcome ? (outcome.result as Partial<DiscoverResult>) : undefined;
    const offered = Array.isArray(result?.supportedVersions) ? result.supportedVersions : [];
    const chosen = MODERN_PROTOCOL_VERSIONS.find((v) => offered.includes(v));
    if (!result || chosen === undefined) return legacy(modernHeaders);
    return { era: 'modern', version: chosen, discover: { ...result, supportedVersions: offered, capabilities: result.capabilities ?? {} } };
  } catch (err) {
    // A refused sign-in (401/403) is the connection's answer; any other refusal of the request is a legacy server's.
    if (err instanceof HttpStatusError && err.status !== 401 && err.status !== 403) return legacy(modernHeaders);
    throw err;
  } finally {
    clearTimeout(timer);
    transport.onmessage = undefined;
    transport.onclose = undefined;
    transport.onerror = undefined;
  }
}

function legacy(modernHeaders: ((on: boolean) => void) | undefined): Era {
  modernHeaders?.(false);
  return { era: 'legacy' };
}
