/**
 * Hardening (issue 22), glob budget: a pattern built to make a backtracking matcher take
 * minutes is answered at once, and the gateway keeps serving everyone meanwhile.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectHttp, errorCode, meta, metaRaw, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';

describe('security: glob patterns cannot freeze the gateway', function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;
  before(async () => {
    sb = await startSwitchboard({ 'mcpservers/t.yaml': stdioServer('t', TEST_SERVER) });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('filter_tools with `*?` repeated and a missing character answers, and /health answers during it', async () => {
    // Twelve pairs: the RegExp matcher took about 6 s at nine and x3.4 per pair more (minutes here).
    const attack = meta<{ tools: unknown[]; total: number }>(client, 'filter_tools', { pattern: `${'*?'.repeat(12)}#`, limit: 50 });
    const health = await fetch(new URL('/health', sb.url));
    expect(health.status).to.equal(200);
    const result = await attack;
    expect(result.total).to.equal(0);
    // The same shape still finds what it should.
    const found = await meta<{ tools: { name: string }[] }>(client, 'filter_tools', { pattern: '*?*_t_p?ng', limit: 50 });
    expect(found.tools.map((t) => t.name)).to.deep.equal(['x_t_ping']);
  });

  it('refuses a pattern over 256 characters with INVALID_ARGUMENTS naming the limit', async () => {
    const r = await metaRaw(client, 'filter_tools', { pattern: '*'.repeat(257) });
    expect(errorCode(r)).to.equal('INVALID_ARGUMENTS');
    expect(JSON.stringify(r.structuredContent)).to.include('at most 256');
  });
});
