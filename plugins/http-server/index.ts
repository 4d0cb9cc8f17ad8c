/**
 * http-server: the one HTTP listener on aggregator.host:aggregator.port. Exact-path raw
 * handlers (the MCP transports) are served straight from node:http; everything else goes
 * through koa and its router (health, OAuth, pages).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import {
  definePlugin,
  SharedStateUnavailableError,
  type AdvertisedTransport,
  type Authentication,
  type HttpService,
  type Identity,
  type RawHandler,
  type Settings,
} from '../../kernel/index.js';
import { closeListener } from '../../lib/net/listener.js';
import { readTimeouts } from '../../lib/net/read-timeouts.js';
import { readJsonBody } from './body.js';
import { originAllowed } from './origin.js';
import { hostCheck } from '../../lib/net/allowed-hosts.js';
import { TrustedProxies } from '../../lib/net/trusted-proxies.js';
import { mountServerCard } from './server-card.js';
import { loadTls } from './tls.js';
import { TLS_RELOAD_SECONDS, TlsRenewal } from './tls-renewal.js';

const BASE = 'http://switchboard.local';

/** An OAuth refusal (RFC 6750 section 3): the status, its WWW-Authenticate, and a JSON body saying why. */
function refuse(res: ServerResponse, auth: Extract<Authentication, { kind: 'refused' }>): void {
  const body = JSON.stringify({ error: auth.error, error_description: auth.description });
  res.writeHead(auth.status, { ...auth.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * Cluster mode, Redis unreachable while a request needed it (its token, a session count):
 * 503 with the reason, as a JSON-RPC error the MCP clients read; the token is not judged.
 */
function unavailable(res: ServerResponse, err: SharedStateUnavailableError): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: err.message, data: { code: err.code } } });
  res.writeHead(503, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'retry-after': '1' });
  res.end(body);
}

