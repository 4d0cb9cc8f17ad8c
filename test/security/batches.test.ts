/**
 * Hardening, round 2 (issue 35), finding 6: JSON-RPC batches were still accepted on
 * 2025-11-25 (batching left MCP in 2025-06-18): one POST of 8,000 tools/list answered 55.7 MB,
 * 300 tools/call in one batch all ran, 40,000 pings blocked /health for 721 ms. Replayed
 * with raw HTTP, as an attacker sends it: every batch is refused whole (-32600) and runs
 * nothing (an upstream counts its calls), /health answers within 100 ms throughout; a session
 * that negotiated 2025-03-26 keeps batches up to the cap; a flood of 10,000 batch requests
 * leaves the gateway's resident memory within 40 MiB of where it was.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { ROOT, startSwitchboard, stdioServer, type Running } from '../support/harness.js';
import { describePolls, flood, floodPost, rssMiB, whilePolling } from '../support/health-poller.js';

const COUNTER = join(ROOT, 'dist/test/fixtures/counting-server.js');
const HEALTH_WITHIN_MS = 100;
const RSS_WITHIN_MIB = 40;
const CAP = 32;
const MIN_POLLS = 6;

interface RpcError {
  jsonrpc: '2.0';
  id: null;
  error: { code: number; message: string };
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A session opened with raw HTTP at `version`: its id, after initialize and initialized. */
async function openSession(url: string, version: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  expect(res.status).to.equal(200);
  const answer = (await res.json()) as { result: { protocolVersion: string } };
  expect(answer.result.protocolVersion).to.equal(version);
  const session = res.headers.get('mcp-session-id')!;
  const initialized = await post(url, session, version, { jsonrpc: '2.0', method: 'notifications/initialized' });
  expect(initialized.status).to.equal(202);
  return session;
}

function post(url: string, session: string | undefined, version: string, body: unknown): Promise<Response> {
  return postRaw(url, session, version, JSON.stringify(body));
}

function postRaw(url: string, session: string | undefined, version: string, body: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-protocol-version': version, ...(session ? { 'mcp-session-id': session } : {}) },
    body,
  });
}

const request = (id: number, method: string, params?: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
const tick = (id: number) => request(id, 'tools/call', { name: 'call_tool', arguments: { name: 'x_count_tick', arguments: {} } });

async function refused(res: Response): Promise<string> {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).to.equal(400);
  const body = JSON.parse(text) as RpcError;
  expect(body.error.code, text).to.equal(-32600);
  return body.error.message;
}

/** How many `tick` calls the upstream ran, asked with one plain request. */
async function ticks(url: string, session: string, version: string): Promise<number> {
  const res = await post(url, session, version, request(9_999_999, 'tools/call', { name: 'call_tool', arguments: { name: 'x_count_ticks', arguments: {} } }));
  const answer = (await res.json()) as { result: { structuredContent: { ticks: number } } };
  return answer.result.structuredContent.ticks;
}

