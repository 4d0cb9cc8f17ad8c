/**
 * Hardening (issue 35), the admin UI's actions from nowhere: a POST without an Origin header
 * was accepted, so anything that could make the operator's machine send one (a browser that
 * strips Origin, a forgotten extension) could end sessions. Every state-changing request must
 * carry the admin listener's own origin: without one, with another site's, or with `null` it
 * is refused (403) and nothing happens; with it, the action runs. Raw HTTP (fetch), so the
 * headers are exactly the ones written here.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, freePort, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';

describe('security: admin UI actions need their own origin', function () {
  this.timeout(60_000);
  let sb: Running;
  let admin: string;
  let client: Client;
  let sessionId: string;

  before(async () => {
    const port = await freePort();
    admin = `http://127.0.0.1:${port}`;
    sb = await startSwitchboard({
      'config.yaml': `aggregator:\n  admin:\n    enabled: true\n    port: ${port}\n`,
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
    });
    client = await connectHttp(sb.url);
    const listing = await (await fetch(`${admin}/sessions`)).text();
    sessionId = /\/sessions\/([0-9a-f-]+)"/.exec(listing)![1]!;
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await sb?.stop();
  });

  const end = (headers: Record<string, string>) => fetch(`${admin}/sessions/${sessionId}/delete`, { method: 'POST', headers, redirect: 'manual' });

  for (const [what, headers, reason] of [
    ['no Origin', {}, `Refused: a POST without an Origin header (send 'Origin: http://127.0.0.1:`],
    ['another site’s Origin', { origin: 'http://evil.example' }, 'Refused: a request from http://evil.example'],
    ['Origin: null', { origin: 'null' }, 'Refused: a request from null'],
    ['a Referer of its own but no Origin', { referer: 'http://127.0.0.1/sessions' }, 'Refused: a POST without an Origin header'],
  ] as const)
    it(`a POST with ${what} is refused and the session lives on`, async () => {
      const res = await end(headers);
      expect(res.status).to.equal(403);
      expect(await res.text()).to.include(reason);
      const r = await callTool(client, 'x_t_ping');
      expect(r.isError, text(r)).to.not.equal(true);
    });

  it('a DELETE of the OAuth grants without Origin is refused too', async () => {
    const res = await fetch(`${admin}/user-tokens`, { method: 'DELETE' });
    expect(res.status).to.equal(403);
    expect(await res.text()).to.include('Refused: a DELETE without an Origin header');
  });

  it('with its own Origin the action runs: the session ends', async () => {
    const res = await end({ origin: admin });
    expect(res.status).to.equal(302);
    const listing = await (await fetch(`${admin}/sessions`)).text();
    expect(listing).to.not.include(sessionId);
  });
});
