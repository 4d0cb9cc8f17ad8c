/**
 * A call Switchboard gives up (its `callTimeout` passed, or its client cancelled it) gives up
 * the remote upstream's HTTP request too, not only the wait for its answer. A 2025-11-25 server
 * drops a cancelled request's answer (the SDK's does, and then never ends that answer's event
 * stream) and a hung tool never answers at all: each such request kept its socket for as long
 * as the server kept the request, and once 256 did (the pool's cap per address), every call to
 * that server queued behind them and timed out: the server was cut off for good.
 *
 * Two real SDK servers behind one Switchboard, both with a 1 s `callTimeout`: `stateful`
 * (test/fixtures/resumable-server.ts: sessions, answers as event streams that can be resumed) and `stateless`
 * (test/fixtures/test-server.ts over HTTP: answers as JSON). Each says how many of the
 * requests sent to it are still open (`GET /open`), which is what the server holds for us.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  callTool,
  connectHttp,
  errorCode,
  eventually,
  freePort,
  ROOT,
  type Running,
  startNode,
  startSwitchboard,
  stopNode,
  TEST_SERVER,
  text,
  untilDescribed,
} from '../support/harness.js';

const RESUMABLE = join(ROOT, 'dist/test/fixtures/resumable-server.js');
/** Far beyond any call timeout here: only a request given up ends sooner. */
const FOREVER_MS = 600_000;

interface Upstream {
  port: number;
  process: ChildProcess;
  /** Requests the server holds open now. */
  open(): Promise<number>;
  stderr: string;
}

async function startUpstream(args: (port: number) => string[]): Promise<Upstream> {
  const port = await freePort();
  const process = await startNode(args(port), {}, /listening \d+/);
  const upstream: Upstream = {
    port,
    process,
    stderr: '',
    open: async () => Number(await (await fetch(`http://127.0.0.1:${port}/open`)).text()),
  };
  process.stderr!.on('data', (c: Buffer) => void (upstream.stderr += c.toString()));
  return upstream;
}

/** Waits until `upstream` holds at most `most` requests open; how many it held. */
function settlesAt(upstream: Upstream, most: number): Promise<number> {
  return eventually(
    () => upstream.open(),
    (n) => n <= most,
    10_000,
  ).catch(() => upstream.open());
}

describe('calls given up on a remote upstream end its requests', function () {
  this.timeout(120_000);
  let stateful: Upstream;
  let stateless: Upstream;
  let sb: Running;
  let client: Client;

  before(async () => {
    [stateful, stateless] = await Promise.all([
      startUpstream((port) => [RESUMABLE, String(port), '--event-store', '--retry', '100']),
      startUpstream((port) => [TEST_SERVER, 'http', String(port)]),
    ]);
    sb = await startSwitchboard({
      'mcpservers/stateful.yaml': `name: stateful\ntype: streamable-http\nurl: http://127.0.0.1:${stateful.port}/mcp\ncallTimeout: 1\n`,
      'mcpservers/stateless.yaml': `name: stateless\ntype: streamable-http\nurl: http://127.0.0.1:${stateless.port}/mcp\ncallTimeout: 1\n`,
    });
    client = await connectHttp(sb.url);
    await untilDescribed(client, ['x_stateful_wait', 'x_stateless_slow']);
  });
  after(async () => {
    await client.close();
    await sb.stop();
    await Promise.all([stopNode(stateful.process), stopNode(stateless.process)]);
  });

  it('a call past its timeout closes its request, whether its answer was to come as an event stream or as JSON', async () => {
    // The stateful server's notification stream (GET) is the one request it holds for a session.
    const idle = await settlesAt(stateful, 1);
    expect(idle).to.equal(1);
    const calls = [
      ...Array.from({ length: 6 }, () => callTool(client, 'x_stateful_wait', { ms: FOREVER_MS })),
      ...Array.from({ length: 6 }, () => callTool(client, 'x_stateless_slow', { ms: FOREVER_MS })),
    ];
    for (const r of await Promise.all(calls)) expect(errorCode(r), JSON.stringify(r.structuredContent)).to.equal('TIMEOUT');
    expect(await settlesAt(stateful, idle), 'requests the stateful server still holds').to.equal(idle);
    expect(await settlesAt(stateless, 0), 'requests the stateless server still holds').to.equal(0);
  });

  it('a call whose answer was being resumed over GET (the server ended its stream early: SEP-1699) closes that GET', async () => {
    const r = await callTool(client, 'x_stateful_end_stream_then_wait', { ms: FOREVER_MS });
    expect(errorCode(r), JSON.stringify(r.structuredContent)).to.equal('TIMEOUT');
    expect(await settlesAt(stateful, 1), 'requests the stateful server still holds').to.equal(1);
  });

  it('a call its client cancels closes its request too', async () => {
    const before = stateless.stderr.length;
    const cancel = new AbortController();
    const call = client.callTool({ name: 'call_tool', arguments: { name: 'x_stateless_slow', arguments: { ms: FOREVER_MS + 1 } } }, CallToolResultSchema, {
      signal: cancel.signal,
    });
    const refused = call.then(
      () => undefined,
      (err: unknown) => err,
    );
    // Cancelled once the server runs it (its log says so), so the request is surely open then.
    await eventually(
      () => Promise.resolve(stateless.stderr.slice(before)),
      (s) => s.includes(`slow ${FOREVER_MS + 1}: started`),
      10_000,
    );
    expect(await stateless.open()).to.equal(1);
    cancel.abort('the person pressed stop');
    expect(await refused).to.be.an('error');
    expect(await settlesAt(stateless, 0)).to.equal(0);
  });

  it('after 300 calls past their timeout, the server is still reachable: its other tools answer', async () => {
    const calls = Array.from({ length: 300 }, () => callTool(client, 'x_stateful_wait', { ms: FOREVER_MS }));
    const codes = new Set((await Promise.all(calls)).map((r) => errorCode(r)));
    expect([...codes]).to.deep.equal(['TIMEOUT']);
    // Reachable, not at once: on a loaded machine the first ping may still wait out its 1 s
    // behind the 300 requests being closed. Cut off for good, every ping times out.
    const ping = () => callTool(client, 'x_stateful_ping');
    const pong: CallToolResult = await eventually(ping, (r) => text(r) === 'pong', 20_000).catch(ping);
    expect(text(pong), JSON.stringify(pong.structuredContent)).to.equal('pong');
    expect(await settlesAt(stateful, 1)).to.equal(1);
  });
});
