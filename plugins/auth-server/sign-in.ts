/**
 * Sign-in is delegated: oidc-provider sends the browser to /oauth/interaction/<uid>, which
 * starts the identity provider's code flow (PKCE, state, nonce kept sealed for ten minutes);
 * the provider returns to /oauth/callback, where the ID token is checked, the person's
 * account saved, the client's requested scopes granted (consent is implied: the person
 * signed in for this client), and the browser sent on to finish the authorization.
 */
import type { default as Router, RouterContext } from '@koa/router';
import type Provider from 'oidc-provider';
import type { Accounts } from './accounts.js';
import { IdentityProviderError, type IdentityProvider, type SignInStart } from './identity-provider.js';
import { INTERACTION_PATH, OIDC_SCOPES, RESOURCE_SCOPE, SILENT_PARAM } from './paths.js';
import type { SealedStore } from '../../lib/grants/sealed-store.js';
import type { AuthServerSettings } from './settings.js';
import { documentClientPage, isDocumentClientId } from './document-client-page.js';

export const CALLBACK_PATH = '/oauth/callback';
const PENDING_SECONDS = 10 * 60;

interface PendingSignIn {
  uid: string;
  started: SignInStart;
  /** The client asked prompt=none: the provider's own refusal (login_required...) goes back to it. */
  silent?: boolean;
}

const SILENT_ERRORS = new Set(['login_required', 'interaction_required', 'consent_required', 'account_selection_required']);

function fail(ctx: RouterContext, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.set('cache-control', 'no-store');
  ctx.body = { error, error_description: description };
}

export function mountSignIn(
  router: Router,
  deps: {
    provider: Provider;
    idp: IdentityProvider;
    accounts: Accounts;
    store: SealedStore;
    /** Scopes asked besides the configured ones (audiences servers want in forwarded tokens). */
    extraScopes?: () => string[];
    settings: AuthServerSettings;
    now: () => number;
    log: { info(m: string): void; warn(m: string): void };
  },
): void {
  const callbackUrl = `${deps.settings.issuer}${CALLBACK_PATH}`;

  /** Grants what the client asked for (consent is implied: the person signed in for this client). */
  const grantFor = async (provider: Provider, accountId: string, params: { client_id: string; scope?: string }, existing?: string): Promise<string> => {
    const requested = new Set((params.scope ?? '').split(' ').filter(Boolean));
    const grant = (existing ? await provider.Grant.find(existing) : undefined) ?? new provider.Grant({ accountId, clientId: params.client_id });
    const oidc = [...OIDC_SCOPES, RESOURCE_SCOPE].filter((s) => requested.has(s));
    if (oidc.length) grant.addOIDCScope(oidc.join(' '));
    grant.addResourceScope(deps.settings.audience, RESOURCE_SCOPE);
    return grant.save();
  };

  router.get(`${INTERACTION_PATH}/:uid`, async (ctx) => {
    const provider = deps.provider;
    let details;
    try {
      details = await provider.interactionDetails(ctx.req, ctx.res);
    } catch {
      return fail(ctx, 400, 'invalid_request', 'this sign-in has expired or was started in another browser; start again from the client');
    }
    const params = details.params as { client_id: string; redirect_uri?: string };
    // A client known only by its metadata document: the person sees who asks before anything is granted.
    if (isDocumentClientId(params.client_id) && ctx.query.confirmed !== '1') {
      if ((details.params as Record<string, unknown>)[SILENT_PARAM] === '1') {
        const to = await provider.interactionResult(
          ctx.req,
          ctx.res,
          { error: 'consent_required', error_description: 'a client known by its metadata document is shown to the person first; sign in without prompt=none' },
          { mergeWithLastSubmission: false },
        );
        return ctx.redirect(to);
      }
      const client = await provider.Client.find(params.client_id);
      ctx.set('cache-control', 'no-store');
      // Never framed: the page is the person's only view of who asks (no clickjacking of "Continue").
      ctx.set('content-security-policy', "frame-ancestors 'none'");
      ctx.set('x-frame-options', 'DENY');
      ctx.type = 'html';
      ctx.body = documentClientPage(
        {
          clientId: params.client_id,
          ...(client?.clientName ? { name: client.clientName } : {}),
          redirectUri: params.redirect_uri ?? client?.redirectUris?.[0] ?? '',
        },
        `${INTERACTION_PATH}/${encodeURIComponent(details.uid)}?confirmed=1`,
      ).text;
      return;
    }
    // Already signed in here (another client, a new scope): grant without a trip to the identity provider.
    if (details.prompt.name === 'consent' && details.session?.accountId) {
      const grantId = await grantFor(provider, details.session.accountId, details.params as { client_id: string; scope?: string }, details.grantId);
      const to = await provider.interactionResult(ctx.req, ctx.res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return ctx.redirect(to);
    }
    const silent = (details.params as Record<string, unknown>)[SILENT_PARAM] === '1';
    const started = await deps.idp.start(callbackUrl, { silent, extraScopes: deps.extraScopes?.() ?? [] });
    await deps.store.put<PendingSignIn>('SignIn', started.state, {
      payload: { uid: details.uid, started, silent },
      expiresAt: Math.floor(deps.now()) + PENDING_SECONDS,
    });
    ctx.redirect(started.url);
  });

  router.get(CALLBACK_PATH, async (ctx) => {
    const state = typeof ctx.query.state === 'string' ? ctx.query.state : '';
    const pending = state ? await deps.store.get<PendingSignIn>('SignIn', state) : undefined;
    if (!pending) return fail(ctx, 400, 'invalid_request', 'unknown or expired state: this sign-in was not started here, or took longer than ten minutes');
    // One use: a replayed callback finds nothing.
    await deps.store.delete('SignIn', state);
    const provider = deps.provider;
    const interaction = await provider.Interaction.find(pending.payload.uid);
    if (!interaction) return fail(ctx, 400, 'invalid_request', 'the authorization this sign-in belonged to has expired; start again from the client');
    let account;
    try {
      const signedIn = await deps.idp.finish(new URL(ctx.href, deps.settings.issuer), pending.payload.started, callbackUrl);
      account = await deps.accounts.signedIn(signedIn);
    } catch (err) {
      const message = err instanceof IdentityProviderError ? err.message : `the identity provider's answer was not accepted: ${(err as Error).message}`;
      deps.log.warn(`sign-in failed: ${message}`);
      const code =
        err instanceof IdentityProviderError && pending.payload.silent && err.oauthError && SILENT_ERRORS.has(err.oauthError)
          ? err.oauthError
          : 'access_denied';
      interaction.result = { error: code, error_description: message };
      await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
      return ctx.redirect(interaction.returnTo);
    }
    const params = interaction.params as { client_id: string; scope?: string };
    const grantId = await grantFor(provider, account.subject, params);
    interaction.result = { login: { accountId: account.subject }, consent: { grantId } };
    await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
    deps.log.info(`'${account.subject}' signed in for client ${params.client_id}`);
    ctx.redirect(interaction.returnTo);
  });
}