/** A Host this listener is not known by (DNS rebinding): 421, as a JSON-RPC error the MCP clients read. */
function misdirected(res: ServerResponse, host: string): void {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: `Host '${host}' is not a name this server answers to; add it to aggregator.allowedHosts if it should be` },
  });
  res.writeHead(421, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export default definePlugin<{ tlsReloadSeconds: number }>({
  name: 'http-server',
  description: 'The HTTP listener shared by the MCP transports, health and other HTTP surfaces.',
  provides: ['http'],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      tlsReloadSeconds: {
        type: 'integer',
        minimum: 0,
        maximum: 86_400,
        default: TLS_RELOAD_SECONDS,
        description:
          'How often the files of aggregator.tls are read again: a certificate renewed in place (cert-manager, certbot) is served to new connections without a restart. 0: only at startup.',
      },
    },
  },
  setup({ kernel, log, options }) {
    const router = new Router();
    const raw = new Map<string, { handlers: RawHandler[]; url: URL }>();
    const openPaths = new Set<string>();
    const identities = new WeakMap<IncomingMessage, Identity>();
    const app = new Koa();
    let server: Server | undefined;
    let renewal: TlsRenewal | undefined;
    let bound: { host: string; port: number; scheme: 'http' | 'https' } | undefined;
    const aggregator = () => kernel.settings().aggregator;
    const transports: AdvertisedTransport[] = [];
    let proxies: TrustedProxies | undefined;
    let scheme = 'http';

    // Degraded still answers 200: the instance serves what it can, and an orchestrator's
    // liveness probe restarting every replica while Redis is down would help nobody.
    router.get('/health', (ctx) => {
      ctx.body = kernel.health.report();
    });

    const service: HttpService = {
      router,
      handle(path, handler, options) {
        raw.set(path, { handlers: [...(raw.get(path)?.handlers ?? []), handler], url: new URL(path, BASE) });
        if (options?.open) openPaths.add(path);
      },
      advertise(transport) {
        transports.push({ ...transport });
      },
      identityOf: (req) => identities.get(req),
      clientAddressOf: (req) => (proxies ??= trustedProxies()).clientAddress(req),
      address: () => bound,
      checkOrigin(req, res) {
        const origin = req.headers.origin;
        if (originAllowed(origin, aggregator().allowedOrigins)) return true;
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Origin '${origin}' is not allowed` } }));
        return false;
      },
      readJson: (req, res, refuseArray) => readJsonBody(req, res, aggregator().maxBodyBytes, refuseArray),
    };
    kernel.services.provide('http', service);
    // The schema checks only that entries are strings; a bad CIDR must cost the card its proxies, not every request a 500.
    const trustedProxies = (): TrustedProxies => {
      try {
        return new TrustedProxies(aggregator().oauth.server.trustedProxyCIDRs);
      } catch (err) {
        log.warn(`server card: aggregator.oauth.server.${(err as Error).message}; forwarded headers are not believed`);
        return new TrustedProxies([]);
      }
    };
    mountServerCard(router, {
      // Read at the first request: every plugin has advertised its transport and capabilities by then.
      sources: () => {
        const authenticator = kernel.services.find('authenticator');
        return {
          transports,
          capabilities: kernel.endpoint.serverCapabilities(),
          auth: authenticator ? (authenticator.describe?.() ?? { schemes: [] }) : undefined,
        };
      },
      publicBase: () => kernel.settings().aggregator.oauth.server.baseUrl ?? kernel.settings().oauth.mcpClient.baseUrl,
      proxies: () => (proxies ??= trustedProxies()),
      bound: () => {
        const host = bound?.host.includes(':') ? `[${bound.host}]` : (bound?.host ?? 'localhost');
        return `${scheme}://${host}:${bound?.port ?? aggregator().port}`;
      },
    });
    kernel.config.addSettingsCheck((settings, where) => {
      const tls = settings.aggregator.tls;
      if (!tls || !settings.aggregator.enabled || settings.aggregator.transport === 'stdio') return [];
      const loaded = loadTls(tls, kernel.config.configPath, where);
      return loaded.ok ? [] : loaded.problems;
    });

    /** The Host names the MCP listener answers to: its bind address (as started) and aggregator.allowedHosts (as configured now). */
    let hosts: ReturnType<typeof hostCheck> | undefined;
    let boundHost = '';
    const hostsFor = (s: Settings) => hostCheck(boundHost, s.aggregator.allowedHosts, [s.aggregator.oauth.server.baseUrl, s.oauth.mcpClient.baseUrl]);
    // A slow client's limits and the allowed Host names follow config.yaml edits; the check interval stays as started.
    kernel.hooks.onConfigLoad.tap('http-server', (next) => {
      if (!server) return;
      const reading = readTimeouts(next.settings.aggregator.limits);
      server.headersTimeout = reading.headersTimeout;
      server.requestTimeout = reading.requestTimeout;
      hosts = hostsFor(next.settings);
      allowedHost = undefined;
    });
    // Clients send the same Host on every request: the last one allowed is not parsed again.
    let allowedHost: string | undefined;

    return {
      async start() {
        const settings = aggregator();
        if (!settings.enabled || settings.transport === 'stdio') return;
        app.use(router.routes()).use(router.allowedMethods());
        const koaHandler = app.callback();
        // Provided during setup (or never): looked up once, not per request.
        const authenticator = kernel.services.find('authenticator');
        boundHost = settings.host;
        const checked = (hosts = hostsFor(kernel.settings()));
        const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
          // A request for exactly a raw path (every MCP message) reuses that path's parsed URL.
          const exact = req.url === undefined ? undefined : raw.get(req.url);
          const url = exact?.url ?? new URL(req.url ?? '/', BASE);
          const host = req.headers.host;
          if (host !== allowedHost && url.pathname !== '/health') {
            if (!(hosts ?? checked).allows(host)) return misdirected(res, host!);
            allowedHost = host;
          }
          const handlers = (exact ?? raw.get(url.pathname))?.handlers;
          if (handlers) {
            if (authenticator && !openPaths.has(url.pathname)) {
              const auth = await authenticator.authenticate(req, url);
              if (auth.kind === 'refused') return refuse(res, auth);
              identities.set(req, auth.identity);
            }
            for (const h of handlers) if (await h(req, res, url)) return;
          }
          await koaHandler(req, res);
        };
        // A handler that throws must cost that one request, not the process (an unhandled rejection ends it).
        const listener: RequestListener = (req, res) => {
          handle(req, res).catch((err: unknown) => {
            if (err instanceof SharedStateUnavailableError && !res.headersSent) return unavailable(res, err);
            log.error(`${req.method ?? ''} ${req.url ?? ''} failed: ${err instanceof Error ? err.message : String(err)}`);
            if (res.headersSent) res.destroy();
            else res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'internal error' }));
          });
        };
        const tls = settings.tls ? loadTls(settings.tls, kernel.config.configPath, { file: 'config.yaml', locate: () => ({ line: 0, column: 0 }) }) : undefined;
        if (tls && !tls.ok) throw new Error(tls.problems.map((p) => `${p.field}: ${p.message}`).join('; '));
        const reading = readTimeouts(settings.limits);
        if (tls) scheme = 'https';
        if (tls && settings.tls) {
          const https = createHttpsServer({ ...tls.material, ...reading }, listener);
          renewal = new TlsRenewal(https, settings.tls, kernel.config.configPath, tls.material, log);
          renewal.start(options.tlsReloadSeconds * 1000);
          server = https;
        } else {
          server = createServer(reading, listener);
        }
        server.keepAliveTimeout = 65_000;
        await new Promise<void>((resolve, reject) => {
          server!.once('error', reject);
          server!.listen(settings.port, settings.host, () => resolve());
        });
        const addr = server.address() as AddressInfo;
        bound = { host: settings.host, port: addr.port, scheme: tls ? 'https' : 'http' };
        const shown = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
        log.info(`listening on ${tls ? 'https' : 'http'}://${shown}:${addr.port}/mcp`);
      },
      async stop() {
        renewal?.stop();
        renewal = undefined;
        if (!server) return;
        const s = server;
        server = undefined;
        await closeListener(s);
      },
    };
  },
});
