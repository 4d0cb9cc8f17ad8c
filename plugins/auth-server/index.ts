/**
 * auth-server: Switchboard as an OAuth 2.1 authorization server towards its clients, with
 * sign-in delegated to an OIDC identity provider (docs/oauth-server.md). Active when
 * aggregator.oauth.server.enabled; then every request to the MCP paths needs a token
 * (bearer.ts) and each session belongs to the person who opened it.
 *
 * Start-up is fail-closed: settings resolved, the identity provider discovered (bounded
 * retry), keys loaded, all before the HTTP listener opens; any failure stops startup.
 */
import { definePlugin } from '../../kernel/index.js';
import { MemoryGrantStore } from '../../lib/grants/memory-grant-store.js';
import { MemoryReplayGuard } from '../../lib/replay/memory-replay-guard.js';
import { MemoryRateLimiter } from '../../lib/limits/memory-rate-limiter.js';
import { Accounts } from './accounts.js';
import { ClientLedger } from './client-ledger.js';
import { BearerAuthenticator } from './bearer.js';
import { resolveBroker } from './broker-settings.js';
import { TrustedProxies } from '../../lib/net/trusted-proxies.js';
import { mountRoutes, RESOURCE_METADATA_PATH } from './routes.js';
import { SealedStore } from '../../lib/grants/sealed-store.js';
import { allowanceWarnings, resolveAuthSettings } from './settings.js';
import { VerifiedTokens } from './verified-tokens.js';
import { audienceScopes } from '../../lib/server-auth/audience-scopes.js';

/** Whole seconds, as every OAuth lifetime is counted. */
const epochSeconds = () => Math.floor(Date.now() / 1000);

