/**
 * A protected Switchboard for the OAuth tests: a real OpenID provider (in this process) as
 * the identity provider, Switchboard in its own process pointing at it, and the steps a
 * client takes: register, sign a person in, use the token.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort, startSwitchboard, stdioServer, TEST_SERVER, type Running } from './harness.js';
import { Browser, pkce, postForm } from './oauth-browser.js';
import { startTestIdp, type TestIdp, type TestIdpOptions } from '../fixtures/identity-provider.js';

export const CLIENT_REDIRECT = 'http://127.0.0.1:7/callback';

export interface OAuthSetup {
  idp: TestIdp;
  sb: Running;
  base: string;
}

/**
 * A protected Switchboard and its identity provider. `again` restarts against the same
 * provider, port and configuration directory (given as `configDir`, which then outlives
 * each Switchboard), as an operator's restart would.
 */
/** Switchboard as a client of the identity provider: people sign in to it there, coming back to `base`. */
/** The protected MCP server's own client at the identity provider, with which it introspects the tokens it is sent. */
export const RESOURCE_SERVER = { clientId: 'mcp-resource', clientSecret: 'resource-server-secret-123' };

/** The identity provider's entry for that client (the counterpart of switchboardAtIdp). */
export function resourceServerAtIdp(): NonNullable<TestIdpOptions['clients']>[number] {
  return {
    client_id: RESOURCE_SERVER.clientId,
    client_secret: RESOURCE_SERVER.clientSecret,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
  };
}

/** Switchboard's client secret at the identity provider, as configured at first. */
const IDP_SECRET = 'switchboard-idp-secret';

export function switchboardAtIdp(base: string): NonNullable<TestIdpOptions['clients']>[number] {
  return {
    client_id: 'switchboard',
    client_secret: IDP_SECRET,
    redirect_uris: [`${base}/oauth/callback`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}

export async function startProtected(
  opts: {
    idp?: Partial<TestIdpOptions>;
    serverYaml?: string;
    files?: Record<string, string>;
    env?: Record<string, string>;
    configDir?: string;
    again?: OAuthSetup;
    /** false: no MCP server behind it, for a test of the authorization server alone (a stdio server's start is 0.85 s of CPU). */
    upstream?: boolean;
    /** Where `${IDP_CLIENT_SECRET}` is found: Switchboard's environment (the default) or its secrets.env, where it can be renewed. */
    idpSecretIn?: 'environment' | 'secrets.env';
  } = {},
): Promise<OAuthSetup> {
  const port = opts.again ? Number(new URL(opts.again.base).port) : await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { clients: moreClients = [], ...idpOptions } = opts.idp ?? {};
  const idp =
    opts.again?.idp ??
    (await startTestIdp({
      clients: [switchboardAtIdp(base), ...moreClients],
      ...idpOptions,
    }));
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
  const inSecretsEnv = opts.idpSecretIn === 'secrets.env';
  const files = {
    'config.yaml': config,
    ...(opts.upstream === false ? {} : { 'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER) }),
    ...(inSecretsEnv ? { 'secrets.env': `IDP_CLIENT_SECRET=${IDP_SECRET}\n` } : {}),
    ...opts.files,
  };
  if (opts.configDir) {
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(opts.configDir, name)), { recursive: true });
      await writeFile(join(opts.configDir, name), text);
    }
  }
  const sb = await startSwitchboard(files, {
    args: ['--port', String(port)],
    env: { ...(inSecretsEnv ? {} : { IDP_CLIENT_SECRET: IDP_SECRET }), ...opts.env },
    ...(opts.configDir ? { configDir: opts.configDir } : {}),
  });
  return { idp, sb, base };
}

/** A protected Switchboard for the enclosing mocha suite: started before it, stopped after. */
export function protectedForSuite(opts: Parameters<typeof startProtected>[0] = {}): () => OAuthSetup {
  let setup: OAuthSetup | undefined;
  before(async () => {
    setup = await startProtected(opts);
  });
  after(async () => {
    await setup?.sb.stop();
    await setup?.idp.close();
  });
  return () => setup!;
}

export async function registerClient(base: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [CLIENT_REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'test client',
      ...extra,
    }),
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
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CLIENT_REDIRECT,
    state: 'st-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'mcp',
    resource: base,
    ...params,
  }).toString();
  const back = await new Browser().follow(authorize.href, CLIENT_REDIRECT);
  expect(back.searchParams.get('error'), back.href).to.equal(null);
  expect(back.searchParams.get('state')).to.equal(params.state ?? 'st-123');
  const token = await postForm(`${base}/oauth/token`, {
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: CLIENT_REDIRECT,
    code_verifier: verifier,
    client_id: clientId,
    resource: base,
  });
  expect(token.status, JSON.stringify(token.body)).to.equal(200);
  return token.body as unknown as Tokens;
}

/** An MCP client signed in as `person` (a fresh registration and sign-in); the IdP goes back to alice after. */
export async function clientAs(setup: OAuthSetup, person: string): Promise<Client> {
  setup.idp.signInAs(person);
  try {
    return await mcpClient(setup.sb.url, (await signIn(setup.base, await registerClient(setup.base))).access_token);
  } finally {
    setup.idp.signInAs('alice');
  }
}

export async function mcpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}
