/**
 * The audiences servers want in the person's forwarded token (auth.requiredAudiences of every
 * server that forwards it), as the scopes that ask an identity provider for them: Dex's
 * cross-client form `audience:server:client_id:<audience>`. Asked at each sign-in, so a
 * server added later is served from the person's next sign-in on.
 */
import type { McpServerDefinition } from '../../kernel/index.js';
import { authMode } from './auth-mode.js';

export function audienceScopes(servers: Iterable<{ value: McpServerDefinition }>): string[] {
  const out = new Set<string>();
  for (const { value } of servers) {
    if (authMode(value).kind !== 'forward') continue;
    for (const audience of value.auth?.requiredAudiences ?? []) out.add(`audience:server:client_id:${audience}`);
  }
  return [...out].sort();
}
