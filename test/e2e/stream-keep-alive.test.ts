/**
 * Switchboard behind a proxy with an idle timeout (a real HAProxy, `timeout server 2s`, as
 * nginx's and AWS ALB's 60 s are in production): what it holds open without a word gets a
 * keep-alive comment every `keepAliveSeconds` (0.2 here), so the proxy does not cut it:
 * - a session's GET stream (notifications) stays open past the timeout, and so does the stream
 *   of a session of the older HTTP+SSE transport;
 * - a tool call that takes longer than the timeout gets its answer, as an event stream whose
 *   comments kept the proxy waiting, for a 2025-11-25 session and a 2026-07-28 request alike.
 * (A quick answer stays plain JSON: the wire tests that read answers as JSON hold it, at the
 * default 15 s; at 0.2 s here any call slowed by a loaded machine may stream.)
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { checkInProcess } from '../support/check.js';
import {
  callTool,
  connectHttp,
  makeConfigDir,
  postInitialize,
  type Running,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  untilDescribed,
} from '../support/harness.js';
import { ensureHaproxy, startHaproxy, type RunningHaproxy } from '../support/haproxy.js';
import { postCallTool } from '../support/modern-wire.js';

const IDLE_TIMEOUT_MS = 2_000;

/** The text of an event stream until it ends, or until `enough` says so (the stream is then left open). */
async function readStream(res: Response, enough: (text: string) => boolean = () => false): Promise<{ text: string; ended: boolean }> {
  const reader = res.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { text, ended: true };
    text += decoder.decode(value, { stream: true });
    if (enough(text)) {
      await reader.cancel();
      return { text, ended: false };
    }
  }
}

const comments = (text: string): number => text.split('\n').filter((l) => l.startsWith(':')).length;

describe('keep-alives on what Switchboard holds open, behind a proxy with a 2 s idle timeout', function () {
  this.timeout(60_000);
  let sb: Running;
  let lb: RunningHaproxy;
  let client: Client;

  before(async function () {
    const missing = ensureHaproxy();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
    sb = await startSwitchboard({
      'config.yaml':
        'plugins:\n  transport-streamable-http:\n    options:\n      keepAliveSeconds: 0.2\n  transport-sse:\n    options:\n      keepAliveSeconds: 0.2\n',
      'mcpservers/test.yaml': stdioServer('test', TEST_SERVER),
    });
    lb = await startHaproxy([sb.port], '/mcp', { serverTimeoutMs: IDLE_TIMEOUT_MS });
    client = await connectHttp(lb.url);
    await untilDescribed(client, ['x_test_slow']);
  });
  after(async () => {
    await client?.close();
    await lb?.stop();
    await sb?.stop();
  });

  it("a session's GET stream stays open past the proxy's idle timeout, a comment each interval", async () => {
    const init = await postInitialize(lb.url, '2025-11-25');
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await fetch(lb.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const stream = await fetch(lb.url, { headers: { ...headers, accept: 'text/event-stream' } });
    expect(stream.status).to.equal(200);
    const started = Date.now();
    // Fifteen comments at 0.2 s are 1.5 times the proxy's timeout: the stream outlived it, or it ended first.
    const read = await readStream(stream, (t) => comments(t) >= 15);
    expect(read.ended, `the proxy cut the stream after ${Date.now() - started} ms: ${JSON.stringify(read.text)}`).to.equal(false);
    expect(Date.now() - started).to.be.above(IDLE_TIMEOUT_MS);
  });

  it('a session of the older HTTP+SSE transport (its whole session on one stream) stays open past the timeout too', async () => {
    const stream = await fetch(lb.url.replace(/\/mcp$/, '/sse'), { headers: { accept: 'text/event-stream' } });
    expect(stream.status).to.equal(200);
    const started = Date.now();
    const read = await readStream(stream, (t) => comments(t) >= 15);
    expect(read.ended, `the proxy cut the stream after ${Date.now() - started} ms: ${JSON.stringify(read.text)}`).to.equal(false);
    expect(read.text).to.match(/^event: endpoint\ndata: \/message\?sessionId=/);
    expect(Date.now() - started).to.be.above(IDLE_TIMEOUT_MS);
  });

  it('a 2025-11-25 tool call that takes 3 s, longer than the timeout, gets its answer', async () => {
    const r = await callTool(client, 'x_test_slow', { ms: 3_000 });
    expect(r.isError, text(r)).to.not.equal(true);
    expect(text(r)).to.equal('waited 3000');
  });

  it('a 2026-07-28 request that takes 3 s gets its answer as an event stream kept alive', async () => {
    const slow = await postCallTool(lb.url, 1, { name: 'x_test_slow', arguments: { ms: 3_000 } });
    expect(slow.status).to.equal(200);
    expect(slow.headers.get('content-type')).to.include('text/event-stream');
    const { text: body } = await readStream(slow);
    expect(comments(body), body).to.be.at.least(1);
    const data = body.split('\n').find((l) => l.startsWith('data: '));
    const answer = JSON.parse(data!.slice('data: '.length)) as { id: number; result: { content: { text: string }[] } };
    expect(answer.id).to.equal(1);
    expect(answer.result.content[0]!.text).to.equal('waited 3000');
  });

  it('an interval past an hour is refused, naming the option (a timer past 2^31 ms would fire every millisecond)', async () => {
    for (const [plugin, option] of [
      ['transport-streamable-http', 'keepAliveSeconds: 10000000'],
      ['transport-streamable-http', 'listen: { keepAliveSeconds: 10000000 }'],
      ['transport-sse', 'keepAliveSeconds: 10000000'],
    ]) {
      const checked = await checkInProcess(await makeConfigDir({ 'config.yaml': `plugins:\n  ${plugin}:\n    options:\n      ${option}\n` }));
      expect(checked.status, `${plugin} ${option}`).to.equal(1);
      expect(checked.stdout + checked.stderr, option)
        .to.match(/keepAliveSeconds/)
        .and.to.match(/3600/);
    }
  });
});
