/**
 * auth-client: Switchboard as an OAuth client of remote MCP servers that answer 401
 * (docs/oauth-client.md). Active when oauth.mcpClient.enabled. Each caller signs in for
 * themselves (core_auth_login → browser → callback); the upstreams plugin then connects to
 * the server with that caller's token and shows its tools to that caller only.
 */
import type { OAuthClientInformationMixed } from '#mcp-sdk/shared/auth.js';
import type { FetchLike } from '#mcp-sdk/shared/transport.js';
import { definePlugin, ownerOf, publishCoreTools, resolveSecretValue, SerialQueue, type KernelApi, type ResolveContext } from '../../kernel/index.js';
import { pinnedFetch } from '../../lib/net/pinned-fetch.js';
import { renewableReference } from '../../lib/secrets/renewable-secret.js';
import { outboundChecked, outboundPolicy } from '../../lib/net/outbound-policy.js';
import { ClientRegistry } from './clients.js';
import { applicationTypeFor, type FlowSettings } from './flow.js';
import { Grants } from './grants.js';
import { CLIENT_METADATA_PATH, mountRoutes, START_PATH } from './routes.js';
import { SignIns, type RecordEvent } from './sign-ins.js';
import { SignInElicitations } from './sign-in-elicitations.js';
import { authTools } from './tools.js';
import { ClientPersistence } from './persistence.js';
import { GrantSync } from './grant-sync.js';
import { SealedStore } from '../../lib/grants/sealed-store.js';
import { MemorySingleUseValues } from '../../lib/single-use/memory-single-use-values.js';

/** Persistence when the auth server keeps its own records (people's grants outlive a restart only then). */
function persistenceOf(kernel: KernelApi, secrets: ResolveContext, warn: (m: string) => void): ClientPersistence | undefined {
  const server = kernel.settings().aggregator.oauth.server;
  const backing = kernel.services.find('grant-store');
  if (!server.enabled || !server.storage.persistent || !backing?.persistent || !server.storage.encryptionKey) return undefined;
  const key = resolveSecretValue(server.storage.encryptionKey, 'aggregator.oauth.server.storage.encryptionKey', secrets);
  return new ClientPersistence(new SealedStore(backing, key, (kind, reason) => warn(`a kept ${kind} record could not be opened (${reason})`)));
}

