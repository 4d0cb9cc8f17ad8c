/**
 * Switchboard as the OAuth 2.1 authorization server of its MCP endpoint, signing people in
 * at a real OpenID provider (oidc-provider in this process). Clients here are real: a
 * registered public client driven with fetch the way a browser and an IDE would, and the
 * MCP SDK client with the token.
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { meta } from '../support/harness.js';
import { Browser } from '../support/oauth-browser.js';
import { CLIENT_REDIRECT, mcpClient, protectedForSuite, registerClient, signIn, type OAuthSetup } from '../support/oauth-setup.js';

describe('OAuth server: protecting the MCP endpoint', function () {
  this.timeout(30_000);
  const suite = protectedForSuite();
  let setup: OAuthSetup;
  beforeEach(() => {
    setup = suite();
  });

  it('answers an unauthenticated MCP request with 401 naming the protected-resource metadata; /health stays open', async () => {
    const res = await fetch(setup.sb.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${setup.base}/.well-known/oauth-protected-resource"`);
    for (const path of ['/sse', '/message?sessionId=x'])
      expect((await fetch(`${setup.base}${path}`, { method: path === '/sse' ? 'GET' : 'POST' })).status, path).to.equal(401);
    const health = await fetch(`${setup.base}/health`);
    expect(health.status).to.equal(200);
  });

  it('publishes protected-resource and authorization-server metadata', async () => {
    const prm = (await (await fetch(`${setup.base}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
    expect(prm).to.include({ resource: setup.base });
    expect(prm.authorization_servers).to.deep.equal([setup.base]);
    const pathPrm = (await (await fetch(`${setup.base}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(pathPrm).to.deep.equal(prm);
    const as = (await (await fetch(`${setup.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).to.include({
      issuer: setup.base,
      authorization_endpoint: `${setup.base}/oauth/authorize`,
      token_endpoint: `${setup.base}/oauth/token`,
      registration_endpoint: `${setup.base}/oauth/register`,
      jwks_uri: `${setup.base}/.well-known/jwks.json`,
    });
    expect(as.code_challenge_methods_supported).to.deep.equal(['S256']);
    const jwks = (await (await fetch(`${setup.base}/.well-known/jwks.json`)).json()) as { keys: unknown[] };
    expect(jwks.keys).to.have.length(1);
  });

  it('signs a person in at the identity provider and lets their token use /mcp', async () => {
    const clientId = await registerClient(setup.base);
    const tokens = await signIn(setup.base, clientId);
    expect(tokens.token_type).to.equal('Bearer');
    expect(tokens.expires_in).to.be.within(1790, 1800);
    expect(tokens.refresh_token).to.be.a('string');
    expect(tokens.access_token.split('.')).to.have.length(1, 'access tokens are opaque, not JWTs');
    const client = await mcpClient(setup.sb.url, tokens.access_token);
    const listed = await meta<{ tools: { name: string }[] }>(client, 'list_tools');
    expect(listed.tools.map((t) => t.name)).to.include('x_tools_ping');
    await client.close();
  });
});

describe('OAuth server: the MCP SDK client signs in unchanged, as an IDE would', function () {
  this.timeout(30_000);
  const suite = protectedForSuite();
  let setup: OAuthSetup;
  beforeEach(() => {
    setup = suite();
  });

  it('discovers from the 401, registers, runs PKCE, gets a token and lists tools', async () => {
    const { UnauthorizedError } = await import('@modelcontextprotocol/sdk/client/auth.js');
    const store: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; authorizeAt?: URL } = {};
    const provider: OAuthClientProvider = {
      redirectUrl: CLIENT_REDIRECT,
      clientMetadata: {
        redirect_uris: [CLIENT_REDIRECT],
        client_name: 'ide',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      state: () => 'ide-state',
      clientInformation: () => store.client,
      saveClientInformation: (info) => void (store.client = info),
      tokens: () => store.tokens,
      saveTokens: (tokens) => void (store.tokens = tokens),
      redirectToAuthorization: (url) => void (store.authorizeAt = url),
      saveCodeVerifier: (v) => void (store.verifier = v),
      codeVerifier: () => store.verifier!,
    };
    const first = new StreamableHTTPClientTransport(new URL(setup.sb.url), { authProvider: provider });
    let refused: unknown;
    await new Client({ name: 'ide', version: '1' }).connect(first).catch((err: unknown) => (refused = err));
    expect(refused).to.be.instanceOf(UnauthorizedError);
    expect(store.client?.client_id, 'registered dynamically').to.be.a('string');
    expect(store.authorizeAt?.searchParams.get('code_challenge_method')).to.equal('S256');
    const back = await new Browser().follow(store.authorizeAt!.href, CLIENT_REDIRECT);
    expect(back.searchParams.get('state')).to.equal('ide-state');
    await first.finishAuth(back.searchParams.get('code')!);
    expect(store.tokens?.access_token).to.be.a('string');

    const client = new Client({ name: 'ide', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(setup.sb.url), { authProvider: provider }));
    const listed = await meta<{ tools: { name: string }[] }>(client, 'list_tools');
    expect(listed.tools.map((t) => t.name)).to.include('x_tools_add');
    await client.close();
  });
});
