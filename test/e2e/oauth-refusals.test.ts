/**
 * What the OAuth server refuses, each with the exact error a client developer would read:
 * flows without PKCE or state, foreign redirect URIs, private addresses, revoked and
 * DPoP-bound tokens used wrongly, and a session id presented with another person's token.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createHash } from 'node:crypto';
import { meta, postInitialize } from '../support/harness.js';
import { Browser, FlowStopped, pkce, postForm } from '../support/oauth-browser.js';
import { CLIENT_REDIRECT, mcpClient, protectedForSuite, registerClient, signIn, startProtected, type OAuthSetup } from '../support/oauth-setup.js';

/** The authorization request a client would send, with `params` overriding (or, as undefined, removing) a field. */
function authorizeUrl(base: string, clientId: string, params: Record<string, string | undefined> = {}): string {
  const url = new URL(`${base}/oauth/authorize`);
  const all: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CLIENT_REDIRECT,
    state: 's1',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    scope: 'mcp',
    ...params,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

async function refusedAt(start: string): Promise<{ error?: string; error_description?: string; status?: number; via: 'redirect' | 'page' }> {
  try {
    const back = await new Browser().follow(start, CLIENT_REDIRECT);
    return { error: back.searchParams.get('error') ?? undefined, error_description: back.searchParams.get('error_description') ?? undefined, via: 'redirect' };
  } catch (err) {
    if (!(err instanceof FlowStopped)) throw err;
    return { ...err.json, status: err.status, via: 'page' };
  }
}

/** An initialize carrying `headers` (a token, a DPoP proof), answered as is. */
const initialize = (url: string, headers: Record<string, string>): Promise<Response> => postInitialize(url, '2025-06-18', headers);

async function dpopProof(key: { privateKey: CryptoKey; jwk: JWK }, htm: string, htu: string, accessToken?: string): Promise<string> {
  return new SignJWT({ htm, htu, jti: randomUUID(), ...(accessToken ? { ath: createHash('sha256').update(accessToken).digest('base64url') } : {}) })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.jwk })
    .setIssuedAt()
    .sign(key.privateKey);
}

async function dpopKey(): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: await exportJWK(publicKey) };
}

