/**
 * A remote (streamable HTTP, 2025-11-25) upstream's event streams end early or die without a
 * word, and Switchboard takes them up again (SEP-1699) instead of going deaf for the rest of
 * the connection. Two real SDK servers (test/fixtures/resumable-server.ts) behind one
 * Switchboard: `plain` keeps no events; `kept` keeps them (Last-Event-ID resumes), asks for a
 * 200 ms `retry`, marks time every 400 ms, and sits behind a proxy that can strand every
 * connection open at one moment (test/support/stranding-proxy.ts). server-everything over the
 * older HTTP+SSE transport sits behind another such proxy.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  callTool,
  connectHttp,
  errorCode,
  eventually,
  freePort,
  meta,
  EVERYTHING,
  ROOT,
  type Running,
  startNode,
  startSwitchboard,
  stopNode,
  text,
  untilDescribed,
} from '../support/harness.js';
import { startStrandingProxy, type StrandingProxy } from '../support/stranding-proxy.js';

const RESUMABLE = join(ROOT, 'dist/test/fixtures/resumable-server.js');

interface Fixture {
  port: number;
  process: ChildProcess;
  /** Every `last-event-id` its GETs carried, in order (`none` for a GET without one). */
  gets: string[];
  /** Keep-alives written on the latest GET's stream. */
  keepalives: number;
}

async function startFixture(flags: string[]): Promise<Fixture> {
  const port = await freePort();
  const process = await startNode([RESUMABLE, String(port), ...flags], {}, /listening \d+/);
  const fixture: Fixture = { port, process, gets: [], keepalives: 0 };
  process.stderr!.on('data', (c: Buffer) => {
    for (const m of c.toString().matchAll(/GET last-event-id=(\S+)|keepalive/g)) {
      if (m[1] === undefined) fixture.keepalives++;
      else {
        fixture.gets.push(m[1]);
        fixture.keepalives = 0;
      }
    }
  });
  return fixture;
}