export default definePlugin({
  name: 'auth-client',
  description: 'OAuth client for remote MCP servers that require sign-in: core_auth_login, core_auth_logout and the /oauth/proxy paths.',
  provides: ['upstream-credentials'],
  claims: ['oauth-client'],
  uses: ['http', 'grant-store', 'single-use-values', 'broadcast'],
  needsWhenRunning: ['upstreams'],
  setup({ kernel, log }) {
    kernel.surfaces.claim('oauth-client');
    const settings = () => kernel.settings().oauth.mcpClient;
    const atBoot = settings().enabled;
    kernel.config.addSettingsCheck((next, where) => {
      if (next.oauth.mcpClient.enabled === atBoot) return [];
      const path = ['oauth', 'mcpClient', 'enabled'];
      return [
        {
          file: where.file,
          ...where.locate(path),
          field: path.join('.'),
          message: 'switching the OAuth client on or off takes effect only at start-up; restart Switchboard to apply it',
        },
      ];
    });
    if (!atBoot) return;

    const http = kernel.services.get('http');
    const baseUrl = (): string => {
      const configured = settings().baseUrl ?? kernel.settings().aggregator.oauth.server.baseUrl;
      if (configured) return configured.replace(/\/+$/, '');
      const bound = http.address();
      const host = !bound || bound.host === '0.0.0.0' || bound.host === '::' ? '127.0.0.1' : bound.host.includes(':') ? `[${bound.host}]` : bound.host;
      return `http://${host}:${bound?.port ?? kernel.settings().aggregator.port}`;
    };
    // Authorization servers fetch the document: only an https URL can be a client_id.
    const clientMetadataUrl = (): string | undefined => {
      const url = settings().clientMetadataUrl ?? `${baseUrl()}${CLIENT_METADATA_PATH}`;
      return url.startsWith('https://') ? url : undefined;
    };
    const flow = (): FlowSettings => {
      const base = baseUrl();
      const redirectUrl = `${base}${settings().callbackPath}`;
      const documentUrl = clientMetadataUrl();
      return {
        redirectUrl,
        ...(documentUrl ? { clientMetadataUrl: documentUrl } : {}),
        clientMetadata: {
          client_name: settings().clientName,
          client_uri: base,
          redirect_uris: [redirectUrl],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
          application_type: applicationTypeFor(redirectUrl),
        },
      };
    };
    const originOf = (url: string): string | undefined => {
      try {
        return new URL(url).origin;
      } catch {
        return undefined;
      }
    };
    /** A server the operator wrote is at this origin (not one whose URL a caller chose). */
    const operatorOrigin = (origin: string): boolean =>
      [...kernel.config.snapshot.mcpServers.values()].some(({ value: d }) => d.url !== undefined && !outboundChecked(d) && originOf(d.url) === origin);
    // An operator's server: its own host is the operator's choice, and an authorization server
    // it names must be public unless oauth.mcpClient.allowPrivateIP. A server whose URL a caller
    // chose: its host, and every authorization server it names, obey the outbound policy
    // (aggregator.network.allow), or for authorization servers that same allowPrivateIP.
    const fetchFor = (serverUrl: string): FetchLike => {
      const origin = new URL(serverUrl).origin;
      const named = pinnedFetch({ allowPrivate: settings().allowPrivateIP });
      if (operatorOrigin(origin)) {
        const own = pinnedFetch({ allowPrivate: true });
        return (input, init) => (new URL(input).origin === origin ? own : named)(input, init);
      }
      const policy = outboundPolicy(kernel.settings());
      const checked = pinnedFetch({ resolve: (u) => policy.resolve(u.hostname) });
      return (input, init) => (new URL(input).origin === origin || !settings().allowPrivateIP ? checked : named)(input, init);
    };
    const secrets = { configPath: kernel.config.configPath, env: process.env, onSecret: (v: string) => kernel.secrets.add(v) };
    const persistence = persistenceOf(kernel, secrets, (m) => log.warn(m));
    // Writes in the order the changes happened, each failure said once.
    const writing = new SerialQueue();
    const write = (what: string, run: () => Promise<void>) => {
      void writing.run(run).catch((err: unknown) => log.warn(`keeping ${what} failed: ${(err as Error).message}`));
    };
    const clients = new ClientRegistry(
      settings().clients.map((c, i) => {
        const info: OAuthClientInformationMixed = { client_id: c.clientId };
        if (c.clientSecret === undefined) return { issuer: c.issuer, info };
        return { issuer: c.issuer, info, secret: renewableReference(c.clientSecret, `oauth.mcpClient.clients.${i}.clientSecret`, secrets) };
      }),
      (issuer, info) => {
        if (persistence) write('a client registration', () => persistence.saveRegistration(issuer, info));
      },
    );
    let signIns: SignIns | undefined;
    // Cluster mode: the other replicas take a changed grant up at once (grant-sync.ts).
    let sync: GrantSync | undefined;
    const grants: Grants = new Grants(
      (grant) => signIns!.refresh(grant),
      Date.now,
      (owner, grant) => {
        if (persistence && ClientPersistence.persisted(owner))
          write('a grant', async () => {
            await persistence.saveGrant(owner, grant, grants.serversUsing(owner, grant));
            await sync?.announce(owner, grant.issuer);
          });
      },
    );
    const record: RecordEvent = (type, reason, server, message) =>
      kernel.services.find('events')?.record({ type, reason, resource: { type: 'MCPServer', name: server }, message });
    const values = kernel.services.find('single-use-values') ?? new MemorySingleUseValues();
    const elicitations = new SignInElicitations(log);
    signIns = new SignIns({
      record,
      grants,
      clients,
      upstreams: () => kernel.services.get('upstreams'),
      flow,
      fetchFor,
      values,
      completed: (id) => elicitations.completed(id),
    });
    kernel.services.provide('upstream-credentials', grants);

    mountRoutes(http.router, {
      signIns,
      callbackPath: settings().callbackPath,
      allowlist: () => kernel.settings().postLoginRedirectAllowlist,
      metadata: () => ({ client_id: clientMetadataUrl() ?? `${baseUrl()}${CLIENT_METADATA_PATH}`, ...flow().clientMetadata }),
    });
    const tools = { signIns, grants, record, elicitations, startUrl: (ticket: string) => `${baseUrl()}${START_PATH}?ticket=${ticket}` };
    publishCoreTools(kernel, 'auth-client', (prefix) => authTools(kernel, prefix, tools));

    // A session's own grants end with it; a person's outlive their sessions.
    kernel.hooks.onSessionClose.tap('auth-client', (session) => {
      if (session.identity) return;
      const owner = ownerOf(session);
      for (const server of grants.serversOf(owner)) {
        void grants
          .forget(server, owner)
          .then(() => kernel.services.get('upstreams').grantChanged(server, owner))
          .catch(() => undefined);
      }
    });
    return {
      async start() {
        const broadcast = kernel.services.find('broadcast');
        if (persistence && broadcast) {
          // Listening before the grants are read: a change made meanwhile is heard, not missed.
          sync = new GrantSync({
            broadcast,
            persistence,
            grants,
            changed: (server, owner) => kernel.services.get('upstreams').grantChanged(server, owner),
            warn: (m) => log.warn(m),
          });
          await sync.start();
        }
        if (persistence) {
          const moved = await persistence.rekeyGrants();
          if (moved > 0) log.info(`${moved} kept sign-in(s) now keyed by their authorization server's issuer`);
          for (const r of await persistence.registrations()) clients.restore(r.issuer, r.info);
          // Servers that already asked for sign-in (they connected during the first load) now connect as these owners.
          for (const g of await persistence.grants()) {
            grants.restore(g.owner, g.servers, g.grant);
            for (const server of g.servers)
              void kernel.services
                .get('upstreams')
                .grantChanged(server, g.owner)
                .catch((err: unknown) => log.warn(`a kept sign-in to '${server}' could not be used: ${(err as Error).message}`));
          }
        }
        if (settings().allowPrivateIP) log.warn('oauth.mcpClient.allowPrivateIP is on: authorization servers at private addresses are contacted');
        log.info(`OAuth client on: sign-in links under ${baseUrl()}${START_PATH}, callback ${baseUrl()}${settings().callbackPath}`);
      },
      async stop() {
        await sync?.stop();
      },
    };
  },
});
