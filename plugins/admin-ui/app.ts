/**
 * The admin pages as one request handler: the routes, and in front of them the Host check
 * (DNS rebinding), the caller's authorization and the same-origin check of actions.
 * Built the first time the listener opens (listener.ts), so a Switchboard whose admin UI
 * stays off never builds it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import {
  audit,
  authorizerOf,
  describePrincipal,
  ForbiddenError,
  peerPrincipal,
  type KernelApi,
  type Logger,
  type Principal,
  type Resource,
} from '../../kernel/index.js';
import { hostCheck } from '../../lib/net/allowed-hosts.js';
import { html, notFound, page, type Html } from './html.js';
import { FormError } from './form-body.js';
import { coreCall, registerServerActions } from './server-actions.js';
import { ToolCalls } from './tool-calls.js';
import { Settling } from './settled.js';
import { escape } from '../../lib/html.js';
import { executionPage, executionsPage, sessionPage, sessionsPage } from './pages.js';
import { serverPage, serversPage } from './server-pages.js';
import { settingsPage } from './settings-page.js';

/**
 * Why a state-changing request is not one of the admin pages' own, or undefined when it is.
 * Every current browser sends Origin on a POST or DELETE, same-origin ones included, so a
 * request without one is not the admin pages' form (an old browser, an extension stripping
 * it, or a tool that should say where it comes from: `curl -H 'Origin: http://127.0.0.1:9999'`).
 * `Origin: null` (a sandboxed frame, a data: page) is another site. No Referer fallback:
 * Referer is the header privacy settings strip first.
 */
function crossSite(ctx: Koa.Context): string | undefined {
  const site = ctx.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return `a ${site} request`;
  const origin = ctx.get('origin');
  const own = `${ctx.protocol}://${ctx.host}`;
  if (!origin) return `a ${ctx.method} without an Origin header (send 'Origin: ${own}')`;
  if (origin !== own) return `a request from ${origin.slice(0, 200)}`;
  return undefined;
}

const ADMIN_UI: Resource = { type: 'admin-ui', name: 'admin-ui' };

/**
 * `boundTo`: the address the listener that took the request is bound to. Not the configured
 * one: between a config.yaml edit that moves the listener and its close, a request on the old
 * listener is judged by where that listener listens (a loopback peer is the administrator only
 * on a loopback listener).
 */