/** Adds a tool to every session of `fixture`, outside MCP; its name. */
async function growOutside(fixture: Fixture): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${fixture.port}/grow`, { method: 'POST' });
  return res.text();
}

describe('a remote upstream whose event streams end or go silent', function () {
  this.timeout(60_000);
  let plain: Fixture;
  let kept: Fixture;
  let proxy: StrandingProxy;
  /** server-everything over the older HTTP+SSE transport, where every answer rides one stream, behind a proxy of its own. */
  let legacy: ChildProcess;
  let legacyProxy: StrandingProxy;
  let sb: Running;
  let client: Client;

  before(async () => {
    [plain, kept] = await Promise.all([startFixture(['--note-scheme', 'plain']), startFixture(['--event-store', '--retry', '200', '--keepalive', '400'])]);
    proxy = await startStrandingProxy(kept.port);
    const legacyPort = await freePort();
    legacy = await startNode([EVERYTHING, 'sse'], { PORT: String(legacyPort) }, /running on port/i);
    legacyProxy = await startStrandingProxy(legacyPort);
    sb = await startSwitchboard({
      'mcpservers/plain.yaml': `name: plain\ntype: streamable-http\nurl: http://127.0.0.1:${plain.port}/mcp\n`,
      'mcpservers/kept.yaml': `name: kept\ntype: streamable-http\nurl: http://127.0.0.1:${proxy.port}/mcp\n`,
      'mcpservers/legacy.yaml': `name: legacy\ntype: sse\nurl: http://127.0.0.1:${legacyProxy.port}/sse\ncallTimeout: 1\n`,
    });
    client = await connectHttp(sb.url);
    await untilDescribed(client, ['x_plain_ping', 'x_kept_ping', 'x_legacy_echo']);
    // Each opened its notification stream once connected.
    await eventually(
      () => Promise.resolve([plain.gets.length, kept.gets.length]),
      ([p, k]) => p! >= 1 && k! >= 1,
      10_000,
    );
  });
  after(async () => {
    await client.close();
    await sb.stop();
    await proxy.close();
    await legacyProxy.close();
    await Promise.all([stopNode(legacy), stopNode(plain.process), stopNode(kept.process)]);
  });

  it('a notification stream the server ends is opened again, and a change announced while it was down (and lost) is found by reading the lists again', async () => {
    const r = await callTool(client, 'x_plain_end_stream_then_grow');
    expect(text(r)).to.equal('grew grown_1 with the stream ended');
    // The announcement went nowhere (no stream, nothing kept): only a fresh reading of the lists finds the tool.
    await untilDescribed(client, ['x_plain_grown_1']);
    expect(plain.gets.slice(0, 2)).to.deep.equal(['none', 'none']);
    const called = await callTool(client, 'x_plain_grown_1');
    expect(text(called)).to.equal('grown 1');
  });

  it('a resource a client watches, changed while that stream was down (and the update lost), is announced as updated once it is back', async () => {
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: 'plain://note' });
    expect(text(await callTool(client, 'x_plain_end_stream'))).to.equal('the stream ended');
    // Announced while the stream is down (it is opened again a second later): the update goes nowhere.
    expect(await (await fetch(`http://127.0.0.1:${plain.port}/touch`, { method: 'POST' })).text()).to.equal('note at version 2');
    await eventually(
      () => Promise.resolve(updated),
      (u) => u.includes('plain://note'),
      10_000,
    );
    const read = await client.readResource({ uri: 'plain://note' });
    expect(read.contents[0]).to.include({ text: 'note, version 2' });
  });

  it("a request whose answer's stream ends before the answer, with no event id to resume from, fails at once and says why", async () => {
    const r = await callTool(client, 'x_plain_answer_later');
    expect(r.isError).to.equal(true);
    // Lost on Switchboard's side of the wire, not refused by the server: SERVER_UNAVAILABLE, not UPSTREAM_ERROR.
    expect(errorCode(r)).to.equal('SERVER_UNAVAILABLE');
    expect(text(r)).to.include('the server ended the stream of its answer before answering, with no event id to resume it from');
  });

  it('a notification stream with event ids is resumed from the last one: what the server announced meanwhile is replayed', async () => {
    // One announcement on the stream gives it an event id to resume from.
    expect(await growOutside(kept)).to.equal('grown_1');
    await untilDescribed(client, ['x_kept_grown_1']);
    const r = await callTool(client, 'x_kept_end_stream_then_grow');
    expect(text(r)).to.equal('grew grown_2 with the stream ended');
    await untilDescribed(client, ['x_kept_grown_2']);
    expect(kept.gets[0]).to.equal('none');
    expect(
      kept.gets.slice(1).some((id) => id !== 'none'),
      `the stream opened again from an event id: ${kept.gets.join(', ')}`,
    ).to.equal(true);
  });

  it("a request whose answer's stream the server ends on purpose (SEP-1699 polling) gets its answer, resumed from the stream's event id", async () => {
    const before = kept.gets.length;
    const r = await callTool(client, 'x_kept_answer_later');
    expect(r.isError, text(r)).to.not.equal(true);
    expect(text(r)).to.equal('answered after its stream ended');
    const resumed = kept.gets.slice(before);
    expect(resumed.length, 'one GET resumed the answer').to.be.at.least(1);
    expect(resumed.every((id) => id !== 'none')).to.equal(true);
  });

  it('a notification stream stranded silent (a partition, a dropped NAT entry) is taken for dead past its keep-alives, opened again on a new connection and resumed; calls go out on new connections too', async () => {
    // Stranded once the stream has shown its rhythm (a keep-alive written on it after the last GET).
    await eventually(
      () => Promise.resolve(kept.keepalives),
      (n) => n >= 2,
      10_000,
    );
    const accepted = proxy.accepted();
    proxy.strand();
    const grown = await growOutside(kept);
    // Heard only once the stream is found silent and resumed over a connection made after the stranding.
    await untilDescribed(client, [`x_kept_${grown}`]);
    expect(proxy.accepted()).to.be.above(accepted);
    const called = await callTool(client, `x_kept_${grown}`);
    expect(text(called)).to.equal(`grown ${grown.slice('grown_'.length)}`);
    expect(sb.logs()).to.match(/the notification stream of http:\/\/127\.0\.0\.1:\d+\/mcp went silent past its keep-alives; opening it again/);
  });

  it('an HTTP+SSE server whose one stream is stranded: a call times out, an unanswered ping finds the stream dead, and the connection is made again', async () => {
    expect(text(await callTool(client, 'x_legacy_echo', { message: 'before' }))).to.equal('Echo: before');
    legacyProxy.strand();
    // The answer goes out on the stranded stream: lost, the call times out (callTimeout 1 s).
    expect(errorCode(await callTool(client, 'x_legacy_echo', { message: 'lost' }))).to.equal('TIMEOUT');
    // Made again over a connection opened after the stranding, which passes: calls are answered again.
    const back = await eventually(
      () => callTool(client, 'x_legacy_echo', { message: 'after' }),
      (r) => text(r) === 'Echo: after',
      30_000,
      250,
    );
    expect(text(back)).to.equal('Echo: after');
    expect(sb.logs()).to.match(
      /\[switchboard:upstreams:legacy\] lost: a call timed out and a ping got no answer within 5 s: the event stream that carries every answer is taken for dead/,
    );
  });

  it('a remote server that goes away is found by its notification stream, without waiting for a call', async () => {
    plain.process.kill('SIGKILL');
    // No call is made: the stream's end, and its reopening refused, say the server is gone.
    const status = await eventually(
      () => meta<{ state: string; error?: string }>(client, 'call_tool', { name: 'core_service_status', arguments: { name: 'plain' } }),
      (s) => s.state !== 'connected',
      15_000,
    );
    expect(status.state, JSON.stringify(status)).to.equal('failed');
    expect(sb.logs()).to.match(/\[switchboard:upstreams:plain\] transport: cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: connect ECONNREFUSED/);
  });
});