describe('OAuth server: refusals', function () {
  this.timeout(30_000);
  let setup: OAuthSetup;
  let clientId: string;

  before(async () => {
    setup = await startProtected();
    clientId = await registerClient(setup.base);
  });
  after(async () => {
    await setup?.sb.stop();
    await setup?.idp.close();
  });

  describe('the authorization request', () => {
    it('without PKCE: invalid_request, back at the client', async () => {
      const r = await refusedAt(authorizeUrl(setup.base, clientId, { code_challenge: undefined, code_challenge_method: undefined }));
      expect(r).to.deep.include({
        via: 'redirect',
        error: 'invalid_request',
        error_description: 'Authorization Server policy requires PKCE to be used for this request',
      });
    });

    it('with plain PKCE: invalid_request (S256 only)', async () => {
      const r = await refusedAt(authorizeUrl(setup.base, clientId, { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }));
      expect(r).to.deep.include({ via: 'redirect', error: 'invalid_request', error_description: 'not supported value of code_challenge_method' });
    });

    it('without state: invalid_request, shown and not redirected', async () => {
      const r = await refusedAt(authorizeUrl(setup.base, clientId, { state: undefined }));
      expect(r).to.deep.include({ via: 'page', status: 400, error: 'invalid_request' });
      expect(r.error_description).to.match(/^state is required/);
    });

    it('with a redirect URI the client did not register: refused on a page, never redirected there', async () => {
      const r = await refusedAt(authorizeUrl(setup.base, clientId, { redirect_uri: 'http://127.0.0.1:7/callback/other' }));
      expect(r).to.deep.include({
        via: 'page',
        status: 400,
        error: 'invalid_redirect_uri',
        error_description: "redirect_uri did not match any of the client's registered redirect_uris",
      });
    });

    it('for another resource: invalid_target', async () => {
      const r = await refusedAt(authorizeUrl(setup.base, clientId, { resource: 'https://other.example/mcp' }));
      expect(r).to.deep.include({ via: 'redirect', error: 'invalid_target' });
      expect(r.error_description).to.include('is not served here');
    });

    it('with a redirect URI on a private address: the DNS-rebinding message, at registration and when a flow starts', async () => {
      for (const uri of ['http://10.1.2.3/callback', 'http://169.254.169.254/latest']) {
        const registered = await fetch(`${setup.base}/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: [uri], token_endpoint_auth_method: 'none' }),
        });
        expect(registered.status, uri).to.equal(400);
        expect(await registered.json(), uri).to.deep.equal({
          error: 'invalid_redirect_uri',
          error_description: 'redirect_uri: hostname resolves to private IP address (DNS rebinding protection)',
        });
        // A client registered before the rule (or with a name that resolved elsewhere then) is stopped when its flow starts.
        const r = await refusedAt(authorizeUrl(setup.base, clientId, { redirect_uri: uri }));
        expect(r, uri).to.deep.include({
          via: 'page',
          status: 400,
          error: 'invalid_request',
          error_description: 'redirect_uri: hostname resolves to private IP address (DNS rebinding protection)',
        });
      }
    });

    it('introspection says a token of this server is active, and inactive once revoked', async () => {
      const tokens = await signIn(setup.base, clientId, { scope: 'mcp openid email' });
      const intro = await postForm(`${setup.base}/oauth/introspect`, { token: tokens.access_token, client_id: clientId });
      expect(intro.body).to.include({ active: true, sub: 'alice', aud: setup.base, client_id: clientId });
      await postForm(`${setup.base}/oauth/revoke`, { token: tokens.access_token, client_id: clientId });
      expect((await postForm(`${setup.base}/oauth/introspect`, { token: tokens.access_token, client_id: clientId })).body).to.deep.equal({ active: false });
    });

    it('with a client metadata document on 127.0.0.1: invalid_client naming the private address', async () => {
      const r = await refusedAt(authorizeUrl(setup.base, 'https://127.0.0.1:9443/client.json'));
      expect(r).to.deep.include({ via: 'page', status: 400, error: 'invalid_client' });
      expect(r.error_description).to.include('resolves to a private or internal address (127.0.0.1)');
    });

    it('a callback whose state this server never issued', async () => {
      const res = await fetch(`${setup.base}/oauth/callback?code=forged&state=not-ours`);
      expect(res.status).to.equal(400);
      expect(((await res.json()) as { error_description: string }).error_description).to.match(/^unknown or expired state/);
    });

    it('garbage at the OAuth endpoints gets a standard error naming what is wrong, never a crash', async () => {
      const register = (body: string) => fetch(`${setup.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(await (await register('{"redirect_uris": [')).json()).to.deep.equal({
        error: 'invalid_request',
        error_description: 'the registration body is not valid JSON',
      });
      const huge = await register(JSON.stringify({ redirect_uris: [CLIENT_REDIRECT], client_name: 'x'.repeat(80_000) }));
      expect(huge.status).to.equal(400);
      expect(((await huge.json()) as { error_description: string }).error_description).to.match(
        /^the registration document is \d+ bytes; at most 16384 are allowed$/,
      );
      const notUris = await register(JSON.stringify({ redirect_uris: 'not-a-list' }));
      expect(notUris.status).to.equal(400);
      expect(((await notUris.json()) as { error: string }).error).to.equal('invalid_redirect_uri');
      const grant = await postForm(`${setup.base}/oauth/token`, { grant_type: 'urn:example:nonsense', client_id: clientId });
      expect(grant.body.error).to.equal('unsupported_grant_type');
      const missing = await postForm(`${setup.base}/oauth/token`, { grant_type: 'authorization_code', client_id: clientId });
      expect(missing.body).to.include({ error: 'invalid_request' });
      expect(String(missing.body.error_description)).to.match(/code/);
      const health = await fetch(`${setup.base}/health`);
      expect(health.status, 'still serving').to.equal(200);
    });

    it('a code redeemed with the wrong verifier: invalid_grant', async () => {
      const { challenge } = pkce();
      const back = await new Browser().follow(authorizeUrl(setup.base, clientId, { code_challenge: challenge }), CLIENT_REDIRECT);
      const token = await postForm(`${setup.base}/oauth/token`, {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: CLIENT_REDIRECT,
        code_verifier: pkce().verifier,
        client_id: clientId,
      });
      expect(token.status).to.equal(400);
      expect(token.body).to.include({ error: 'invalid_grant' });
    });
  });

  describe('tokens at /mcp', () => {
    it('a revoked access token and a revoked refresh token stop working', async () => {
      const tokens = await signIn(setup.base, clientId);
      expect((await initialize(setup.sb.url, { authorization: `Bearer ${tokens.access_token}` })).status).to.equal(200);
      expect((await postForm(`${setup.base}/oauth/revoke`, { token: tokens.access_token, client_id: clientId })).status).to.equal(200);
      const after = await initialize(setup.sb.url, { authorization: `Bearer ${tokens.access_token}` });
      expect(after.status).to.equal(401);
      expect(after.headers.get('www-authenticate')).to.include('error="invalid_token"');
      expect((await postForm(`${setup.base}/oauth/revoke`, { token: tokens.refresh_token!, client_id: clientId })).status).to.equal(200);
      const refresh = await postForm(`${setup.base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId });
      expect(refresh).to.deep.include({ status: 400 });
      expect(refresh.body).to.deep.include({ error: 'invalid_grant', error_description: 'grant request is invalid' });
    });

    it('refresh tokens rotate: the new one works, the used one is refused', async () => {
      const tokens = await signIn(setup.base, clientId);
      const first = await postForm(`${setup.base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body.refresh_token).to.be.a('string').and.not.equal(tokens.refresh_token);
      expect((await initialize(setup.sb.url, { authorization: `Bearer ${String(first.body.access_token)}` })).status).to.equal(200);
      const again = await postForm(`${setup.base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId });
      expect(again.body).to.include({ error: 'invalid_grant' });
    });

    it('a garbage or missing token: 401 with the right WWW-Authenticate', async () => {
      const bad = await initialize(setup.sb.url, { authorization: 'Bearer not-a-token' });
      expect(bad.status).to.equal(401);
      expect(bad.headers.get('www-authenticate')).to.equal(
        `Bearer resource_metadata="${setup.base}/.well-known/oauth-protected-resource", error="invalid_token", error_description="the access token is unknown, revoked or malformed"`,
      );
      const scheme = await initialize(setup.sb.url, { authorization: 'Basic dXNlcjpwYXNz' });
      expect(scheme.status).to.equal(400);
    });

    it("a session id presented with another person's token is refused", async () => {
      const alice = await signIn(setup.base, clientId);
      setup.idp.signInAs('bob');
      const bob = await signIn(setup.base, await registerClient(setup.base));
      setup.idp.signInAs('alice');
      const client = await mcpClient(setup.sb.url, alice.access_token);
      await meta(client, 'list_tools');
      const sessionId = (client.transport as { sessionId?: string }).sessionId!;
      const hijack = await fetch(setup.sb.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${bob.access_token}`,
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_tools', arguments: {} } }),
      });
      expect(hijack.status).to.equal(403);
      expect(((await hijack.json()) as { error: { message: string } }).error.message).to.equal(
        `Forbidden: Session '${sessionId}' belongs to another caller; initialize a session of your own`,
      );
      await meta(client, 'list_tools');
      await client.close();
    });
  });

  describe('DPoP-bound tokens', () => {
    let key: { privateKey: CryptoKey; jwk: JWK };
    let accessToken: string;

    before(async () => {
      key = await dpopKey();
      const { verifier, challenge } = pkce();
      const back = await new Browser().follow(authorizeUrl(setup.base, clientId, { code_challenge: challenge }), CLIENT_REDIRECT);
      const token = await postForm(
        `${setup.base}/oauth/token`,
        { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: CLIENT_REDIRECT, code_verifier: verifier, client_id: clientId },
        { dpop: await dpopProof(key, 'POST', `${setup.base}/oauth/token`) },
      );
      expect(token.status, JSON.stringify(token.body)).to.equal(200);
      expect(token.body.token_type).to.equal('DPoP');
      accessToken = String(token.body.access_token);
    });

    it('works with a fresh proof for this method and URL', async () => {
      const res = await initialize(setup.sb.url, { authorization: `DPoP ${accessToken}`, dpop: await dpopProof(key, 'POST', setup.sb.url, accessToken) });
      expect(res.status).to.equal(200);
    });

    it('ignores forwarded headers from a peer that is not a trusted proxy: the proof must name the URL really addressed', async () => {
      const forwardedUrl = 'https://switchboard.example/mcp';
      const res = await initialize(setup.sb.url, {
        authorization: `DPoP ${accessToken}`,
        dpop: await dpopProof(key, 'POST', forwardedUrl, accessToken),
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'switchboard.example',
      });
      expect(res.status).to.equal(401);
      expect(((await res.json()) as { error_description: string }).error_description).to.equal(
        `DPoP proof htu '${forwardedUrl}' does not match ${setup.sb.url}`,
      );
    });

    it('refuses a replayed proof, a proof for another URL, a proof by another key, and the token as a plain bearer', async () => {
      const proof = await dpopProof(key, 'POST', setup.sb.url, accessToken);
      expect((await initialize(setup.sb.url, { authorization: `DPoP ${accessToken}`, dpop: proof })).status).to.equal(200);
      const cases: [string, Record<string, string>, string][] = [
        ['replay', { authorization: `DPoP ${accessToken}`, dpop: proof }, 'DPoP proof replayed (jti already used)'],
        [
          'wrong htu',
          { authorization: `DPoP ${accessToken}`, dpop: await dpopProof(key, 'POST', `${setup.base}/elsewhere`, accessToken) },
          `DPoP proof htu '${setup.base}/elsewhere' does not match ${setup.sb.url}`,
        ],
        [
          'wrong key',
          { authorization: `DPoP ${accessToken}`, dpop: await dpopProof(await dpopKey(), 'POST', setup.sb.url, accessToken) },
          'DPoP proof is signed by a key other than the one the token is bound to',
        ],
        ['as bearer', { authorization: `Bearer ${accessToken}` }, 'the access token is DPoP-bound: present it as "DPoP <token>" with a DPoP proof'],
      ];
      for (const [what, headers, message] of cases) {
        const res = await initialize(setup.sb.url, headers);
        expect(res.status, what).to.equal(401);
        expect(((await res.json()) as { error_description: string }).error_description, what).to.equal(message);
        expect(res.headers.get('www-authenticate'), what).to.match(/^DPoP /);
      }
    });
  });
});

describe('OAuth server: gated registration and a trusted proxy', function () {
  this.timeout(30_000);
  const suite = protectedForSuite({
    serverYaml: '      registration:\n        token: ${REGISTRATION_TOKEN}\n      trustedProxyCIDRs: [127.0.0.1/32]',
    env: { REGISTRATION_TOKEN: 'let-me-register-please' },
  });
  let setup: OAuthSetup;
  beforeEach(() => {
    setup = suite();
  });

  it('registration needs the registration token as bearer', async () => {
    const body = JSON.stringify({ redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'none' });
    const without = await fetch(`${setup.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(without.status).to.equal(401);
    expect(((await without.json()) as { error: string }).error).to.equal('invalid_token');
    const withToken = await fetch(`${setup.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer let-me-register-please' },
      body,
    });
    expect(withToken.status).to.equal(201);
  });

  it('behind a trusted proxy, the DPoP htu is the URL the client addressed (forwarded protocol and host)', async () => {
    const clientId = (
      (await (
        await fetch(`${setup.base}/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer let-me-register-please' },
          body: JSON.stringify({ redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'none' }),
        })
      ).json()) as { client_id: string }
    ).client_id;
    const key = await dpopKey();
    const { verifier, challenge } = pkce();
    const back = await new Browser().follow(authorizeUrl(setup.base, clientId, { code_challenge: challenge }), CLIENT_REDIRECT);
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'switchboard.example' };
    const token = await postForm(
      `${setup.base}/oauth/token`,
      { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: CLIENT_REDIRECT, code_verifier: verifier, client_id: clientId },
      { dpop: await dpopProof(key, 'POST', 'https://switchboard.example/oauth/token'), ...forwarded },
    );
    expect(token.status, JSON.stringify(token.body)).to.equal(200);
    const accessToken = String(token.body.access_token);
    const res = await initialize(setup.sb.url, {
      authorization: `DPoP ${accessToken}`,
      dpop: await dpopProof(key, 'POST', 'https://switchboard.example/mcp', accessToken),
      ...forwarded,
    });
    expect(res.status).to.equal(200);
  });
});
