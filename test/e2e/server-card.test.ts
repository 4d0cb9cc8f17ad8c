/**
 * The server card (SEP-2127): Switchboard's own at /.well-known/mcp/server-card.json, read
 * over plain HTTP as a discovery tool would (no MCP session, no token), and a remote
 * server's card read by core_mcpserver_detect through the SDK client, including cards that
 * attack the reader (too large, redirected to another address, not JSON).
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { packageVersion } from '../../kernel/paths.js';
import { callTool, connectHttp, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { startProtected, type OAuthSetup } from '../support/oauth-setup.js';

type Obj = Record<string, unknown>;
const CARD = '/.well-known/mcp/server-card.json';

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** One request with exactly these headers (fetch would not let a test choose Host). */
function send(port: number, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function card(port: number, headers: Record<string, string> = {}): Promise<Obj> {
  const r = await send(port, CARD, { headers });
  expect(r.status, r.body).to.equal(200);
  return JSON.parse(r.body) as Obj;
}

const remotes = (c: Obj) => c.remotes as { type: string; url: string; supportedProtocolVersions: string[]; authentication: Obj }[];

describe('server card (SEP-2127)', function () {
  this.timeout(60_000);

  // One open Switchboard for the card it serves and for reading other servers' cards with
  // core_mcpserver_detect: neither changes it, and a second start cost 2 s of CPU.
  let open: Running | undefined;
  const openSwitchboard = async (): Promise<Running> =>
    (open ??= await startSwitchboard({
      'config.yaml': 'aggregator:\n  network:\n    allow: [127.0.0.1]\n',
      'mcpservers/hiddenupstream.yaml': stdioServer('hiddenupstream', TEST_SERVER),
    }));
  after(() => open?.stop());

  describe("Switchboard's own card, open endpoint", () => {
    let sb: Running;
    before(async () => {
      sb = await openSwitchboard();
    });

    it('describes Switchboard, the transports it serves at the URLs the requester used, its protocol versions and capabilities', async () => {
      const r = await send(sb.port, CARD);
      expect(r.status).to.equal(200);
      expect(r.headers['content-type']).to.match(/^application\/json/);
      expect(r.headers['access-control-allow-origin']).to.equal('*');
      expect(r.headers['cache-control']).to.equal('public, max-age=300');
      expect(r.headers.vary).to.include('Host');
      const c = JSON.parse(r.body) as Obj;
      expect(c).to.deep.include({
        $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
        name: 'local/switchboard',
        version: packageVersion(),
        title: 'Switchboard',
      });
      expect(c.description).to.be.a('string').and.include('aggregator');
      expect(remotes(c).map((x) => [x.type, x.url])).to.deep.equal([
        ['streamable-http', `http://127.0.0.1:${sb.port}/mcp`],
        ['sse', `http://127.0.0.1:${sb.port}/sse`],
      ]);
      for (const x of remotes(c)) {
        expect(x.supportedProtocolVersions).to.include('2025-11-25').and.include('2025-06-18');
        expect(x.authentication).to.deep.equal({ required: false, schemes: [] });
      }
      expect(c.capabilities).to.deep.include({ tools: { listChanged: true }, logging: {} });
    });

    it('lists no catalogue: no tools, resources or prompts, and nothing of the upstream servers', async () => {
      const c = await card(sb.port);
      expect(c).to.not.have.any.keys('tools', 'resources', 'prompts');
      const client = await connectHttp(sb.url);
      try {
        // The upstream is there for whoever connects; the card still does not say so.
        const listed = await callTool(client, 'x_hiddenupstream_ping');
        expect(listed.isError, text(listed)).to.not.equal(true);
      } finally {
        await client.close();
      }
      const again = JSON.stringify(await card(sb.port));
      expect(again).to.not.include('hiddenupstream').and.not.include('ping');
    });

    it('names the host the requester used (Host checked as for every request); the extension-less SEP path serves the same card', async () => {
      const c = await card(sb.port, { host: `localhost:${sb.port}` });
      expect(remotes(c)[0]!.url).to.equal(`http://localhost:${sb.port}/mcp`);
      const bare = await send(sb.port, '/.well-known/mcp/server-card', { headers: { host: `localhost:${sb.port}` } });
      expect(JSON.parse(bare.body)).to.deep.equal(c);
    });

    it('believes no X-Forwarded-* from a peer that is not a trusted proxy, and refuses a Host it does not answer to', async () => {
      const c = await card(sb.port, { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
      expect(JSON.stringify(c)).to.not.include('evil.example');
      expect(remotes(c)[0]!.url).to.equal(`http://127.0.0.1:${sb.port}/mcp`);
      const rebinding = await send(sb.port, CARD, { headers: { host: 'evil.example' } });
      expect(rebinding.status).to.equal(421);
      expect(rebinding.body).to.not.include('server-card');
    });

    it('GET and HEAD only: HEAD has no body, OPTIONS is a CORS preflight, POST and DELETE are 405', async () => {
      const head = await send(sb.port, CARD, { method: 'HEAD' });
      expect(head.status).to.equal(200);
      expect(head.body).to.equal('');
      const preflight = await send(sb.port, CARD, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
      expect(preflight.status).to.equal(204);
      expect(preflight.headers['access-control-allow-origin']).to.equal('*');
      expect(preflight.headers['access-control-allow-methods']).to.equal('GET, HEAD');
      for (const method of ['POST', 'DELETE', 'PUT']) {
        const r = await send(sb.port, CARD, { method });
        expect(r.status, method).to.equal(405);
        expect(r.headers.allow).to.include('GET');
      }
    });

    it('core_mcpserver_detect reads it: detection of Switchboard by Switchboard reports the card', async () => {
      const client = await connectHttp(sb.url);
      try {
        const r = await callTool(client, 'core_mcpserver_detect', { url: sb.url });
        expect(r.isError, text(r)).to.not.equal(true);
        const d = r.structuredContent as Obj;
        expect(d).to.deep.include({ transport: 'streamable-http', serverName: 'switchboard' });
        expect(d.card).to.deep.include({ status: 'present', name: 'local/switchboard', version: packageVersion(), title: 'Switchboard', requiresAuth: false });
        expect((d.card as { transports: Obj[] }).transports.map((t) => t.type)).to.deep.equal(['streamable-http', 'sse']);
      } finally {
        await client.close();
      }
    });
  });

  describe('behind a trusted proxy, with the legacy SSE transport off', () => {
    let sb: Running;
    before(async () => {
      sb = await startSwitchboard({
        'config.yaml': [
          'aggregator:',
          '  allowedHosts: [mcp.example.com]',
          '  oauth:',
          '    server:',
          '      trustedProxyCIDRs: [127.0.0.1/32]',
          'plugins:',
          '  transport-sse: false',
          '',
        ].join('\n'),
      });
    });
    after(() => sb?.stop());

    it("names the proxy's scheme and host, and only the transport that is on", async () => {
      const c = await card(sb.port, { host: 'mcp.example.com', 'x-forwarded-host': 'mcp.example.com', 'x-forwarded-proto': 'https' });
      expect(c.name).to.equal('com.example.mcp/switchboard');
      expect(remotes(c).map((x) => [x.type, x.url])).to.deep.equal([['streamable-http', 'https://mcp.example.com/mcp']]);
    });

    it('a forwarded host that is not a host (a path, a user, a space) is not put in the card', async () => {
      for (const forged of ['evil.example/phish?', 'user@evil.example', 'evil example']) {
        const c = await card(sb.port, { 'x-forwarded-host': forged });
        expect(JSON.stringify(c), forged).to.not.include('evil');
        // The address the listener is bound to stands in for a requester's URL that cannot be used.
        expect(remotes(c)[0]!.url).to.match(new RegExp(`^http://(localhost|127\\.0\\.0\\.1):${sb.port}/mcp$`));
      }
    });
  });

  describe('a trustedProxyCIDRs entry that is not a CIDR', () => {
    let sb: Running;
    before(async () => {
      sb = await startSwitchboard({ 'config.yaml': 'aggregator:\n  oauth:\n    server:\n      trustedProxyCIDRs: [not-a-cidr]\n' });
    });
    after(() => sb?.stop());

    it('costs the card its proxies, not its answer: served, forwarded headers not believed, the reason logged', async () => {
      const c = await card(sb.port, { 'x-forwarded-host': 'proxy.example', 'x-forwarded-proto': 'https' });
      expect(remotes(c)[0]!.url).to.equal(`http://127.0.0.1:${sb.port}/mcp`);
      await sb.waitForLog(/server card: aggregator\.oauth\.server\.trustedProxyCIDRs: 'not-a-cidr' is not a CIDR/);
    });
  });

  describe('OAuth-protected Switchboard', () => {
    let setup: OAuthSetup;
    before(async () => {
      // The card and the metadata only: no MCP server behind it.
      setup = await startProtected({ upstream: false });
    });
    after(async () => {
      await setup?.sb.stop();
      await setup?.idp.close();
    });

    it('is served without a token, says OAuth is required and where the protected-resource metadata is, at the public base URL', async () => {
      const mcp = await send(setup.sb.port, '/mcp', { method: 'POST', headers: { 'content-type': 'application/json' } });
      expect(mcp.status).to.equal(401);
      const c = await card(setup.sb.port, { host: `localhost:${setup.sb.port}` });
      // The configured baseUrl wins over the Host the request came by.
      expect(remotes(c).map((x) => x.url)).to.deep.equal([`${setup.base}/mcp`, `${setup.base}/sse`]);
      for (const x of remotes(c)) expect(x.authentication).to.deep.equal({ required: true, schemes: ['oauth2'] });
      const metadataUrl = (c._meta as Obj)['switchboard/protectedResourceMetadata'] as string;
      expect(metadataUrl).to.equal(`${setup.base}/.well-known/oauth-protected-resource`);
      const metadata = (await (await fetch(metadataUrl)).json()) as Obj;
      expect(metadata.resource).to.equal(setup.base);
    });
  });

  describe("core_mcpserver_detect reads a remote server's card", () => {
    let client: Client;
    const children: ChildProcess[] = [];
    const listeners: Server[] = [];
    /** A loopback listener that records what reaches it: MCP probes answered 404, the card path by `card`. */
    const listen = async (onCard: (res: ServerResponse) => void): Promise<{ port: number; requests: string[] }> => {
      const requests: string[] = [];
      const server = createServer((req, res) => {
        requests.push(`${req.method} ${req.url}`);
        if (req.url === CARD) onCard(res);
        else res.writeHead(404).end();
      });
      listeners.push(server);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      return { port: (server.address() as { port: number }).port, requests };
    };
    const detect = async (url: string, timeout = 10): Promise<Obj> => {
      const r = await callTool(client, 'core_mcpserver_detect', { url, timeout });
      expect(r.isError, text(r)).to.not.equal(true);
      return r.structuredContent as Obj;
    };
    /** The fixture MCP server over HTTP with `args`; resolves to its port once it listens. */
    const port = (args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [TEST_SERVER, 'http', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        children.push(child);
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening (\d+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`fixture exited ${code}: ${out}`)));
      });

    before(async () => {
      client = await connectHttp((await openSwitchboard()).url);
    });
    after(async () => {
      await client?.close();
      for (const c of children) c.kill('SIGTERM');
      for (const l of listeners) l.close();
    });

    it('a server with a card: its name, version, transports and auth, only the known fields, bounded', async () => {
      const p = await port(['--card']);
      const d = await detect(`http://127.0.0.1:${p}/mcp`);
      expect(d).to.deep.include({ transport: 'streamable-http', reachable: true, serverName: 'test-server' });
      expect(d.card).to.deep.equal({
        status: 'present',
        url: `http://127.0.0.1:${p}${CARD}`,
        name: 'io.example.test/test-server',
        version: '1.2.3',
        description: 'test-server, a fixture with a card',
        transports: [
          {
            type: 'streamable-http',
            url: `http://127.0.0.1:${p}/mcp`,
            protocolVersions: ['2025-06-18', '2025-11-25'],
            authentication: { required: false, schemes: [] },
          },
        ],
        requiresAuth: false,
        // 600 characters of title are not taken; the card's `instructions` is not a field the reader knows.
        ignored: ['title'],
      });
    });

    it('a card that says a bearer token is required is reported so', async () => {
      const p = await port(['--card', '--bearer', 'sesame']);
      const d = await detect(`http://127.0.0.1:${p}/mcp`);
      expect(d).to.deep.include({ requiresAuth: true });
      expect(d.card).to.deep.include({ status: 'present', requiresAuth: true });
    });

    it('a server without a card: reported absent, detection as before', async () => {
      const p = await port([]);
      const d = await detect(`http://127.0.0.1:${p}/mcp`);
      expect(d).to.deep.include({ transport: 'streamable-http', reachable: true, serverName: 'test-server', serverVersion: '1.2.3' });
      expect(d.card).to.deep.equal({ status: 'absent', url: `http://127.0.0.1:${p}${CARD}`, detail: 'GET answered 404' });
    });

    it('a huge card is cut off at 64 KiB and reported invalid', async () => {
      const huge = await listen((res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ name: 'a/b', description: 'x'.repeat(2 * 1024 * 1024) }));
      });
      const d = await detect(`http://127.0.0.1:${huge.port}/mcp`);
      expect(d.card).to.deep.include({ status: 'invalid' });
      expect((d.card as Obj).detail).to.include('larger than 65536 bytes');
    });

    it('a card redirecting elsewhere (a private or metadata address) is reported, not followed: the target hears nothing', async () => {
      const target = await listen((res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"x/y"}'));
      for (const location of [`http://127.0.0.1:${target.port}${CARD}`, 'http://169.254.169.254/latest/meta-data/']) {
        const moved = await listen((res) => res.writeHead(302, { location }).end());
        const d = await detect(`http://127.0.0.1:${moved.port}/mcp`);
        expect(d.card).to.deep.include({ status: 'absent', detail: `GET answered 302, redirected to ${location}, not followed` });
        expect(moved.requests).to.include(`GET ${CARD}`);
      }
      expect(target.requests).to.deep.equal([]);
    });

    it('a card that is not JSON (by content type, by body, by shape) is reported invalid', async () => {
      const html = await listen((res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>card</html>'));
      expect((await detect(`http://127.0.0.1:${html.port}/mcp`)).card).to.deep.include({
        status: 'invalid',
        detail: "the card's content type is 'text/html', not JSON",
      });
      const broken = await listen((res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"name": '));
      const b = (await detect(`http://127.0.0.1:${broken.port}/mcp`)).card as Obj;
      expect(b.status).to.equal('invalid');
      expect(b.detail).to.match(/^the card is not JSON: /);
      const list = await listen((res) => res.writeHead(200, { 'content-type': 'application/json' }).end('["a/b"]'));
      expect((await detect(`http://127.0.0.1:${list.port}/mcp`)).card).to.deep.include({ status: 'invalid', detail: 'the card is not a JSON object' });
    });

    it('fields of the wrong type or shape are left out, never passed on', async () => {
      const odd = await listen((res) =>
        res.writeHead(200, { 'content-type': 'application/mcp-server-card+json' }).end(
          JSON.stringify({
            name: 42,
            version: '2.0.0',
            remotes: [
              { type: 'stdio', url: 'file:///etc/passwd' },
              { type: 'sse', url: 'javascript:alert(1)' },
              { type: 'streamable-http', url: 'https://mcp.example.com/mcp', authentication: { required: 'yes' } },
            ],
          }),
        ),
      );
      const c = (await detect(`http://127.0.0.1:${odd.port}/mcp`)).card as Obj;
      expect(c).to.deep.equal({
        status: 'present',
        url: `http://127.0.0.1:${odd.port}${CARD}`,
        version: '2.0.0',
        transports: [{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }],
        requiresAuth: false,
        ignored: ['name', 'remotes[0]', 'remotes[1]'],
      });
    });

    it('a card that never answers costs no more than the detection timeout', async () => {
      const silent = await listen(() => undefined);
      const d = await detect(`http://127.0.0.1:${silent.port}/mcp`, 2);
      expect(d.card).to.deep.include({ status: 'absent', detail: 'no answer within the detection timeout' });
    });
  });
});
