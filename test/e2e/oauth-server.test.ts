/**
 * Switchboard as the OAuth 2.1 authorization server of its MCP endpoint, signing people in
 * at a real OpenID provider (oidc-provider in this process). Clients here are real: a
 * registered public client driven with fetch the way a browser and an IDE would, and the
 * MCP SDK client with the token.
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort, meta, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';
import { Browser, pkce, postForm } from '../support/oauth-browser.js';
import { startTestIdp, type TestIdp } from '../fixtures/identity-provider.js';

const CLIENT_REDIRECT = 'http://127.0.0.1:7/callback';

export interface OAuthSetup {
  idp: TestIdp;
  sb: Running;
  base: string;
}

export async function startProtected(opts: { idp?: Parameters<typeof startTestIdp>[0] extends infer O ? Partial<O> : never; serverYaml?: string; env?: Record<string, string>; configDir?: string } = {}): Promise<OAuthSetup> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const idp = await startTestIdp({
    clients: [{ client_id: 'switchboard', client_secret: 'switchboard-idp-secret', redirect_uris: [`${base}/oauth/callback`], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }],
    ...opts.idp,
  });
  const config = [
    'aggregator:',
    '  oauth:',
    '    server:',
    '      enabled: true',
    `      baseUrl: ${base}`,
    '      idp:',
    `        issuer: ${idp.issuer}`,
    '        clientId: switchboard',
    '        clientSecret: ${IDP_CLIENT_SECRET}',
    opts.serverYaml ?? '',
    'idp:',
    '  allowPrivateIPOIDC: true',
  ].join('\n');
  const sb = await startSwitchboard(
    { 'config.yaml': config, 'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER) },
    { args: ['--port', String(port)], env: { IDP_CLIENT_SECRET: 'switchboard-idp-secret', ...opts.env }, ...(opts.configDir ? { configDir: opts.configDir } : {}) },
  );
  return { idp, sb, base };
}

export async function registerClient(base: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], client_name: 'test client', ...extra }),
  });
  const body = (await res.json()) as { client_id: string };
  expect(res.status, JSON.stringify(body)).to.equal(201);
  return body.client_id;
}

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  token_type: string;
  scope?: string;
}

/** The whole authorization-code flow as a client and a person's browser run it. */
export async function signIn(base: string, clientId: string, params: Record<string, string> = {}): Promise<Tokens> {
  const { verifier, challenge } = pkce();
  const authorize = new URL(`${base}/oauth/authorize`);
  authorize.search = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: CLIENT_REDIRECT, state: 'st-123', code_challenge: challenge, code_challenge_method: 'S256', scope: 'mcp', resource: base, ...params }).toString();
  const back = await new Browser().follow(authorize.href, CLIENT_REDIRECT);
  expect(back.searchParams.get('error'), back.href).to.equal(null);
  expect(back.searchParams.get('state')).to.equal(params.state ?? 'st-123');
  const token = await postForm(`${base}/oauth/token`, { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: CLIENT_REDIRECT, code_verifier: verifier, client_id: clientId, resource: base });
  expect(token.status, JSON.stringify(token.body)).to.equal(200);
  return token.body as unknown as Tokens;
}

export async function mcpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

describe('OAuth server: protecting the MCP endpoint', function () {
  this.timeout(30_000);
  let setup: OAuthSetup;

  before(async () => {
    setup = await startProtected();
  });
  after(async () => {
    await setup?.sb.stop();
    await setup?.idp.close();
  });

  it('answers an unauthenticated MCP request with 401 naming the protected-resource metadata; /health stays open', async () => {
    const res = await fetch(setup.sb.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) });
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${setup.base}/.well-known/oauth-protected-resource"`);
    for (const path of ['/sse', '/message?sessionId=x']) expect((await fetch(`${setup.base}${path}`, { method: path === '/sse' ? 'GET' : 'POST' })).status, path).to.equal(401);
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
    expect(as).to.include({ issuer: setup.base, authorization_endpoint: `${setup.base}/oauth/authorize`, token_endpoint: `${setup.base}/oauth/token`, registration_endpoint: `${setup.base}/oauth/register`, jwks_uri: `${setup.base}/.well-known/jwks.json` });
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