export function adminApp(kernel: KernelApi, log: Logger, boundTo: () => string): (req: IncomingMessage, res: ServerResponse) => void {
  const router = new Router();
  const calls = new ToolCalls(kernel);
  const show = (ctx: Koa.Context, body: Html | undefined, what: string, status = 200) => {
    ctx.type = 'html';
    ctx.set('cache-control', 'no-store');
    if (!body) {
      ctx.status = 404;
      ctx.body = notFound(what).text;
      return;
    }
    ctx.status = status;
    // The one way out for every page: whatever a server, a run or a step said is scrubbed
    // of known secrets as the page leaves, looked for as the page escapes them.
    ctx.body = kernel.secrets.scrubEncoded(body.text, escape);
  };
  const done = (ctx: Koa.Context) => (typeof ctx.query.done === 'string' ? ctx.query.done : undefined);
  router.get(['/', '/sessions'], (ctx) => show(ctx, sessionsPage(kernel), ''));
  router.get('/sessions/:id', (ctx) => {
    const s = kernel.sessions.get(ctx.params.id!);
    show(ctx, s && sessionPage(kernel, s, done(ctx)), `Session ${ctx.params.id}`);
  });
  router.get('/mcps', (ctx) => show(ctx, serversPage(kernel, done(ctx)), ''));
  router.get('/mcps/:name', (ctx, next) =>
    ctx.params.name === 'new' ? next() : show(ctx, serverPage(kernel, ctx.params.name!, done(ctx)), `Server ${ctx.params.name}`),
  );
  router.get('/settings', (ctx) => show(ctx, settingsPage(kernel), ''));
  router.get('/executions', async (ctx) => show(ctx, await executionsPage(kernel), ''));
  router.get('/executions/:id', async (ctx) => show(ctx, await executionPage(kernel, ctx.params.id!), `Run ${ctx.params.id}`));

  router.post('/sessions/:id/delete', async (ctx) => {
    const s = kernel.sessions.get(ctx.params.id!);
    if (!s) return show(ctx, undefined, `Session ${ctx.params.id}`);
    log.info(`admin: ending session ${s.id}`);
    await s.server.close();
    ctx.redirect('/sessions');
  });
  // A reconnect from a session's page reconnects the server's shared connection (signed-in
  // connections reconnect on their next call), as core_service_restart does: it answers once
  // the server is back, so the page shows where it ended up.
  router.post('/sessions/:id/servers/:name/reconnect', async (ctx) => {
    const back = `/sessions/${encodeURIComponent(ctx.params.id!)}`;
    const outcome = await coreCall(calls, ctx, 'core_service_restart', { name: ctx.params.name! });
    ctx.redirect(`${back}?done=${outcome.ok ? 'reconnected' : 'reconnect-failed'}`);
  });
  registerServerActions(router, { kernel, log, calls, settling: new Settling(kernel), show });
  // Grants of the OAuth client: every owner's, for one server or for all; their connections close and their sessions hear it.
  const dropGrants = async (ctx: Koa.Context, servers: string[]) => {
    const credentials = kernel.services.find('upstream-credentials');
    const upstreams = kernel.services.find('upstreams');
    if (!credentials || !upstreams) {
      ctx.status = 404;
      ctx.body = { error: 'no OAuth client grants are kept by this Switchboard (oauth.mcpClient is not enabled), so there is nothing to drop' };
      return;
    }
    let dropped = 0;
    for (const server of servers) {
      for (const owner of credentials.owners(server)) {
        await credentials.forget(server, owner);
        await upstreams.grantChanged(server, owner).catch(() => undefined);
        dropped++;
      }
    }
    log.info(`admin: dropped ${dropped} grant(s) of ${servers.length === 1 ? `'${servers[0]}'` : 'every server'}`);
    ctx.body = { dropped };
  };
  router.delete('/auth/:server', (ctx) => dropGrants(ctx, [ctx.params.server!]));
  router.delete('/user-tokens', (ctx) =>
    dropGrants(
      ctx,
      kernel.services
        .find('upstreams')
        ?.list()
        .map((s) => s.name) ?? [],
    ),
  );

  const app = new Koa();
  // DNS rebinding: answer only to the names this listener is known by. Its CSRF check below
  // compares Origin with the Host, which is then one of those names, never an attacker's.
  app.use(async (ctx, next) => {
    const hosts = hostCheck(boundTo(), kernel.settings().aggregator.allowedHosts, []);
    if (!hosts.allows(ctx.get('host') || undefined)) {
      ctx.status = 421;
      ctx.body = `Refused: Host '${ctx.get('host')}' is not a name the admin UI answers to (aggregator.allowedHosts)`;
      return;
    }
    await next();
  });
  // The admin UI is for administrators. It has no sign-in of its own, so its caller is known
  // by address: on a loopback listener a loopback peer is the local administrator; any other
  // caller (on a wider bind, every caller) is anonymous, refused by the built-in roles.
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      // A form too large or of another type, or an action the caller's principal cannot take here.
      const status = err instanceof FormError ? err.status : err instanceof ForbiddenError ? 403 : undefined;
      if (status === undefined) throw err;
      // The rest of a body too large is not read: the connection cannot carry another request.
      if (status === 413) ctx.set('connection', 'close');
      show(ctx, page('Not done', html`<p class="bad" role="alert">${(err as Error).message}</p>`), '', status);
    }
  });
  app.use(async (ctx, next) => {
    const principal = peerPrincipal(ctx.req.socket.remoteAddress, 'streamable-http', boundTo());
    const operation = ctx.method === 'GET' || ctx.method === 'HEAD' ? 'view' : 'act';
    const decision = authorizerOf(kernel).decide(principal, 'admin', ADMIN_UI, { operation });
    if (!decision.allowed) {
      audit(kernel, { outcome: 'denied', principal, action: 'admin', resource: ADMIN_UI, operation, rule: decision.rule, reason: decision.reason });
      ctx.status = 403;
      ctx.body = `Forbidden: ${describePrincipal(principal)} may not use the admin UI: ${decision.reason} [rule: ${decision.rule}]`;
      return;
    }
    (ctx.state as { principal: Principal }).principal = principal;
    await next();
  });
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      const why = crossSite(ctx);
      if (why) {
        ctx.status = 403;
        ctx.body = `Refused: ${why}; the admin pages accept actions from their own pages only`;
        return;
      }
    }
    ctx.set('x-frame-options', 'DENY');
    ctx.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
    await next();
  });
  app.use(router.routes()).use(router.allowedMethods());
  // Any other path: the styled page, not Koa's bare "Not Found".
  app.use((ctx) => {
    if (ctx.status === 404 && ctx.body === undefined) show(ctx, undefined, `The page ${ctx.path.slice(0, 200)}`);
  });
  const koa = app.callback(); // Koa answers its own errors: the promise never rejects
  return (req, res) => void koa(req, res);
}
