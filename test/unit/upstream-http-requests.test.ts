/**
 * How Switchboard's HTTP client transport puts a request on the wire and takes its answer
 * (plugins/upstreams/client/http-client-transport.ts, request-sender.ts, request-headers.ts),
 * against a real node:http server that records each request and answers as each case needs:
 * the headers as a list (the definition's, Host, the request's own winning over a configured
 * one), and the quick path for a JSON answer beside every answer it leaves to the general way.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { JSONRPCMessage } from '#mcp-sdk/types.js';
import { TooLargeError } from '../../kernel/index.js';
import { pinnedLookup } from '../../lib/net/outbound-policy.js';
import { HttpStatusError } from '../../plugins/upstreams/client/http-answer.js';
import { StreamableHttpClientTransport } from '../../plugins/upstreams/client/http-client-transport.js';
import { ConnectionHeaders, serverNameOf } from '../../plugins/upstreams/client/request-headers.js';

type Answer = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A server whose next answers are `answers`, in order; it keeps each request's raw headers. */
async function recordingServer(): Promise<{ url: URL; seen: { headers: string[]; body: string }[]; answers: Answer[]; server: Server }> {
  const seen: { headers: string[]; body: string }[] = [];
  const answers: Answer[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ headers: req.rawHeaders, body });
      const answer = answers.shift();
      if (answer) answer(req, body, res);
      else res.writeHead(500).end('no answer scripted');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), seen, answers, server };
}

const json =
  (extra: Record<string, string> = {}): Answer =>
  (_req, body, res) => {
    const { id } = JSON.parse(body) as { id: string };
    const text = JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'ok' }] } });
    res.writeHead(200, { 'content-type': 'application/json', ...extra }).end(text);
  };

/** The raw header list as name (lower case) -> values, in order. */
function byName(raw: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < raw.length; i += 2) out.set(raw[i]!.toLowerCase(), [...(out.get(raw[i]!.toLowerCase()) ?? []), raw[i + 1]!]);
  return out;
}

function request(id: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {} } };
}

/** The transport with what it delivers and the errors it reports collected. */
function transportTo(url: URL, headers: Record<string, string> = {}, maxBytes?: number) {
  const t = new StreamableHttpClientTransport(url, headers, maxBytes);
  const delivered: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  t.onmessage = (m) => delivered.push(m);
  t.onerror = (e) => errors.push(e);
  return { t, delivered, errors };
}

