/**
 * The admin UI's forms that add, edit and delete servers and run tools (issue 39), attacked
 * over raw HTTP: a post from another site is refused before it is read (CSRF), a body that is
 * too large or not a form is refused with 413/415 and nothing is created, what a pasted
 * snippet names is escaped where the page repeats it, and a tool run from the page is a
 * call_tool (a switched-off tool is refused there as for an MCP client).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { freePort, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';

describe('security: the admin UI forms', function () {
  this.timeout(60_000);
  let sb: Running;
  let admin: string;

  before(async () => {
    const port = await freePort();
    admin = `http://127.0.0.1:${port}`;
    sb = await startSwitchboard({
      'config.yaml': `aggregator:\n  admin:\n    enabled: true\n    port: ${port}\n`,
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER, [], 'disabledTools: [add]\n'),
    });
  });
  after(async function () {
    if (this.currentTest?.state === 'failed') console.log(sb?.logs());
    await sb?.stop();
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${admin}${path}`, {
      method: 'POST',
      body,
      redirect: 'manual',
      headers: { origin: admin, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  const created = (name: string) => existsSync(join(sb.configDir, 'mcpservers', `${name}.yaml`));

  it('refuses a create, a delete and a tool run posted from another site', async () => {
    const form = new URLSearchParams({ type: 'stdio', name: 'evil', command: 'node', args: TEST_SERVER }).toString();
    for (const [path, body] of [
      ['/mcps', form],
      ['/mcps/t/delete', ''],
      ['/mcps/t/tools', ''],
      ['/tools/x_t_ping', ''],
    ] as const) {
      const res = await post(path, body, { origin: 'http://evil.example' });
      expect(res.status, path).to.equal(403);
      expect(await res.text()).to.match(/^Refused: a request from http:\/\/evil\.example/);
    }
    expect(created('evil')).to.equal(false);
    expect(created('t')).to.equal(true);
  });

  it('refuses a form over 256 KiB (413) and a body that is not a form (415), creating nothing', async () => {
    const big = `snippet=${encodeURIComponent(JSON.stringify({ mcpServers: { big: { command: 'node', args: ['x'.repeat(300 * 1024)] } } }))}`;
    const tooLarge = await post('/mcps/import', big);
    expect(tooLarge.status).to.equal(413);
    expect(await tooLarge.text()).to.match(/at most 262144/);
    // Without a Content-Length (chunked), the count is kept as it arrives.
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 40; i++) c.enqueue(new TextEncoder().encode(`snippet=${'y'.repeat(10 * 1024)}`));
        c.close();
      },
    });
    // The server answers 413 and closes while the client may still be sending: a client sees
    // either the answer or the connection closed under its upload; both are a refusal.
    const streamed = await fetch(`${admin}/mcps/import`, {
      method: 'POST',
      body: chunks,
      duplex: 'half',
      headers: { origin: admin, 'content-type': 'application/x-www-form-urlencoded' },
    }).catch((err: unknown) => err as Error);
    if (streamed instanceof Error) {
      expect(streamed.message).to.equal('fetch failed');
    } else {
      expect(streamed.status).to.equal(413);
    }
    const json = await post('/mcps', JSON.stringify({ type: 'stdio', name: 'j', command: 'node' }), { 'content-type': 'application/json' });
    expect(json.status).to.equal(415);
    expect(await json.text()).to.match(/form posts \(application\/x-www-form-urlencoded\), not &#39;application\/json&#39;/);
    expect(created('big') || created('j')).to.equal(false);
  });

  it('escapes what a pasted snippet names where the refused form repeats it', async () => {
    const snippet = JSON.stringify({ '<img src=x onerror=alert(1)>': 'not an entry' });
    const res = await post('/mcps/import', new URLSearchParams({ snippet }).toString());
    expect(res.status).to.equal(422);
    const page = await res.text();
    expect(page).to.not.include('<img src=x');
    expect(page).to.include('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('runs tools as call_tool does: a switched-off tool is refused from the page too', async () => {
    const res = await post('/tools/x_t_add', 'arg-a=1&arg-b=2');
    // Not in the catalogue: the page says so, as call_tool would.
    expect(res.status).to.equal(404);
    const ran = await post('/tools/x_t_ping', '');
    expect(ran.status).to.equal(200);
    expect(await ran.text()).to.match(/pong from/);
  });
});
