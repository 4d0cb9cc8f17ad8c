/**
 * A 2026-07-28 upstream whose `subscriptions/listen` never answers (a proxy in front of it that
 * sends an answer only once whole, so a stream never arrives): its tools stay usable, and its
 * lists are read again on a schedule instead of being heard. Before, the connection failed
 * ("subscriptions/listen ack timed out") and retried for good, the server's tools never listed.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { callTool, connectHttp, freePort, meta, MODERN_SERVER, startNode, startSwitchboard, text, type Running, untilDescribed } from '../support/harness.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

describe('a 2026-07-28 upstream whose list changes cannot be heard', function () {
  this.timeout(60_000);
  let sb: Running;
  let buffered: ChildProcess;
  let client: Client;

  before(async () => {
    const port = await freePort();
    buffered = await startNode([MODERN_SERVER, 'http-buffered', String(port)], {}, /listening \d+/);
    // A short connect timeout: the listen's acknowledgement is awaited that long.
    sb = await startSwitchboard({
      'mcpservers/mbuf.yaml': `name: mbuf\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\nautoStart: true\ntimeout: 2\n`,
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await sb?.stop();
    buffered?.kill();
  });

  it('still connects and serves its tools, and says why its list changes are not heard and what it does instead', async () => {
    await untilDescribed(client, ['x_mbuf_echo']);
    expect(text(await callTool(client, 'x_mbuf_echo', { text: 'through the proxy' }))).to.equal('through the proxy');
    const status = await meta<{ state: string; metadata: { protocolVersion?: string } }>(client, 'call_tool', {
      name: 'core_service_status',
      arguments: { name: 'mbuf' },
    });
    expect(status).to.deep.include({ state: 'connected' });
    expect(status.metadata.protocolVersion).to.equal('2026-07-28');
    await sb.waitForLog(/its list changes cannot be heard \(subscriptions\/listen: .+\); its lists are read again at least every 60 s instead/);
  });
});
