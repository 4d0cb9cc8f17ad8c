/**
 * The server card: what Switchboard is and how to connect to it, readable before connecting
 * (SEP-2127, the revision in seps/2127-mcp-server-cards.md of modelcontextprotocol, schema
 * `v1/server-card.schema.json`; docs/protocol.md says which fields and why).
 *
 * The card is public, so it carries nothing a caller's view decides: no tools, resources or
 * prompts (the catalogue is the upstreams' and each caller's own), only the capabilities that
 * say those lists are dynamic (`listChanged`). The URLs in it are the ones the requester
 * used: the configured public base URL when there is one, else the request's Host (already
 * checked against the names the listener answers to) with X-Forwarded-* believed only from
 * trusted proxies, as for DPoP.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { SUPPORTED_PROTOCOL_VERSIONS, type Implementation, type ServerCapabilities } from '#mcp-sdk/types.js';
import { SERVER_INFO, type AdvertisedTransport, type AuthenticationAdvertisement } from '../../kernel/index.js';
import { hostName } from '../../lib/net/allowed-hosts.js';
import type { TrustedProxies } from '../../lib/net/trusted-proxies.js';

/** The SEP's `.well-known` URI, and the `.json` spelling discovery tools probe. */
export const SERVER_CARD_PATHS = ['/.well-known/mcp/server-card.json', '/.well-known/mcp/server-card'] as const;
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** Where the protected-resource metadata URL goes: the SEP has no field for it, `_meta` is its extension point. */
export const RESOURCE_METADATA_META = 'switchboard/protectedResourceMetadata';
const DESCRIPTION = 'An MCP aggregator: one endpoint in front of many MCP servers, with meta-tools to find and call their tools, toolsets and workflows.';
/** Distinct request bases remembered; the Host check keeps them few, this keeps them bounded anyway. */
const MAX_CACHED_BASES = 16;
/** `name[:port]` or `[v6]:port` and nothing else: a Host that is not one never reaches the card. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::[0-9]{1,5})?$/i;

export interface CardRemote {
  type: AdvertisedTransport['type'];
  url: string;
  supportedProtocolVersions: string[];
  authentication: { required: boolean; schemes: string[] };
}

export interface ServerCard {
  $schema: string;
  name: string;
  version: string;
  description: string;
  title?: string;
  websiteUrl?: string;
  icons?: Implementation['icons'];
  remotes: CardRemote[];
  capabilities: ServerCapabilities;
  _meta?: Record<string, string>;
}

/** What the card is made of, read once the plugins are set up. */
export interface CardSources {
  transports: readonly AdvertisedTransport[];
  capabilities: ServerCapabilities;
  /** undefined: the endpoint is open. */
  auth: AuthenticationAdvertisement | undefined;
}

/** Reverse-DNS of the host the card was asked at (`mcp.example.com` -> `com.example.mcp/switchboard`); an address or a single label is no namespace anyone owns: `local`. */
export function cardName(host: string): string {
  const name = hostName(host);
  const namespace = isIP(name) !== 0 || !name.includes('.') ? 'local' : name.split('.').reverse().join('.');
  return `${namespace}/${SERVER_INFO.name}`;
}

export function buildCard(sources: CardSources, base: string): ServerCard {
  // Whatever SERVER_INFO carries of the 2025-11-25 Implementation (title, icons, websiteUrl) goes on the card.
  const info: Implementation = SERVER_INFO;
  const authentication = sources.auth ? { required: true, schemes: [...sources.auth.schemes] } : { required: false, schemes: [] };
  const card: ServerCard = {
    $schema: SERVER_CARD_SCHEMA,
    name: cardName(new URL(base).host),
    version: info.version,
    description: DESCRIPTION,
    title: info.title ?? 'Switchboard',
    ...(info.websiteUrl ? { websiteUrl: info.websiteUrl } : {}),
    ...(info.icons?.length ? { icons: info.icons } : {}),
    remotes: sources.transports.map((t) => ({
      type: t.type,
      url: `${base}${t.path}`,
      supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      authentication: { ...authentication, schemes: [...authentication.schemes] },
    })),
    capabilities: sources.capabilities,
  };
  if (sources.auth?.resourceMetadataUrl) card._meta = { [RESOURCE_METADATA_META]: sources.auth.resourceMetadataUrl };
  return card;
}

/**
 * scheme://host[:port][/prefix] the requester addressed: the public base URL when configured,
 * else the request's own, else (a Host that is not a host) the bound address.
 */
export function requestBase(
  req: IncomingMessage,
  publicBase: string | undefined,
  proxies: TrustedProxies,
  bound: string,
): { base: string; fromRequest: boolean } {
  if (publicBase) return { base: publicBase.replace(/\/+$/, ''), fromRequest: false };
  const url = proxies.requestUrl(req, '');
  const host = url.slice(url.indexOf('://') + 3);
  return { base: HOST.test(host) && /^https?:\/\//.test(url) ? url : bound, fromRequest: true };
}

export interface CardRoutesDeps {
  sources: () => CardSources;
  publicBase: () => string | undefined;
  proxies: () => TrustedProxies;
  /** http://bound-address:port, for a request whose Host cannot be used. */
  bound: () => string;
}

/** GET and HEAD (koa answers HEAD from the GET route) of the card, an OPTIONS preflight; other methods 405 by the router. */
export function mountServerCard(router: Router, deps: CardRoutesDeps): void {
  const bodies = new Map<string, string>();
  let sources: CardSources | undefined;
  const serve = (ctx: RouterContext) => {
    sources ??= deps.sources();
    const { base, fromRequest } = requestBase(ctx.req, deps.publicBase(), deps.proxies(), deps.bound());
    let body = bodies.get(base);
    if (body === undefined) {
      if (bodies.size >= MAX_CACHED_BASES) bodies.clear();
      body = JSON.stringify(buildCard(sources, base));
      bodies.set(base, body);
    }
    cors(ctx);
    ctx.set('cache-control', 'public, max-age=300');
    ctx.set('x-content-type-options', 'nosniff');
    // A shared cache must not hand one requester's URLs to another who came by another name.
    if (fromRequest) ctx.set('vary', 'Host, X-Forwarded-Host, X-Forwarded-Proto');
    ctx.type = 'application/json';
    ctx.body = body;
  };
  for (const path of SERVER_CARD_PATHS) {
    router.get(path, serve);
    router.options(path, (ctx) => {
      cors(ctx);
      ctx.set('allow', 'GET, HEAD, OPTIONS');
      ctx.status = 204;
    });
  }
}

function cors(ctx: RouterContext): void {
  ctx.set('access-control-allow-origin', '*');
  ctx.set('access-control-allow-methods', 'GET, HEAD');
  ctx.set('access-control-allow-headers', 'Content-Type');
}
