/**
 * The URL of a remote server written through core_mcpserver_create/update is the caller's
 * choice, and Switchboard connects to it with headers the caller chose: it obeys the outbound
 * policy (lib/net/outbound-policy.ts) when it is written, so a refused address is a clear
 * error at once rather than a server that never connects. The connection checks again (the
 * name may point elsewhere by then) and connects to the address it checked.
 */
import type { McpServerDefinition, Settings } from '../../kernel/index.js';
import { OutboundRefusedError, outboundPolicy } from '../../lib/net/outbound-policy.js';

type Remote = Pick<McpServerDefinition, 'type' | 'url'>;

function isRemote(def: Partial<Remote>): def is Remote & { url: string } {
  return (def.type === 'streamable-http' || def.type === 'sse') && typeof def.url === 'string';
}

/**
 * Whether an update gives the server a URL it did not have: a changed url, or a stdio server
 * made remote. A URL sent back unchanged is not new (the operator's stays the operator's).
 */
export function newUrl(stored: Partial<Remote>, next: Partial<Remote>): boolean {
  return isRemote(next) && (!isRemote(stored) || stored.url !== next.url);
}

/**
 * Throws FORBIDDEN (field `url`, rule aggregator.network.allow) when the definition's URL leads
 * to an address the policy refuses. A name that does not resolve (yet) passes: nothing can be
 * reached through it now, and the connection is checked when it is made.
 */
export async function checkRuntimeUrl(settings: Settings, def: Partial<Remote>): Promise<void> {
  if (!isRemote(def)) return;
  let host: string;
  try {
    host = new URL(def.url).hostname;
  } catch {
    return; // Not a URL: the definition's schema check names that.
  }
  try {
    await outboundPolicy(settings).resolve(host, 'url');
  } catch (err) {
    if (err instanceof OutboundRefusedError) throw err;
  }
}
