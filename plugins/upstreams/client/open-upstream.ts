/**
 * Opens the session an upstream's transport carries, in the era the server speaks
 * (era-probe.ts): the v2 client for a 2026-07-28 server, the v1 client's initialize for a
 * 2025-11-25 one, as before. SSE is a 2025-era transport only, so it is never probed.
 */
import type { Transport } from '#mcp-sdk/shared/transport.js';
import type { Logger, McpServerDefinition, SecretsApi } from '../../../kernel/index.js';
import type { ClientRelay } from './client-relay.js';
import { probeEra } from './era-probe.js';
import { StreamableHttpClientTransport } from './http-client-transport.js';
import { handshake, UpstreamClient, type CallFailures } from './upstream-client.js';
import type { UpstreamSession } from './upstream-session.js';

export interface SessionNeeds {
  relay: ClientRelay;
  secrets: SecretsApi;
  failures: CallFailures;
  log: Logger;
}

/** Rejects as the handshake did (the transport's own failure, a timeout, a 401 challenge); the caller closes the transport. */
export async function openUpstream(transport: Transport, def: McpServerDefinition, needs: SessionNeeds): Promise<UpstreamSession> {
  const timeoutMs = def.timeout * 1000;
  if (def.type !== 'sse') {
    const http = transport instanceof StreamableHttpClientTransport ? transport : undefined;
    const era = await probeEra(transport, timeoutMs, def.name, def.type === 'stdio' ? 'stdio' : 'http', http ? (on) => http.speakModern(on) : undefined);
    if (era.era === 'modern') {
      // The v2 SDK (~8 MB of heap) is loaded by the first modern upstream, not by every start.
      const { connectModern } = await import('./modern-upstream.js');
      return connectModern(transport, era.version, era.discover, timeoutMs, needs);
    }
  }
  const connected = await handshake(transport, timeoutMs, def.name);
  if (connected.failed) {
    await connected.client.close().catch(() => undefined);
    throw connected.error;
  }
  return new UpstreamClient(connected.client, transport, needs.relay, needs.secrets, needs.failures, needs.log, connected.protocolVersion);
}
