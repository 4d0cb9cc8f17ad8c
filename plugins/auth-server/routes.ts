/**
 * The OAuth paths on the shared router. The standard endpoints are oidc-provider's (the
 * request is handed over whole); around them Switchboard adds what the interface asks
 * beyond the standards: `state` required and redirect URIs re-checked before a flow
 * starts, forwarded headers dropped from untrusted peers, and the two metadata documents
 * MCP clients read first (RFC 9728 protected resource, RFC 8414 authorization server).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { default as Router, RouterContext } from '@koa/router';
import type Provider from 'oidc-provider';
import { redirectUriProblem } from './redirect-guard.js';
import { RESOURCE_SCOPE, ROUTES, SILENT_PARAM } from './paths.js';
import { registrationHandler, type RegistrationDeps } from './registration.js';
import type { TrustedProxies } from '../../lib/net/trusted-proxies.js';
import type { AuthServerSettings } from './settings.js';

export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';
const OIDC_DISCOVERY_PATH = '/.well-known/openid-configuration';

function oauthError(ctx: RouterContext, error: string, description: string): void {
  ctx.status = 400;
  ctx.set('cache-control', 'no-store');
  ctx.body = { error, error_description: description };
}

export function mountRoutes(
  router: Router,
  deps: { provider: Provider; settings: AuthServerSettings; proxies: TrustedProxies; registration: Pick<RegistrationDeps, 'limiter' | 'clients'> },
): void {
  const { settings } = deps;
  const callback = deps.provider.callback() as (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  const handOver = async (ctx: RouterContext, path?: string) => {
    deps.proxies.scrub(ctx.req);
    if (path) ctx.req.url = path;
    ctx.respond = false;
    await callback(ctx.req, ctx.res);
  };

  router.get(ROUTES.authorization, async (ctx) => {
    const q = ctx.query;
    if (typeof q.state !== 'string' || !q.state)
      return oauthError(ctx, 'invalid_request', 'state is required: send an unguessable state value and check it when the code comes back');
    if (typeof q.redirect_uri === 'string') {
      const problem = await redirectUriProblem(q.redirect_uri, settings.allowPrivateRedirectURIs);
      if (problem) return oauthError(ctx, 'invalid_request', problem);
    }
    // prompt=none is the identity provider's to answer (it knows whether the person has a
    // session); oidc-provider would refuse it here for want of its own. It travels as a flag.
    if (q.prompt === 'none') {
      const url = new URL(ctx.req.url ?? '/', settings.issuer);
      url.searchParams.delete('prompt');
      url.searchParams.set(SILENT_PARAM, '1');
      ctx.req.url = `${url.pathname}${url.search}`;
    }
    await handOver(ctx);
  });
  router.post(ROUTES.authorization, (ctx) => oauthError(ctx, 'invalid_request', 'send the authorization request as a GET with query parameters'));
  for (const path of [
    `${ROUTES.authorization}/:uid`,
    ROUTES.token,
    ROUTES.revocation,
    ROUTES.introspection,
    ROUTES.userinfo,
    ROUTES.jwks,
    ROUTES.end_session,
  ]) {
    router.all(path, (ctx) => handOver(ctx));
  }
  router.post(ROUTES.registration, registrationHandler({ ...deps.registration, settings, proxies: deps.proxies, handOver: (ctx) => handOver(ctx) }));
  router.all(ROUTES.registration, (ctx) => handOver(ctx));
  router.all(`${ROUTES.registration}/:id`, (ctx) => handOver(ctx));
  // Every URL in the metadata derives from the issuer (baseUrl), never from the Host the
  // request came with: behind a balancer that is a replica's own address, and a client would
  // fetch keys (jwks_uri) or post tokens there. oidc-provider builds them from the request's
  // origin (X-Forwarded-* believed, as provider.proxy is on) and its mount path, so those are
  // set to the issuer's after the untrusted ones are scrubbed.
  const issuer = new URL(settings.issuer);
  const issuerPath = issuer.pathname.replace(/\/+$/, '');
  const metadata = async (ctx: RouterContext) => {
    deps.proxies.scrub(ctx.req);
    ctx.req.headers.host = issuer.host;
    ctx.req.headers['x-forwarded-host'] = issuer.host;
    ctx.req.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
    ctx.req.url = OIDC_DISCOVERY_PATH;
    (ctx.req as IncomingMessage & { originalUrl?: string }).originalUrl = `${issuerPath}${OIDC_DISCOVERY_PATH}`;
    ctx.respond = false;
    await callback(ctx.req, ctx.res);
  };
  router.get(AS_METADATA_PATH, metadata);
  router.get(OIDC_DISCOVERY_PATH, metadata);

  // RFC 9728: the root document and the one named after the resource's path (/mcp), the same.
  const resourceMetadata = {
    resource: settings.audience,
    authorization_servers: [settings.issuer],
    scopes_supported: [RESOURCE_SCOPE],
    bearer_methods_supported: ['header'],
    dpop_signing_alg_values_supported: ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA'],
    resource_name: 'Switchboard',
  };
  const serveResourceMetadata = (ctx: RouterContext) => {
    ctx.set('cache-control', 'public, max-age=300');
    ctx.set('access-control-allow-origin', '*');
    ctx.body = resourceMetadata;
  };
  router.get(RESOURCE_METADATA_PATH, serveResourceMetadata);
  router.get(`${RESOURCE_METADATA_PATH}/*path`, serveResourceMetadata);
}
