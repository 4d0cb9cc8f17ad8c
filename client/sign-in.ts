/**
 * Signing the person at the keyboard in to a protected Switchboard: the MCP SDK's own
 * client auth (discovery from the endpoint, registration, PKCE, token, refresh) with a
 * provider that keeps everything in the credential store and receives the code on a
 * loopback listener (RFC 8252). The browser is $BROWSER, else the desktop's opener; the
 * link is always printed too. `--silent` asks with prompt=none first (no page shown when
 * the identity provider still knows the person) and falls back to the interactive sign-in
 * on any failure.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, type OAuthClientProvider } from '#mcp-sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '#mcp-sdk/shared/auth.js';
import type { Credentials, CredentialStore } from './credentials.js';

export class SignInNeeded extends Error {
  constructor(endpoint: string) {
    super(`not signed in to ${endpoint} (or the sign-in has lapsed): run switchboard login --endpoint ${endpoint}`);
    this.name = 'SignInNeeded';
  }
}

/** How the link reaches a browser: $BROWSER, xdg-open or open; the person can always copy it from stderr. */
export function openBrowser(url: string, say: (line: string) => void): void {
  say(`Sign in at: ${url}`);
  // $BROWSER may carry arguments ("firefox --new-window"); the URL comes last.
  const [command, ...args] = (process.env.BROWSER || (process.platform === 'darwin' ? 'open' : 'xdg-open')).trim().split(/\s+/);
  const child = spawn(command!, [...args, url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

/** The OAuthClientProvider of the CLI: credentials from the store; a browser only when `interactive`. */
export class CliAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private expectedState: string | undefined;
  /** Set for the silent attempt. */
  prompt: 'none' | undefined;

  constructor(
    private readonly store: CredentialStore,
    private credentials: Credentials,
    private readonly interactive: { redirectUrl: string; open: (url: string) => void } | undefined,
  ) {}

  get redirectUrl(): string {
    return this.interactive?.redirectUrl ?? 'http://127.0.0.1/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    // A native client: any loopback port is accepted for its redirect (RFC 8252 section 7.3).
    return {
      client_name: 'switchboard CLI',
      redirect_uris: ['http://127.0.0.1/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    } as OAuthClientMetadata;
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('base64url');
    return this.expectedState;
  }

  stateMatches(state: string | null): boolean {
    return !!state && state === this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.credentials.client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.credentials = { ...this.credentials, client };
    await this.store.save(this.credentials);
  }

  tokens(): OAuthTokens | undefined {
    return this.credentials.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresAt = typeof tokens.expires_in === 'number' ? Math.floor(Date.now() / 1000) + tokens.expires_in : undefined;
    this.credentials = { ...this.credentials, tokens, ...(expiresAt !== undefined ? { expiresAt } : {}) };
    await this.store.save(this.credentials);
  }

  redirectToAuthorization(url: URL): void {
    if (!this.interactive) throw new SignInNeeded(this.store.endpoint);
    if (this.prompt) url.searchParams.set('prompt', this.prompt);
    this.interactive.open(url.href);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE verifier: the sign-in was not started here');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier'): Promise<void> {
    if (scope === 'verifier') return void (this.verifier = undefined);
    const { client, tokens, expiresAt, ...rest } = this.credentials;
    this.credentials = {
      ...rest,
      ...(scope === 'tokens' && client ? { client } : {}),
      ...(scope === 'client' && tokens ? { tokens, ...(expiresAt ? { expiresAt } : {}) } : {}),
    };
    await this.store.save(this.credentials);
  }
}

interface Returned {
  params: URLSearchParams;
}

/** The loopback listener the authorization server sends the browser back to. */
async function loopback(): Promise<{ redirectUrl: string; next(timeoutMs: number): Promise<Returned>; close(): void }> {
  let deliver: ((r: Returned) => void) | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') return void res.writeHead(404).end();
    const failed = url.searchParams.get('error');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Switchboard</title><p>${failed ? 'Sign-in did not complete; see the terminal.' : 'Signed in. You can close this tab.'}</p>`);
    deliver?.({ params: url.searchParams });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    redirectUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    next: (timeoutMs) =>
      new Promise<Returned>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
        deliver = (r) => {
          clearTimeout(timer);
          resolve(r);
        };
      }),
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

/** Signs in; returns how ('silent' or 'interactive'). Throws with one line saying why not. */
export async function signIn(
  endpoint: string,
  store: CredentialStore,
  options: { silent: boolean; say: (line: string) => void; timeoutMs?: number },
): Promise<'refreshed' | 'silent' | 'interactive'> {
  const listener = await loopback();
  try {
    const credentials = { ...(await store.load()), tokens: undefined };
    const provider = new CliAuthProvider(store, credentials, { redirectUrl: listener.redirectUrl, open: (url) => openBrowser(url, options.say) });
    const attempts: ('none' | undefined)[] = options.silent ? ['none', undefined] : [undefined];
    for (const prompt of attempts) {
      provider.prompt = prompt;
      const started = await auth(provider, { serverUrl: endpoint });
      if (started === 'AUTHORIZED') return 'refreshed';
      const back = await listener.next(options.timeoutMs ?? 5 * 60_000);
      const error = back.params.get('error');
      if (error) {
        const why = `${error}${back.params.get('error_description') ? `: ${back.params.get('error_description')}` : ''}`;
        if (prompt === 'none') {
          options.say(`Silent sign-in did not work (${why}); signing in interactively.`);
          continue;
        }
        throw new Error(`sign-in refused by ${endpoint}: ${why}`);
      }
      if (!provider.stateMatches(back.params.get('state'))) throw new Error('sign-in answer carries the wrong state; it was not started here (try again)');
      await auth(provider, { serverUrl: endpoint, authorizationCode: back.params.get('code') ?? '' });
      return prompt === 'none' ? 'silent' : 'interactive';
    }
    throw new Error('sign-in did not complete');
  } finally {
    listener.close();
  }
}
