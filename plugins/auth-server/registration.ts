/**
 * POST /oauth/register (RFC 7591) in front of oidc-provider, bounded: who may register
 * (`registration.mode`), how often per client address, how much one document may hold, and
 * how many clients are kept (client-ledger.ts). Each check runs before the next costs more:
 * the mode and token before the body is read, the rate before the body is read, the
 * document's sizes before it is parsed further or stored, room for it last. Redirect URIs
 * are checked here too, so a client learns at once, not at its first sign-in.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { RouterContext } from '@koa/router';
import type { RateLimiter } from '../../kernel/index.js';
import type { TrustedProxies } from '../../lib/net/trusted-proxies.js';
import type { ClientLedger } from './client-ledger.js';
import { MAX_DOCUMENT_BYTES, metadataProblem } from './registration-metadata.js';
import { redirectUriProblem } from './redirect-guard.js';
import type { AuthServerSettings } from './settings.js';

export interface RegistrationDeps {
  settings: AuthServerSettings;
  proxies: TrustedProxies;
  limiter: RateLimiter;
  clients: ClientLedger;
  /** Hands the request, its body read, to oidc-provider. */
  handOver(ctx: RouterContext): Promise<void>;
}

function answer(ctx: RouterContext, status: number, error: string, description: string, headers: Record<string, string> = {}): void {
  ctx.status = status;
  ctx.set('cache-control', 'no-store');
  for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  ctx.body = { error, error_description: description };
}

/** IPv6 clients are counted per /64: one subscriber is handed a whole /64 to pick addresses from. */
export function addressKey(address: string): string {
  if (isIP(address) !== 6 || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, '').toLowerCase())
    .join(':')}::/64`;
}

const sameSecret = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/** The document within MAX_DOCUMENT_BYTES, or why not (a declared length is judged before anything is read). */
async function readDocument(req: IncomingMessage): Promise<string | { tooLarge: string }> {
  const declared = Number(req.headers['content-length']);
  const tooLarge = (size: string) => ({ tooLarge: `the registration document is ${size} bytes; at most ${MAX_DOCUMENT_BYTES} are allowed` });
  if (Number.isFinite(declared) && declared > MAX_DOCUMENT_BYTES) {
    req.resume();
    return tooLarge(String(declared));
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_DOCUMENT_BYTES) return tooLarge(`more than ${MAX_DOCUMENT_BYTES}`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function registrationHandler(deps: RegistrationDeps): (ctx: RouterContext) => Promise<void> {
  const { settings, proxies, limiter, clients } = deps;
  const bounds = settings.registration;
  return async (ctx) => {
    if (bounds.mode === 'closed')
      return answer(ctx, 403, 'access_denied', 'dynamic client registration is closed on this server; ask its operator for a client');
    if (bounds.mode === 'token') {
      const auth = ctx.get('authorization');
      const presented = /^Bearer (.+)$/i.exec(auth)?.[1];
      if (!presented || !sameSecret(presented, bounds.token!))
        return answer(ctx, 401, 'invalid_token', 'registration needs the initial access token as bearer', {
          'www-authenticate': `Bearer realm="${settings.issuer}", error="invalid_token"`,
        });
    }
    if (bounds.perAddress) {
      const address = addressKey(proxies.clientAddress(ctx.req) ?? 'unknown');
      const wait = await limiter.take(`registration:${address}`, 1, bounds.perAddress);
      if (wait > 0) {
        const seconds = Math.ceil(wait / 1000);
        return answer(ctx, 429, 'temporarily_unavailable', `too many registrations from ${address}; retry after ${seconds} s`, {
          'retry-after': String(seconds),
        });
      }
    }
    if (!ctx.is('application/json')) return answer(ctx, 400, 'invalid_request', 'send the registration document as application/json');
    const raw = await readDocument(ctx.req);
    if (typeof raw !== 'string') return answer(ctx, 400, 'invalid_client_metadata', raw.tooLarge);
    let doc: unknown;
    try {
      doc = JSON.parse(raw);
    } catch {
      return answer(ctx, 400, 'invalid_request', 'the registration body is not valid JSON');
    }
    const problem = metadataProblem(doc);
    if (problem) return answer(ctx, 400, problem.error, problem.description);
    const uris = (doc as { redirect_uris?: unknown }).redirect_uris;
    for (const uri of Array.isArray(uris) ? uris : []) {
      const bad = typeof uri === 'string' ? await redirectUriProblem(uri, settings.allowPrivateRedirectURIs) : undefined;
      if (bad) return answer(ctx, 400, 'invalid_redirect_uri', bad);
    }
    if (!(await clients.admit()))
      return answer(
        ctx,
        503,
        'temporarily_unavailable',
        `this server keeps at most ${bounds.maxClients} registered clients and every one is in use; try again later`,
        {
          'retry-after': '3600',
        },
      );
    try {
      // The body is read; oidc-provider takes it from here instead of the stream.
      (ctx.req as IncomingMessage & { body?: string }).body = raw;
      await deps.handOver(ctx);
    } finally {
      clients.settled();
    }
  };
}
