/**
 * Client ID metadata documents at Switchboard's authorization server (MCP 2026-07-28,
 * draft-ietf-oauth-client-id-metadata-document): a client_id that is an https URL is fetched,
 * checked and cached, and the person sees who asks before signing in; every authorization
 * response names this server (RFC 9207). The attacks: a document of 10 MiB, a redirect
 * towards another (private) address, a document whose client_id is another URL, one carrying
 * a secret. The documents are served over real TLS on 127.0.0.1 (trusted through
 * NODE_EXTRA_CA_CERTS, private addresses allowed for the test); the refusal of a private
 * address itself is test/e2e/oauth-refusals.test.ts ("with a client metadata document on
 * 127.0.0.1").
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Browser, FlowStopped, pkce, postForm } from '../support/oauth-browser.js';
import { CLIENT_REDIRECT, registerClient, startProtected, type OAuthSetup } from '../support/oauth-setup.js';
import { selfSignedCertificate } from '../support/self-signed.js';

const NAME = 'Acme Notes';

describe('OAuth server: client ID metadata documents and iss', function () {
  this.timeout(60_000);
  let dir: string;
  let documents: Server;
  let docs: string;
  const hits = new Map<string, number>();
  let setup: OAuthSetup;

  const documentFor = (path: string, extra: Record<string, unknown> = {}) => ({
    client_id: `${docs}${path}`,
    client_name: NAME,
    redirect_uris: [CLIENT_REDIRECT],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sb-cimd-'));
    selfSignedCertificate(dir, '127.0.0.1');
    documents = createServer({ key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) }, (req, res) => {
      const path = req.url ?? '/';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const json = (body: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      if (path === '/notes.json') return json(documentFor(path), { 'cache-control': 'max-age=600' });
      if (path === '/other-id.json') return json(documentFor('/notes.json'));
      if (path === '/secret.json') return json(documentFor(path, { client_secret: 'hunter2' }));
      if (path === '/moved.json') return void res.writeHead(302, { location: `${docs}/inside.json` }).end();
      if (path === '/inside.json') return json(documentFor('/moved.json'));
      if (path === '/huge.json') {
        // 10 MiB, no declared length: the cap must hold while reading, not only on Content-Length.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.on('error', () => undefined);
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const more = (): void => {
          while (sent < 10 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        res.write(`{"client_id":"${docs}${path}","pad":"`);
        return more();
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    docs = `https://127.0.0.1:${(documents.address() as AddressInfo).port}`;
    setup = await startProtected({
      upstream: false,
      serverYaml: '      allowPrivateIPClientMetadata: true',
      env: { NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') },
    });
  });

  after(async () => {
    await setup?.sb.stop();
    await setup?.idp.close();
    documents?.closeAllConnections();
    await new Promise((r) => documents?.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  const authorize = (clientId: string, extra: Record<string, string> = {}) => {
    const url = new URL(`${setup.base}/oauth/authorize`);
    const { challenge } = pkce();
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: CLIENT_REDIRECT,
      state: 'st-1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'mcp',
      ...extra,
    }).toString();
    return url.href;
  };
  /** The page the flow stops at (a refusal is JSON). */
  const stopsAt = async (start: string): Promise<{ status: number; body: string }> => {
    const page = await new Browser().visit(start);
    return { status: page.status, body: page.body };
  };

  it('announces documents and iss in its metadata', async () => {
    const metadata = (await (await fetch(`${setup.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).to.include({ issuer: setup.base, client_id_metadata_document_supported: true, authorization_response_iss_parameter_supported: true });
  });

  it('shows the person the name, the document host and the redirect host; continuing signs in, with iss; the document is cached', async () => {
    const clientId = `${docs}/notes.json`;
    const { verifier, challenge } = pkce();
    const browser = new Browser();
    const start = new URL(authorize(clientId));
    start.searchParams.set('code_challenge', challenge);
    const page = await browser.visit(start.href);
    expect(page.status, page.body).to.equal(200);
    expect(page.body).to.contain(`${NAME} asks to use Switchboard as you`);
    expect(page.body).to.contain(`<strong>${new URL(docs).host}</strong>`);
    expect(page.body).to.contain('<strong>127.0.0.1:7</strong>').and.contain('That is this computer');
    const go = /href="([^"]+confirmed=1)"/.exec(page.body)?.[1];
    expect(go, 'a continue link').to.be.a('string');
    const back = await browser.follow(new URL(go!.replace(/&amp;/g, '&'), page.url).href, CLIENT_REDIRECT);
    expect(back.searchParams.get('iss')).to.equal(setup.base);
    expect(back.searchParams.get('state')).to.equal('st-1');
    const token = await postForm(`${setup.base}/oauth/token`, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: CLIENT_REDIRECT,
      code_verifier: verifier,
      client_id: clientId,
    });
    expect(token.status, JSON.stringify(token.body)).to.equal(200);
    expect(token.body.access_token).to.be.a('string');
    // Fetched once: the flow and the token request both used the cached document (max-age=600).
    expect(hits.get('/notes.json')).to.equal(1);
  });

  it('a request without a person (prompt=none) is answered consent_required, with iss', async () => {
    const back = await new Browser().follow(authorize(`${docs}/notes.json`, { prompt: 'none' }), CLIENT_REDIRECT);
    expect(back.searchParams.get('error')).to.equal('consent_required');
    expect(back.searchParams.get('iss')).to.equal(setup.base);
  });

  it('an error response names the issuer too (RFC 9207)', async () => {
    const clientId = await registerClient(setup.base);
    const back = await new Browser().follow(authorize(clientId, { resource: 'https://elsewhere.example/mcp' }), CLIENT_REDIRECT);
    expect(back.searchParams.get('error')).to.equal('invalid_target');
    expect(back.searchParams.get('iss')).to.equal(setup.base);
  });

  it('a 10 MiB document is refused (at most 5 KiB is read); the server keeps answering', async () => {
    const r = await stopsAt(authorize(`${docs}/huge.json`));
    expect(r.status).to.equal(400);
    expect(JSON.parse(r.body)).to.include({ error: 'invalid_client' });
    expect((await fetch(`${setup.base}/health`)).status).to.equal(200);
  });

  it('a redirect is never followed (towards a private address or anywhere)', async () => {
    const r = await stopsAt(authorize(`${docs}/moved.json`));
    expect(r.status).to.equal(400);
    expect(JSON.parse(r.body)).to.include({ error: 'invalid_client' });
    expect(hits.get('/inside.json') ?? 0).to.equal(0);
  });

  it('a document whose client_id is another URL is refused', async () => {
    const r = await stopsAt(authorize(`${docs}/other-id.json`));
    expect(r.status).to.equal(400);
    expect(JSON.parse(r.body)).to.deep.include({
      error: 'invalid_client_metadata',
      error_description: 'client_id metadata document client_id does not match the expected value',
    });
  });

  it('a document carrying a client secret is refused', async () => {
    const r = await stopsAt(authorize(`${docs}/secret.json`));
    expect(r.status).to.equal(400);
    expect(JSON.parse(r.body)).to.include({ error: 'invalid_client_metadata' });
  });

  it('registration takes application_type (OIDC): native may use a custom scheme, web may not, others are refused', async () => {
    const register = (body: Record<string, unknown>) =>
      fetch(`${setup.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token_endpoint_auth_method: 'none', ...body }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    const native = await register({ application_type: 'native', redirect_uris: ['com.example.notes:/callback', CLIENT_REDIRECT] });
    expect(native.status, JSON.stringify(native.body)).to.equal(201);
    expect(native.body).to.include({ application_type: 'native' });
    const defaulted = await register({ redirect_uris: [CLIENT_REDIRECT] });
    expect(defaulted.body).to.include({ application_type: 'web' });
    const web = await register({ application_type: 'web', redirect_uris: ['com.example.notes:/callback'] });
    expect(web.status).to.equal(400);
    expect(web.body.error_description).to.equal('redirect_uris must only contain web uris');
    const other = await register({ application_type: 'desktop', redirect_uris: [CLIENT_REDIRECT] });
    expect(other.status).to.equal(400);
    expect(other.body.error).to.equal('invalid_client_metadata');
    expect(other.body.error_description).to.contain('application_type');
  });

  it('a registered client (not a document) goes straight to sign-in, as before', async () => {
    const clientId = await registerClient(setup.base);
    try {
      await new Browser().follow(authorize(clientId), CLIENT_REDIRECT);
    } catch (err) {
      expect.fail(`expected a redirect to the client, got ${(err as FlowStopped).status}`);
    }
  });
});
