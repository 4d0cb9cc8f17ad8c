/**
 * The OAuth client's paths: the client metadata document (its URL is the client_id at
 * authorization servers that support such documents), the start of a sign-in (from the
 * link core_auth_login returns) and the return from the authorization server. What the
 * browser sees is a short page, or a redirect to an allowlisted `redirect` target.
 */
import type { default as Router, RouterContext } from '@koa/router';
import type { OAuthClientMetadata } from '#mcp-sdk/shared/auth.js';
import { html, shortPage, type Html } from '../../lib/html.js';
import type { Outcome, SignIns } from './sign-ins.js';

export const CLIENT_METADATA_PATH = '/.well-known/oauth-client.json';
export const START_PATH = '/oauth/proxy/start';

/** An exact URL, or any URL under an entry that ends with '/'. */
export function redirectAllowed(target: string, allowlist: readonly string[]): boolean {
  if (!URL.canParse(target)) return false;
  const href = new URL(target).href;
  return allowlist.some((entry) => (entry.endsWith('/') ? href.startsWith(entry) : href === entry || href === new URL(entry).href));
}

function page(title: string, message: string): Html {
  return shortPage(
    title,
    html`<h1>${title}</h1>
      <p>${message}</p>`,
  );
}

export interface RouteParts {
  signIns: SignIns;
  callbackPath: string;
  allowlist: () => readonly string[];
  /** The document served at CLIENT_METADATA_PATH (its client_id is its own URL). */
  metadata: () => OAuthClientMetadata & { client_id: string };
}

export function mountRoutes(router: Router, parts: RouteParts): void {
  const answer = (ctx: RouterContext, outcome: Outcome): void => {
    ctx.set('cache-control', 'no-store');
    if (outcome.kind === 'redirect') return void ctx.redirect(outcome.url);
    if (outcome.kind === 'signed-in') {
      if (outcome.redirect) return void ctx.redirect(outcome.redirect);
      ctx.type = 'html';
      ctx.body = page('Signed in', `You are signed in to ${outcome.server}. Its tools are now listed for your agent; you can close this window.`).text;
      return;
    }
    ctx.status = outcome.status;
    ctx.type = 'html';
    ctx.body = page('Sign-in failed', outcome.message).text;
  };

  router.get(CLIENT_METADATA_PATH, (ctx) => {
    ctx.set('cache-control', 'public, max-age=300');
    ctx.body = parts.metadata();
  });

  router.get(START_PATH, async (ctx) => {
    const redirect = typeof ctx.query.redirect === 'string' ? ctx.query.redirect : undefined;
    if (redirect !== undefined && !redirectAllowed(redirect, parts.allowlist())) {
      return void answer(ctx, { kind: 'refused', status: 400, message: `The redirect target ${redirect} is not in postLoginRedirectAllowlist.` });
    }
    answer(ctx, await parts.signIns.begin(typeof ctx.query.ticket === 'string' ? ctx.query.ticket : '', redirect));
  });

  router.get(parts.callbackPath, async (ctx) => {
    const q: Record<string, string | undefined> = {};
    // `iss` (RFC 9207) is kept as sent, absent or present: its absence is itself checked.
    for (const k of ['code', 'state', 'error', 'error_description', 'iss']) if (typeof ctx.query[k] === 'string') q[k] = ctx.query[k];
    answer(ctx, await parts.signIns.finish(q));
  });
}
