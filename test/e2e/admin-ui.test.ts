/**
 * The admin pages in a real browser (Debian's chromium driven by playwright-core): see a
 * live session an SDK client made, end it from the page and watch the client's next call
 * fail; reconnect a server from /mcps; read a workflow run's timeline. Also: output is
 * escaped, and actions from another origin are refused. Screenshots go to
 * test-artifacts/admin-ui/.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, connectHttp, eventually, freePort, ROOT, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';
import { PING_TWICE } from '../fixtures/workflows.js';
import { chromiumOrFail, screenshot } from '../support/browser.js';

const SHOTS = join(ROOT, 'test-artifacts', 'admin-ui');

describe('admin UI in a browser', function () {
  this.timeout(60_000);
  let sb: Running;
  let admin: string;
  let browser: Browser;
  let page: Page;

  before(async function () {
    const executablePath = chromiumOrFail(this);
    const port = await freePort();
    admin = `http://127.0.0.1:${port}`;
    sb = await startSwitchboard({
      'config.yaml': `aggregator:\n  admin:\n    enabled: true\n    port: ${port}\n`,
      'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER),
      'workflows/ping-twice.yaml': PING_TWICE,
    });
    await mkdir(SHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  });
  after(async () => {
    await browser?.close();
    await sb?.stop();
  });

  it('shows a live session, ends it from the page, and the client’s next call fails', async () => {
    const client = new Client({ name: 'browser-test-client', version: '1.2.3' });
    const transport = new StreamableHTTPClientTransport(new URL(sb.url));
    await client.connect(transport);
    await callTool(client, 'x_tools_ping', {});
    await page.goto(`${admin}/sessions`);
    await screenshot(page, join(SHOTS, 'sessions.png'));
    const row = page.locator('tr', { hasText: 'browser-test-client 1.2.3' });
    expect(await row.count()).to.equal(1);
    await row.locator('a').first().click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]+$/);
    expect(await page.locator('dd').first().textContent()).to.equal(transport.sessionId);
    await screenshot(page, join(SHOTS, 'session.png'));
    await page.getByRole('button', { name: 'End this session' }).click();
    await page.waitForURL(`${admin}/sessions`);
    expect(await page.locator('tr', { hasText: 'browser-test-client' }).count()).to.equal(0);
    let failed: unknown;
    await callTool(client, 'x_tools_ping', {}).catch((err: unknown) => (failed = err));
    expect(String(failed)).to.match(/not found|404|Session/i);
  });

  it('reconnects a server from /mcps', async () => {
    await page.goto(`${admin}/mcps`);
    await screenshot(page, join(SHOTS, 'servers.png'));
    const row = page.locator('tr', { hasText: 'tools' });
    expect(await row.locator('td').nth(1).textContent()).to.equal('running');
    await row.getByRole('button', { name: 'Reconnect' }).click();
    // The reconnect answers once the server is back: the page shows where it ended up.
    await page.waitForURL(`${admin}/mcps/tools?done=reconnected`);
    expect(await page.locator('#state').textContent()).to.equal('running');
    const client = await connectHttp(sb.url);
    const seen = await eventually(
      async () =>
        ((await callTool(client, 'core_events', { resource_name: 'tools', limit: 10 })).structuredContent as { events: { reason: string }[] }).events.map(
          (e) => e.reason,
        ),
      (r) => r.includes('MCPServerStopped') && r.indexOf('MCPServerStarted') < r.indexOf('MCPServerStopped'),
      10_000,
      200,
    );
    expect(seen.indexOf('MCPServerStarted')).to.be.lessThan(seen.indexOf('MCPServerStopped'));
    await page.reload();
    expect(await page.locator('#state').textContent()).to.equal('running');
    await screenshot(page, join(SHOTS, 'server.png'));
    await client.close();
  });

  it('shows a workflow run with a bar per step', async () => {
    const client = await connectHttp(sb.url);
    const run = await callTool(client, 'workflow_ping-twice', {});
    await client.close();
    const id = (run.structuredContent as { execution_id: string }).execution_id;
    await page.goto(`${admin}/executions`);
    await page.locator('a', { hasText: id.slice(0, 8) }).click();
    await page.waitForURL(`${admin}/executions/${id}`);
    expect(await page.locator('.timeline .bar.completed').count()).to.equal(2);
    // Inputs, each step's rendered arguments and its result, folded per step (no script).
    expect(await page.locator('details.step').count()).to.equal(2);
    await page.locator('details.step summary').first().click();
    expect(await page.locator('details.step').first().textContent()).to.match(/Arguments[\s\S]*Result[\s\S]*pong from/);
    await screenshot(page, join(SHOTS, 'execution.png'));
  });

  it('escapes what clients name, and refuses actions from another origin', async () => {
    const client = new Client({ name: '<script>alert(1)</script>', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(sb.url)));
    const text = await (await fetch(`${admin}/sessions`)).text();
    expect(text).to.include('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text).to.not.include('<script>alert(1)');
    const id = /\/sessions\/([0-9a-f-]+)"/.exec(text)![1]!;
    const forged = await fetch(`${admin}/sessions/${id}/delete`, { method: 'POST', headers: { origin: 'http://evil.example' }, redirect: 'manual' });
    expect(forged.status).to.equal(403);
    expect(await forged.text()).to.match(/^Refused: a request from http:\/\/evil\.example/);
    await callTool(client, 'x_tools_ping', {});
    await client.close();
  });
});