export default definePlugin<{ discoveryRetrySeconds: number }>({
  name: 'auth-server',
  description: 'OAuth 2.1 authorization server for the MCP endpoint, signing people in at an OIDC identity provider.',
  provides: ['authenticator', 'caller-tokens'],
  // Its cache of verified tokens listens on it until stop, so it stops before the connection closes.
  // rate-limiter (cluster mode): registrations per client address counted across replicas.
  uses: ['broadcast', 'rate-limiter'],
  claims: ['oauth-server'],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      discoveryRetrySeconds: {
        type: 'number',
        minimum: 0,
        default: 30,
        description: 'How long start-up retries an unreachable identity provider before it gives up.',
      },
    },
  },
  setup({ kernel, options, log }) {
    kernel.surfaces.claim('oauth-server');
    const atBoot = JSON.stringify(kernel.settings().aggregator.oauth.server);
    // Protection cannot change under running sessions: a reload that changes it is refused (the last good configuration stays).
    kernel.config.addSettingsCheck((settings, where) => {
      if (JSON.stringify(settings.aggregator.oauth.server) === atBoot) return [];
      const path = ['aggregator', 'oauth', 'server'];
      return [
        {
          file: where.file,
          ...where.locate(path),
          field: path.join('.'),
          message: 'OAuth server settings changed; they take effect only at start-up, so restart Switchboard to apply them',
        },
      ];
    });
    if (!kernel.settings().aggregator.oauth.server.enabled) return;

    const now = epochSeconds;
    // The gate exists from setup on: no request reaches /mcp unauthenticated, not even before start.
    let bearer: BearerAuthenticator | undefined;
    kernel.services.provide('authenticator', {
      authenticate: (req, url) =>
        bearer
          ? bearer.authenticate(req, url)
          : Promise.resolve({
              kind: 'refused',
              status: 401,
              headers: { 'www-authenticate': 'Bearer' },
              error: 'invalid_token',
              description: 'the authorization server is starting',
            }),
      // The same metadata URL the 401 challenges name (BearerAuthenticator's resourceMetadataUrl).
      describe: () => ({
        schemes: ['oauth2'],
        resourceMetadataUrl: `${(kernel.settings().aggregator.oauth.server.baseUrl ?? '').replace(/\/+$/, '')}${RESOURCE_METADATA_PATH}`,
      }),
    });

    let verified: VerifiedTokens | undefined;
    return {
      async start() {
        // Every secret read (client secret, registration token, key, broker credentials) is scrubbed from logs and results.
        const secrets = { configPath: kernel.config.configPath, env: process.env, onSecret: (v: string) => kernel.secrets.add(v) };
        const settings = resolveAuthSettings(kernel.settings(), secrets);
        const raw = kernel.settings().aggregator.oauth.server;
        for (const warning of allowanceWarnings(settings, raw)) log.warn(warning);
        const broker = raw.tokenExchangeBroker
          ? await resolveBroker(raw.tokenExchangeBroker, secrets, kernel.services.find('orchestrator-secrets'))
          : undefined;
        const backing = settings.storage.persistent ? kernel.services.find('grant-store') : undefined;
        if (settings.storage.persistent && !backing?.persistent)
          throw new Error('aggregator.oauth.server.storage.persistent is on, but no enabled store plugin keeps grants (store-files does)');
        const store = new SealedStore(
          backing ?? new MemoryGrantStore(),
          settings.storage.persistent ? settings.storage.key : SealedStore.randomSecret(),
          (kind, reason) => log.warn(`a stored ${kind} record could not be opened (${reason}); was the encryption key changed?`),
        );
        if ((await store.checkKey()) === 'changed') {
          log.warn(
            'stored OAuth records could not be opened: they were sealed with another encryption key (was the encryption key changed?); clients must register and people sign in again',
          );
        }
        // Loaded only now, as provider.js below: an endpoint without OAuth never pays for jose's
        // signatures and oauth4webapi (about 100 ms of CPU at every start).
        const [{ IdentityProvider }, { DpopVerifier }, { mountSignIn }] = await Promise.all([
          import('./identity-provider.js'),
          import('./dpop.js'),
          import('./sign-in.js'),
        ]);
        const idp = await IdentityProvider.discover(settings.idp, options.discoveryRetrySeconds * 1000, now, (m) => log.warn(m));
        const accounts = new Accounts(store, idp, now, settings.sessionSeconds, (m) => log.warn(m));
        // Writes as the caller (orchestrator mode) carry the person's own ID token from the provider.
        kernel.services.provide('caller-tokens', { idToken: async (subject) => (await accounts.fresh(subject))?.tokens.idToken });
        // Heard before the provider answers anything, so no revocation elsewhere is missed.
        verified = new VerifiedTokens(now, kernel.services.find('broadcast'));
        await verified.start();
        const tokens = verified;
        const clients = new ClientLedger(store, settings.registration, now);
        await clients.load();
        // Loaded only now: an endpoint without OAuth never pays for oidc-provider.
        const { createProvider } = await import('./provider.js');
        const provider = await createProvider(
          settings,
          { trustedIssuers: raw.trustedIssuers, ...(broker ? { broker } : {}), credentials: () => kernel.services.find('upstream-credentials') },
          store,
          accounts,
          now,
          log,
          (revocation) => tokens.revoked(revocation),
          clients,
        );
        const proxies = new TrustedProxies(settings.trustedProxyCIDRs);
        const router = kernel.services.get('http').router;
        mountRoutes(router, {
          provider,
          settings,
          proxies,
          registration: { clients, limiter: kernel.services.find('rate-limiter') ?? new MemoryRateLimiter() },
        });
        mountSignIn(router, {
          provider,
          idp,
          accounts,
          store,
          settings,
          now,
          log,
          extraScopes: () => audienceScopes(kernel.config.snapshot.mcpServers.values()),
        });
        bearer = new BearerAuthenticator({
          provider,
          audience: settings.audience,
          issuer: settings.issuer,
          resourceMetadataUrl: `${settings.issuer}${RESOURCE_METADATA_PATH}`,
          dpop: new DpopVerifier(now, kernel.services.find('replay-guard') ?? new MemoryReplayGuard()),
          proxies,
          now,
          accounts,
          verified: tokens,
        });
        log.info(
          `OAuth protection on: issuer ${settings.issuer}, audience ${settings.audience}, sign-in at ${settings.idp.issuer}, ${settings.storage.persistent ? 'persistent' : 'in-memory'} grants, registration ${settings.registration.mode}`,
        );
      },
      async stop() {
        await verified?.stop();
      },
    };
  },
});
