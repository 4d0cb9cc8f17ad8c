/**
 * The transport of a remote (streamable-http or sse) server. A server whose URL a caller
 * chose (outboundChecked: created through a core tool, or re-pointed by one) connects under
 * the outbound policy: its host is resolved and checked on every (re)connect, and its sockets
 * go to that checked address only. Neither transport follows a redirect elsewhere: ours never
 * follows one, and the SDK's SSE transport follows only within the origin, which the pinned
 * fetch sends to the same checked address. An operator's server connects as written.
 */
import type { Transport } from '#mcp-sdk/shared/transport.js';
import type { McpServerDefinition } from '../../../kernel/index.js';
import { pinnedFetch } from '../../../lib/net/pinned-fetch.js';
import { normalHost, outboundChecked, pinnedLookup, type OutboundPolicy } from '../../../lib/net/outbound-policy.js';
import { StreamableHttpClientTransport, type BearerSource } from './http-client-transport.js';

/**
 * The SDK's SSE client transport, loaded for the first `type: sse` server only: it brings the
 * eventsource package, which a Switchboard without one (nearly all) loaded at every start.
 */
function sseModule(): Promise<typeof import('#mcp-sdk/client/sse.js')> {
  return import('#mcp-sdk/client/sse.js');
}

/** Rejects with OutboundRefusedError when the policy refuses where a caller's URL leads. */
export async function remoteTransport(
  def: McpServerDefinition,
  headers: Record<string, string>,
  policy: OutboundPolicy,
  bearer?: BearerSource,
): Promise<Transport> {
  const url = new URL(def.url!);
  if (!outboundChecked(def)) {
    if (def.type !== 'sse') return new StreamableHttpClientTransport(url, headers, def.maxMessageBytes, bearer);
    const { SSEClientTransport } = await sseModule();
    return new SSEClientTransport(url, { requestInit: { headers } });
  }
  const pinned = await policy.resolve(url.hostname, 'url');
  if (def.type !== 'sse') return new StreamableHttpClientTransport(url, headers, def.maxMessageBytes, bearer, pinnedLookup(pinned));
  const { SSEClientTransport } = await sseModule();
  const host = normalHost(url.hostname);
  const fetch = pinnedFetch({ stream: true, resolve: (u) => (normalHost(u.hostname) === host ? Promise.resolve(pinned) : policy.resolve(u.hostname, 'url')) });
  return new SSEClientTransport(url, { requestInit: { headers }, fetch });
}
