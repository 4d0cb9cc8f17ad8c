/**
 * The brokered exchange's configuration, resolved at start: broker client secrets and
 * target credentials read from their files, endpoints checked. Kept apart from broker.ts so
 * start-up reads it without loading oidc-provider.
 */
import type { BrokerTarget, TokenExchangeBroker } from '../../kernel/config/settings.js';
import { isLoopbackHost } from '../../kernel/net/private-address.js';
import { resolveSecretValue, type ResolveContext } from '../../kernel/secrets/secret-value.js';

export interface ResolvedTarget {
  config: BrokerTarget;
  credentials?: { clientId: string; secret: string };
}

export interface Broker {
  clients: Map<string, string>;
  audiences: Map<string, Set<string>>;
  targets: Map<string, ResolvedTarget>;
  allowPrivate: boolean;
}

const where = (path: string) => `aggregator.oauth.server.tokenExchangeBroker.${path}`;

/** Secrets read once at start; a secret only the orchestrator holds stops startup in file mode, naming the field. */
export function resolveBroker(config: TokenExchangeBroker, ctx: ResolveContext): Broker {
  const fromFile = (file: string, field: string) => resolveSecretValue({ fromFile: file }, where(field), ctx);
  const clients = new Map<string, string>();
  for (const [id, c] of Object.entries(config.brokerClients)) {
    if (!c.clientSecretFile) throw new Error(`${where(`brokerClients.${id}`)}: needs clientSecretFile (clientCredentialsSecretRef is read from the orchestrator, which this mode has not)`);
    clients.set(id, fromFile(c.clientSecretFile, `brokerClients.${id}.clientSecretFile`));
  }
  const targets = new Map<string, ResolvedTarget>();
  for (const [audience, t] of Object.entries(config.targets)) {
    if (t.grantIssuer) {
      targets.set(audience, { config: t });
      continue;
    }
    if (!t.clientId || !t.clientSecretFile) throw new Error(`${where(`targets.${audience}`)}: needs clientId and clientSecretFile (clientCredentialsSecretRef is read from the orchestrator, which this mode has not)`);
    const endpoint = new URL(t.idpTokenEndpoint!);
    if (endpoint.protocol !== 'https:' && !(config.allowPrivateIP && isLoopbackHost(endpoint.hostname))) {
      throw new Error(`${where(`targets.${audience}.idpTokenEndpoint`)}: must be an https URL`);
    }
    targets.set(audience, { config: t, credentials: { clientId: t.clientId, secret: fromFile(t.clientSecretFile, `targets.${audience}.clientSecretFile`) } });
  }
  const audiences = new Map(Object.entries(config.clientAudiences).map(([id, list]) => [id, new Set(list)]));
  return { clients, audiences, targets, allowPrivate: config.allowPrivateIP };
}