describe('security: JSON-RPC batches (issue 35, finding 6)', function () {
  this.timeout(180_000);
  let sb: Running;

  before(async () => {
    sb = await startSwitchboard({ 'mcpservers/count.yaml': stdioServer('count', COUNTER) });
  });
  after(async () => {
    await sb?.stop();
  });

  it('on 2025-11-25: 8,000 tools/list, 300 tools/call and 40,000 pings in one POST are refused with -32600, nothing runs, /health stays under 100 ms', async () => {
    const version = '2025-11-25';
    const session = await openSession(sb.url, version);
    expect(await ticks(sb.url, session, version)).to.equal(0);
    // Built before the clock starts: this process's own JSON work shares the cores with the gateway.
    const batches = [
      Array.from({ length: 8_000 }, (_, i) => request(i, 'tools/list')),
      Array.from({ length: 300 }, (_, i) => tick(i)),
      Array.from({ length: 40_000 }, (_, i) => request(i, 'ping')),
    ].map((b) => JSON.stringify(b));
    // Three rounds at least, and on until a few polls have watched: a quick machine refuses all
    // three in less time than five polls take.
    const { result: messages, polls } = await whilePolling(new URL('/health', sb.url).toString(), async (polled) => {
      const out: string[] = [];
      for (let round = 0; round < 3 || (polled() < MIN_POLLS && round < 300); round++)
        for (const body of batches) out.push(await refused(await postRaw(sb.url, session, version, body)));
      return out;
    });
    for (const m of messages)
      expect(m).to.equal('Invalid Request: JSON-RPC batches are not part of MCP 2025-11-25 (they were removed in 2025-06-18); send one message per POST');
    expect(await ticks(sb.url, session, version), 'tools/call in a refused batch ran').to.equal(0);
    expect(polls.length, `health polls (${messages.length / 3} rounds): ${describePolls(polls)}`).to.be.at.least(MIN_POLLS);
    expect(polls.every((p) => p.status === 200)).to.equal(true);
    expect(Math.max(...polls.map((p) => p.ms)), describePolls(polls)).to.be.below(HEALTH_WITHIN_MS);
  });

  it('on 2025-06-18 a batch of two is refused too; a single message is answered as before', async () => {
    const version = '2025-06-18';
    const session = await openSession(sb.url, version);
    expect(await refused(await post(sb.url, session, version, [tick(1), tick(2)]))).to.match(/not part of MCP 2025-06-18/);
    expect(await refused(await post(sb.url, session, version, [tick(1)]))).to.match(/not part of MCP 2025-06-18/);
    const one = await post(sb.url, session, version, request(5, 'ping'));
    expect(await one.json()).to.deep.equal({ jsonrpc: '2.0', id: 5, result: {} });
  });

  it('an initialize batch is refused, with a session or without', async () => {
    const init = request(1, 'initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    expect(await refused(await post(sb.url, undefined, '2025-03-26', [init]))).to.equal(
      'Invalid Request: initialize cannot be batched; send it alone, as one JSON-RPC object',
    );
    const session = await openSession(sb.url, '2025-03-26');
    expect(await refused(await post(sb.url, session, '2025-03-26', [request(2, 'ping'), init]))).to.match(/initialize cannot be batched/);
  });

  it(`a session that negotiated 2025-03-26 keeps batches up to ${CAP} messages; one more is refused and runs nothing`, async () => {
    const version = '2025-03-26';
    const session = await openSession(sb.url, version);
    const before = await ticks(sb.url, session, version);
    const res = await post(
      sb.url,
      session,
      version,
      Array.from({ length: CAP }, (_, i) => tick(i + 1)),
    );
    expect(res.status).to.equal(200);
    const answers = (await res.json()) as { id: number; result: { content: { text: string }[] } }[];
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: CAP }, (_, i) => i + 1));
    expect(await ticks(sb.url, session, version)).to.equal(before + CAP);
    expect(
      await refused(
        await post(
          sb.url,
          session,
          version,
          Array.from({ length: CAP + 1 }, (_, i) => tick(i + 1)),
        ),
      ),
    ).to.equal(`Invalid Request: a batch holds at most ${CAP} messages; this one has ${CAP + 1}`);
    expect(await ticks(sb.url, session, version), 'a refused batch ran some of its calls').to.equal(before + CAP);
  });

  it('the HTTP+SSE transport answers a batch on /message with -32600 and runs nothing', async () => {
    const probe = await openSession(sb.url, '2025-11-25');
    const before = await ticks(sb.url, probe, '2025-11-25');
    const controller = new AbortController();
    const stream = await fetch(new URL('/sse', sb.url), { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    const reader = stream.body!.getReader();
    let seen = '';
    while (!/data: (\S+)/.test(seen)) seen += new TextDecoder().decode(((await reader.read()) as { value?: Uint8Array }).value);
    const endpoint = new URL(/data: (\S+)/.exec(seen)![1]!, sb.url);
    try {
      const res = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([tick(1), tick(2)]) });
      expect(await refused(res)).to.equal('Invalid Request: JSON-RPC batches are not accepted; send one message per POST');
    } finally {
      controller.abort();
    }
    expect(await ticks(sb.url, probe, '2025-11-25')).to.equal(before);
  });

  it('a flood of 10,000 batch requests, 50 at a time: all refused, RSS within 40 MiB of before', async () => {
    const version = '2025-11-25';
    const session = await openSession(sb.url, version);
    const body = JSON.stringify(Array.from({ length: 20 }, (_, i) => request(i, 'tools/list')));
    // By node:http (floodPost), not fetch: a quarter of the client's CPU for 10,200 requests.
    const send = async () => (await floodPost(sb.url, body, { ...HEADERS, 'mcp-protocol-version': version, 'mcp-session-id': session })).status;
    // Warm: the first requests of a path allocate what every later one reuses.
    await flood(200, 50, send, sb.proc.pid!);
    const before = await rssMiB(sb.proc.pid!);
    const { results, peakMiB } = await flood(10_000, 50, send, sb.proc.pid!);
    const after = await rssMiB(sb.proc.pid!);
    console.log(`      batch flood: RSS before ${before.toFixed(1)} MiB, peak ${peakMiB.toFixed(1)} MiB, after ${after.toFixed(1)} MiB`);
    expect(results.every((s) => s === 400)).to.equal(true);
    expect(after - before, `RSS before ${before.toFixed(1)} MiB, after ${after.toFixed(1)} MiB`).to.be.below(RSS_WITHIN_MIB);
  });
});