/** Delivery is a microtask after the send settles: wait for it without waiting on time. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setImmediate(r));
}

describe('The upstream HTTP transport: requests on the wire and their answers', () => {
  let s: Awaited<ReturnType<typeof recordingServer>>;
  beforeEach(async () => (s = await recordingServer()));
  afterEach(() => new Promise<void>((resolve) => s.server.close(() => resolve())));

  describe('headers', () => {
    it('keeps configured names as spelled, adds Host, and lets a request header win over a configured one of any case', () => {
      const h = new ConnectionHeaders({ 'X-Api-Key': 'k1', Accept: 'text/plain', 'x-api-key': 'k2' }, 'example.test:8080');
      expect(h.with(['accept', 'application/json', 'mcp-method', 'tools/call'])).to.deep.equal([
        'X-Api-Key',
        'k2',
        'host',
        'example.test:8080',
        'accept',
        'application/json',
        'mcp-method',
        'tools/call',
      ]);
    });

    it('sends a configured header as it is when the request goes out (a credential renewed where it is kept)', () => {
      const configured: Record<string, string> = { Authorization: 'Bearer t1' };
      const h = new ConnectionHeaders(configured, 'example.test');
      configured.Authorization = 'Bearer t2';
      expect(h.with([])).to.deep.equal(['Authorization', 'Bearer t2', 'host', 'example.test']);
    });

    it("keeps a configured Host (a virtual host) instead of the URL's", () => {
      const h = new ConnectionHeaders({ Host: 'tenant.internal' }, '10.0.0.5:8080');
      expect(h.with([])).to.deep.equal(['Host', 'tenant.internal']);
      expect(h.virtualHost).to.equal('tenant.internal');
      expect(new ConnectionHeaders({ 'X-Api-Key': 'k' }, '10.0.0.5:8080').virtualHost).to.equal(undefined);
    });

    it('takes the TLS server name from a configured Host as node:http did: no port, no brackets, none for an address', () => {
      expect(serverNameOf('api.example.com')).to.equal('api.example.com');
      expect(serverNameOf('api.example.com:8443')).to.equal('api.example.com');
      expect(serverNameOf('[::1]:8443')).to.equal('');
      expect(serverNameOf('10.0.0.5')).to.equal('');
    });

    it('sends each header once, the Host of the URL, and the modern ones a 2026-07-28 server checks', async () => {
      const { t } = transportTo(s.url, { 'X-Api-Key': 'secret', 'Content-Type': 'text/plain' });
      t.speakModern(true);
      s.answers.push(json());
      await t.send(request('a1'));
      const sent = byName(s.seen[0]!.headers);
      expect(sent.get('host')).to.deep.equal([s.url.host]);
      expect(sent.get('x-api-key')).to.deep.equal(['secret']);
      expect(sent.get('content-type')).to.deep.equal(['application/json']);
      expect(sent.get('mcp-method')).to.deep.equal(['tools/call']);
      expect(sent.get('mcp-name')).to.deep.equal(['echo']);
      expect(sent.get('mcp-protocol-version')).to.deep.equal(['2026-07-28']);
      expect(sent.get('content-length')).to.deep.equal([String(Buffer.byteLength(s.seen[0]!.body))]);
    });
  });

  describe('where a request connects', () => {
    it('connects a pinned connection only to its checked address: a name that resolves nowhere reaches the server it was checked as, Host as written', async () => {
      // `.invalid` never resolves (RFC 6761): only the pinned lookup can take the request anywhere.
      const url = new URL(`http://upstream.invalid:${s.url.port}/mcp`);
      const t = new StreamableHttpClientTransport(url, {}, undefined, undefined, pinnedLookup({ address: '127.0.0.1', family: 4 }));
      const delivered: JSONRPCMessage[] = [];
      t.onmessage = (m) => delivered.push(m);
      s.answers.push(json(), json());
      await t.send(request('p1'));
      await t.send(request('p2'));
      await until(() => delivered.length === 2);
      expect(s.seen.map((r) => byName(r.headers).get('host'))).to.deep.equal([[url.host], [url.host]]);
      await t.close();
    });

    it('fails a pinned connection whose checked address has nothing listening, whatever the name would resolve to', async () => {
      const { port } = s.url;
      s.server.close();
      const url = new URL(`http://localhost:${port}/mcp`);
      // Pinned to another loopback address than the one the server listened on: never 127.0.0.1.
      const t = new StreamableHttpClientTransport(url, {}, undefined, undefined, pinnedLookup({ address: '127.0.0.2', family: 4 }));
      t.onerror = () => undefined;
      const err = await t.send(request('p1')).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(err?.message).to.match(/cannot reach http:\/\/localhost:\d+\/mcp: .*ECONNREFUSED 127\.0\.0\.2/);
    });
  });

  describe('answers', () => {
    it('delivers JSON answers and sends the next requests on kept-alive sockets', async () => {
      const { t, delivered } = transportTo(s.url);
      const sockets = new Set<unknown>();
      s.server.on('request', (req: IncomingMessage) => sockets.add(req.socket));
      const ids = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
      for (const id of ids) {
        s.answers.push(json());
        await t.send(request(id));
      }
      await until(() => delivered.length === ids.length);
      expect(delivered.map((m) => (m as { id: string }).id)).to.deep.equal(ids);
      // undici's pool takes a socket back a moment after its answer is delivered, so a caller
      // that sends at once may get a second socket; never one a request.
      expect(sockets.size).to.be.within(1, 2);
    });

    it('takes a session id the answer brings and sends it from then on', async () => {
      const { t, delivered } = transportTo(s.url);
      s.answers.push(json({ 'mcp-session-id': 'session-1' }), json({ 'mcp-session-id': 'session-1' }));
      await t.send(request('a1'));
      await t.send(request('a2'));
      await until(() => delivered.length === 2);
      expect(t.sessionId).to.equal('session-1');
      expect(byName(s.seen[1]!.headers).get('mcp-session-id')).to.deep.equal(['session-1']);
    });

    it('delivers an answer given as an event stream', async () => {
      const { t, delivered } = transportTo(s.url);
      s.answers.push((_req, body, res) => {
        const { id } = JSON.parse(body) as { id: string };
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } })}\n\n`);
      });
      await t.send(request('s1'));
      await until(() => delivered.length === 1);
      expect(delivered[0]).to.deep.include({ id: 's1' });
    });

    it('fails the request with the status and body of an error answer; the connection stays', async () => {
      const { t, errors } = transportTo(s.url);
      s.answers.push((_req, _body, res) => res.writeHead(503, { 'content-type': 'text/plain' }).end('busy'), json());
      const failure = await t.send(request('e1')).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).to.be.instanceOf(HttpStatusError);
      expect((failure as HttpStatusError).status).to.equal(503);
      expect((failure as HttpStatusError).body).to.equal('busy');
      await t.send(request('e2'));
      expect(errors).to.deep.equal([]);
    });

    it('fails only the call whose answer is larger than the limit', async () => {
      const { t, errors, delivered } = transportTo(s.url, {}, 200);
      s.answers.push((_req, _body, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 'big', result: { text: 'x'.repeat(1000) } })),
      );
      const failure = await t.send(request('big')).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).to.be.instanceOf(TooLargeError);
      expect(delivered).to.deep.equal([]);
      expect(errors).to.deep.equal([]);
    });

    it('fails a request whose answer is not JSON, saying so', async () => {
      const { t } = transportTo(s.url);
      s.answers.push((_req, _body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc": "2.0", '));
      const failure = await t.send(request('j1')).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).to.be.instanceOf(SyntaxError);
    });

    it('names the server and reports the connection lost when nothing listens there', async () => {
      await new Promise<void>((resolve) => s.server.close(() => resolve()));
      const { t, errors } = transportTo(s.url);
      let closed = false;
      t.onclose = () => (closed = true);
      const failure = await t.send(request('gone')).then(
        () => undefined,
        (err: unknown) => err as Error,
      );
      expect(failure?.message).to.match(new RegExp(`^cannot reach http://127\\.0\\.0\\.1:${s.url.port}/mcp: .*ECONNREFUSED`));
      expect(errors.map((e) => e.message)).to.deep.equal([failure!.message]);
      await until(() => closed);
      // afterEach closes the server again: listen once more so that it has something to close.
      s.server = createServer().listen(0, '127.0.0.1');
    });
  });
});
