/**
 * A server's `auth` block as its status shows it (core_service_status, the admin pages): the
 * mode in force and whether it can work in this deployment. A mode that cannot (token
 * forwarding without the OAuth server, a sign-in without the OAuth client) is reported with
 * the reason, never dropped in silence.
 */
import type { JsonObject, KernelApi, McpServerDefinition } from '../../kernel/index.js';
import { authMode } from '../../lib/server-auth/auth-mode.js';

const MODE_NAMES = { none: 'none', 'sign-in': 'oauth', forward: 'forwardToken', exchange: 'tokenExchange' } as const;

export function authStatus(def: McpServerDefinition, kernel: Pick<KernelApi, 'services'>): JsonObject {
  const mode = authMode(def);
  const why = ((): string | undefined => {
    switch (mode.kind) {
      case 'none':
        return undefined;
      case 'sign-in':
        return kernel.services.find('upstream-credentials')
          ? undefined
          : 'the OAuth client is off (oauth.mcpClient.enabled): nobody can sign in to this server';
      case 'forward':
      case 'exchange': {
        if (!kernel.services.find('caller-tokens'))
          return `the OAuth server is off (aggregator.oauth.server.enabled): nobody is signed in, so there is no person's token to ${mode.kind === 'forward' ? 'forward' : 'exchange'} and calls fail`;
        if (mode.kind === 'exchange' && mode.target.credentials.from === 'secret' && !kernel.services.find('orchestrator-secrets'))
          return 'clientCredentialsSecretRef names an orchestrator Secret, and this deployment has none (use clientId and clientSecretFile)';
        return undefined;
      }
    }
  })();
  return {
    mode: MODE_NAMES[mode.kind],
    active: why === undefined && mode.kind !== 'none',
    ...(mode.kind === 'sign-in' && mode.pinned ? { authorizationServer: mode.pinned.issuer } : {}),
    ...(why ? { reason: why } : {}),
  };
}
