/**
 * The brokered exchange's configuration, resolved at start: broker client secrets and
 * target credentials read from their files, endpoints checked. Kept apart from broker.ts so
 * start-up reads it without loading oidc-provider.
 */
import { type BrokerTarget, type OrchestratorSecrets, type ResolveContext, type SecretRef, type TokenExchangeBroker } from '../../kernel/index.js';
import { isLoopbackHost } from '../../lib/net/address-class.js';
import { RenewableSecret, renewableReference } from '../../lib/secrets/renewable-secret.js';

export interface ResolvedTarget {
  config: BrokerTarget;
  /** Read again (its file, or its Secret) when the downstream provider refuses it. */
  credentials?: { clientId: string; secret: RenewableSecret };
}

export interface Broker {
  /** Each broker client's secret, read again at most once a second as clients present theirs (provider.ts). */
  clients: Map<string, RenewableSecret>;
  audiences: Map<string, Set<string>>;
  targets: Map<string, ResolvedTarget>;
  allowPrivate: boolean;
}

const where = (path: string) => `aggregator.oauth.server.tokenExchangeBroker.${path}`;

/** Reads a clientCredentialsSecretRef: both keys, or an error naming the field, the Secret and the key. */
async function fromSecret(
  ref: SecretRef,
  field: string,
  secrets: OrchestratorSecrets | undefined,
  onSecret: ((v: string) => void) | undefined,
): Promise<{ clientId?: string; secret: string }> {
  if (!secrets)
    throw new Error(
      `${where(field)}: clientCredentialsSecretRef names an orchestrator secret, and this mode has none (orchestrator: true reads it; in file mode use a file)`,
    );
  let data: Record<string, string>;
  try {
    data = await secrets.read(ref.name, ref.namespace);
  } catch (err) {
    throw new Error(`${where(field)}: ${(err as Error).message}`, { cause: err });
  }
  const secret = data[ref.clientSecretKey];
  if (!secret) throw new Error(`${where(field)}: the secret '${ref.name}' has no key '${ref.clientSecretKey}'`);
  onSecret?.(secret);
  const clientId = data[ref.clientIdKey];
  return clientId ? { clientId, secret } : { secret };
}

/**
 * Secrets read at start: from files, or (orchestrator mode) from the Secrets a
 * clientCredentialsSecretRef names. Anything missing stops startup, naming the field. A
 * target's secret is read again when the downstream provider refuses it (broker.ts), a broker
 * client's as clients present theirs (provider.ts).
 */
export async function resolveBroker(config: TokenExchangeBroker, ctx: ResolveContext, secrets?: OrchestratorSecrets): Promise<Broker> {
  const fromFile = (file: string, field: string) => renewableReference({ fromFile: file }, where(field), ctx);
  /** A Secret's value, read now and again (through the API server) at each renewal. */
  const fromSecretRenewed = async (ref: SecretRef, field: string): Promise<{ clientId?: string; secret: RenewableSecret }> => {
    const read = await fromSecret(ref, field, secrets, ctx.onSecret);
    const reread = async () => (await fromSecret(ref, field, secrets, ctx.onSecret)).secret;
    return { ...(read.clientId !== undefined ? { clientId: read.clientId } : {}), secret: new RenewableSecret(read.secret, reread) };
  };
  const clients = new Map<string, RenewableSecret>();
  for (const [id, c] of Object.entries(config.brokerClients)) {
    const field = `brokerClients.${id}`;
    if (c.clientCredentialsSecretRef) clients.set(id, (await fromSecretRenewed(c.clientCredentialsSecretRef, `${field}.clientCredentialsSecretRef`)).secret);
    else if (c.clientSecretFile) clients.set(id, fromFile(c.clientSecretFile, `${field}.clientSecretFile`));
    else throw new Error(`${where(field)}: needs clientSecretFile or clientCredentialsSecretRef`);
  }
  const targets = new Map<string, ResolvedTarget>();
  for (const [audience, t] of Object.entries(config.targets)) {
    if (t.grantIssuer) {
      targets.set(audience, { config: t });
      continue;
    }
    const field = `targets.${audience}`;
    const endpoint = new URL(t.idpTokenEndpoint!);
    if (endpoint.protocol !== 'https:' && !(config.allowPrivateIP && isLoopbackHost(endpoint.hostname))) {
      throw new Error(`${where(`${field}.idpTokenEndpoint`)}: must be an https URL`);
    }
    let credentials: { clientId: string; secret: RenewableSecret };
    if (t.clientCredentialsSecretRef) {
      const read = await fromSecretRenewed(t.clientCredentialsSecretRef, `${field}.clientCredentialsSecretRef`);
      const clientId = read.clientId ?? t.clientId;
      if (!clientId)
        throw new Error(
          `${where(`${field}.clientCredentialsSecretRef`)}: the secret '${t.clientCredentialsSecretRef.name}' has no key '${t.clientCredentialsSecretRef.clientIdKey}'`,
        );
      credentials = { clientId, secret: read.secret };
    } else if (t.clientId && t.clientSecretFile) {
      credentials = { clientId: t.clientId, secret: fromFile(t.clientSecretFile, `${field}.clientSecretFile`) };
    } else {
      throw new Error(`${where(field)}: needs clientCredentialsSecretRef, or clientId and clientSecretFile`);
    }
    targets.set(audience, { config: t, credentials });
  }
  const audiences = new Map(Object.entries(config.clientAudiences).map(([id, list]) => [id, new Set(list)]));
  return { clients, audiences, targets, allowPrivate: config.allowPrivateIP };
}
