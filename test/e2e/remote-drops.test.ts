/**
 * Remote upstreams whose sockets are reset under a request (test-server's `--reset-reused`
 * and `--reset-from METHOD`):
 * - the keep-alive race (the server closed an idle kept-alive socket as the request went out)
 *   costs nothing: such a request never reached the server and is sent once more on a socket
 *   of its own, so the call succeeds and the connection is not taken for lost;
 * - a server that goes away while its lists are being read is one failure on the backoff, said
 *   once, not two (the close and the failed reading were both counted).
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, eventually, freePort, meta, startNode, startSwitchboard, TEST_SERVER, text, type Running } from '../support/harness.js';

interface Status {
  state: string;
  error?: string;
  nextRetryAfter?: string;
}

/** A test-server over HTTP with `flags`, and a Switchboard with it as the server `name` (`extra` YAML lines added). */
function remoteSuite(name: string, flags: string[], extra = '') {
  const running: { upstream?: ChildProcess; sb?: Running; client?: Client; resets: number } = { resets: 0 };
  before(async () => {
    const port = await freePort();
    running.upstream = await startNode([TEST_SERVER, 'http', String(port), ...flags], {}, /listening \d+/);
    running.upstream.stderr!.on('data', (c: Buffer) => (running.resets += c.toString().split('reset a request').length - 1));
    running.sb = await startSwitchboard({ [`mcpservers/${name}.yaml`]: `name: ${name}\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\n${extra}` });
    running.client = await connectHttp(running.sb.url);
  });
  after(async () => {
    await running.client?.close();
    await running.sb?.stop();
    running.upstream?.kill('SIGTERM');
  });
  const status = () => meta<Status>(running.client!, 'call_tool', { name: 'core_service_status', arguments: { name } });
  return { running, status };
}

describe('a remote upstream that resets requests on kept-alive sockets', function () {
  this.timeout(60_000);
  const { running, status } = remoteSuite('resetting', ['--reset-reused']);

  it('connects, every call succeeds (each sent again on a socket of its own) and the server stays connected', async () => {
    const connected = await eventually(status, (s) => s.state === 'connected', 20_000);
    expect(connected.error).to.equal(undefined);
    const before = running.resets;
    for (let i = 0; i < 5; i++) {
      const r = await callTool(running.client!, 'x_resetting_ping');
      expect(r.isError, `call ${i + 1}: ${text(r)}`).to.not.equal(true);
    }
    // A reset socket is never pooled again and the next call opens a new one: every other call meets a reset.
    await eventually(
      () => Promise.resolve(running.resets - before),
      (n) => n >= 2,
      10_000,
    );
    const after = await status();
    expect(after.state, after.error).to.equal('connected');
    expect(running.sb!.logs()).to.not.include('lost:');
  });
});

describe('a remote upstream that goes away while its lists are read', function () {
  this.timeout(60_000);
  // initialize and its notification are answered; tools/list and every request after it are reset.
  // A long first backoff: the test reads the first failure's schedule before any retry.
  const { running, status } = remoteSuite('vanishing', ['--reset-from', 'tools/list'], 'backoff:\n  initialSeconds: 20\n  maxSeconds: 3600\n');

  it('is one failure, named by what the transport met: one warning, and the retry on the first step of the backoff (16-24 s), not the second', async () => {
    const failed = await eventually(status, (s) => s.nextRetryAfter !== undefined, 20_000);
    expect(failed.state).to.equal('failed');
    // What the transport met, not the SDK's "Connection closed".
    expect(failed.error).to.match(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: read ECONNRESET$/);
    const wait = Date.parse(failed.nextRetryAfter!) - Date.now();
    expect(wait, `next retry in ${wait} ms`).to.be.at.most(24_000);
    const warnings = running
      .sb!.logs()
      .split('\n')
      .filter((l) => l.includes('[switchboard:upstreams:vanishing]') && l.includes('retrying in'));
    expect(warnings, warnings.join('\n')).to.have.length(1);
    expect(running.resets).to.be.at.least(1);
  });
});
