/**
 * A 2026-07-28 client has no session, so a limit kept per session would start afresh with
 * every request: an anonymous client could call as fast as it likes by simply speaking the
 * new revision. The rate bucket of a stateless request is kept per caller (its address when
 * anonymous), so the per-session limit holds for it too, across fresh clients.
 */
import { expect } from 'chai';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';

describe('a stateless (2026-07-28) client is rate limited like a session', function () {
  this.timeout(60_000);
  let sb: Running;

  before(async () => {
    sb = await startSwitchboard(
      {
        'config.yaml': ['aggregator:', '  limits:', '    rateLimit: { callsPerSecond: 0.2, burst: 3 }', ''].join('\n'),
        'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
      },
      { startTimeoutMs: 60_000 },
    );
  });

  after(async () => {
    await sb?.stop();
  });

  it('the fourth call within the burst is RATE_LIMITED, even from a new modern client', async () => {
    const fresh = async (): Promise<ModernClient> => {
      const c = new ModernClient({ name: 'flood', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await c.connect(new ModernTransport(new URL(sb.url)));
      return c;
    };
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) {
      // A new client each time: nothing of the previous one's is reused on its side.
      const c = await fresh();
      const r = await c.callTool({ name: 'call_tool', arguments: { name: 'x_t_ping', arguments: {} } });
      codes.push(r.isError ? (r.structuredContent as { error?: { code?: string } } | undefined)?.error?.code : 'ok');
      await c.close();
    }
    expect(codes.slice(0, 3)).to.deep.equal(['ok', 'ok', 'ok']);
    expect(codes[3]).to.equal('RATE_LIMITED');
  });
});
