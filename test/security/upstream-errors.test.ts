/**
 * Hardening (issue 22), error mapping: only Switchboard's own transport failures are
 * SERVER_UNAVAILABLE or TIMEOUT. An upstream that answers a call with its own JSON-RPC error
 * -32000 or -32001 (the codes the SDK also uses for "connection closed" and "timed out") is
 * UPSTREAM_ERROR with its code and message, not "connection closed" or "timed out after 0 ms".
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, errorCode, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';

describe("security: an upstream's own JSON-RPC errors keep their code", function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;
  before(async () => {
    sb = await startSwitchboard({ 'mcpservers/t.yaml': stdioServer('t', TEST_SERVER, [], 'callTimeout: 1\n') });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  for (const code of [-32000, -32001, -32603]) {
    it(`${code} answered by the upstream is UPSTREAM_ERROR with that code and its words`, async () => {
      const r = await callTool(client, 'x_t_fail_rpc', { code });
      expect(errorCode(r), text(r)).to.equal('UPSTREAM_ERROR');
      expect(text(r)).to.include('the fixture refuses: bad widget').and.not.include('connection closed').and.not.include('after 0 ms');
      expect((r.structuredContent as { error: { details?: { upstreamCode?: number } } }).error.details?.upstreamCode).to.equal(code);
    });
  }

  it("Switchboard's own timeout is still TIMEOUT, with its length", async () => {
    const r = await callTool(client, 'x_t_slow', { ms: 5000 });
    expect(errorCode(r)).to.equal('TIMEOUT');
    expect(text(r)).to.include('after 1000 ms');
  });
});
