/**
 * Running Switchboard from the admin pages, in a real browser (Debian's chromium driven by
 * playwright-core), as issue 39 walks it: add a stdio server by pasting an IDE snippet, see it
 * connect, switch one of its tools off (gone from filter_tools for an SDK client), run another
 * from its generated form, suspend the server, delete it. Every step is a plain form (labels
 * found by their text, as a screen reader finds them). Screenshots at desktop and phone width
 * go to SCREENS_DIR (default test-artifacts/admin-ui-actions/).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, errorCode, eventually, freePort, meta, ROOT, startSwitchboard, TEST_SERVER, type Running } from '../support/harness.js';
import { chromiumOrFail, screenshot } from '../support/browser.js';

const SHOTS = process.env.SCREENS_DIR ?? join(ROOT, 'test-artifacts', 'admin-ui-actions');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

async function toolNames(client: Client, pattern: string): Promise<string[]> {
  return (await meta<{ tools: { name: string }[] }>(client, 'filter_tools', { pattern, limit: 50 })).tools.map((t) => t.name).sort();
}

describe('admin UI: managing servers and tools in a browser', function () {
  this.timeout(90_000);
  let sb: Running;
  let admin: string;
  let browser: Browser;
  let page: Page;
  let client: Client;

  const shoot = async (name: string) => {
    await page.setViewportSize(DESKTOP);
    await screenshot(page, join(SHOTS, `${name}-desktop.png`));
    await page.setViewportSize(PHONE);
    await screenshot(page, join(SHOTS, `${name}-phone.png`));
    await page.setViewportSize(DESKTOP);
  };

  before(async function () {
    const executablePath = chromiumOrFail(this);
    const port = await freePort();
    admin = `http://127.0.0.1:${port}`;
    sb = await startSwitchboard({ 'config.yaml': `aggregator:\n  admin:\n    enabled: true\n    port: ${port}\n` });
    await mkdir(SHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage({ viewport: DESKTOP });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await browser?.close();
    await sb?.stop();
  });

  it('shows a refused server form again with the error beside the field', async () => {
    await page.goto(`${admin}/mcps`);
    await page.getByRole('link', { name: 'Add a server' }).click();
    await page.waitForURL(`${admin}/mcps/new`);
    const stdio = page.locator('form', { has: page.getByRole('button', { name: 'Add local server' }) });
    await stdio.getByLabel('Name').fill('not a name!');
    await stdio.getByLabel('Command').fill('node');
    await stdio.getByLabel('Environment').fill('NO_EQUALS_SIGN');
    await stdio.getByRole('button', { name: 'Add local server' }).click();
    await page.waitForLoadState();
    const env = page.locator('#stdio-env');
    expect(await env.getAttribute('aria-invalid')).to.equal('true');
    expect(await page.locator('#stdio-env-error').textContent()).to.match(/line 1 \('NO_EQUALS_SIGN'\) has no '='/);
    // Fixed, the form goes to core_mcpserver_create, whose refusal lands beside the name.
    await env.fill('');
    await page.locator('#stdio-name').fill('not a name!');
    await page.getByRole('button', { name: 'Add local server' }).click();
    await page.waitForLoadState();
    expect(await page.locator('#stdio-name').getAttribute('aria-invalid')).to.equal('true');
    expect(await page.locator('#stdio-name-error').textContent()).to.match(/must match pattern/);
    expect(await page.locator('#stdio-command').inputValue()).to.equal('node');
    expect(await page.getByRole('alert').textContent()).to.include('Name');
    await shoot('add-refused');
    expect(await toolNames(client, 'x_*')).to.deep.equal([]);
  });

  it('adds a stdio server from a pasted IDE snippet, and it connects', async () => {
    await page.goto(`${admin}/mcps/new`);
    const snippet = `"calc": {\n  "command": "node",\n  "args": [${JSON.stringify(TEST_SERVER)}]\n}`;
    await page.getByLabel('Configuration snippet').fill(snippet);
    await shoot('add');
    await page.getByRole('button', { name: 'Add from snippet' }).click();
    await page.waitForURL(`${admin}/mcps/calc?done=created`);
    expect(await page.getByRole('status').textContent()).to.equal('Server added.');
    await eventually(
      async () => {
        await page.reload();
        return page.locator('#state').textContent();
      },
      (s) => s === 'running',
      15_000,
      200,
    );
    expect(await toolNames(client, 'x_calc_*')).to.include.members(['x_calc_add', 'x_calc_ping']);
    const file = await readFile(join(sb.configDir, 'mcpservers', 'calc.yaml'), 'utf8');
    expect(file).to.match(/command: node/);
  });

  it('switches one tool off: gone from filter_tools and refused by call_tool, without a reconnect', async () => {
    const pidBefore = (await callTool(client, 'x_calc_ping')).content;
    await page.goto(`${admin}/mcps/calc`);
    const ping = page.getByLabel('ping', { exact: true });
    expect(await ping.isChecked()).to.equal(true);
    await ping.uncheck();
    await page.getByRole('button', { name: 'Save tool switches' }).click();
    await page.waitForURL(`${admin}/mcps/calc?done=tools#tools`);
    expect(await page.getByLabel('ping', { exact: true }).isChecked()).to.equal(false);
    const names = await toolNames(client, 'x_calc_*');
    expect(names).to.include('x_calc_add');
    expect(names).to.not.include('x_calc_ping');
    expect(errorCode(await callTool(client, 'x_calc_ping'))).to.equal('TOOL_NOT_FOUND');
    expect(await readFile(join(sb.configDir, 'mcpservers', 'calc.yaml'), 'utf8')).to.match(/disabledTools:\s*\n\s*- ping/);
    await shoot('server');
    // The same process serves the tools still on: switching a tool off does not reconnect.
    await page.getByLabel('ping', { exact: true }).check();
    await page.getByRole('button', { name: 'Save tool switches' }).click();
    await page.waitForURL(/done=tools/);
    expect((await callTool(client, 'x_calc_ping')).content).to.deep.equal(pidBefore);
    await page.getByLabel('ping', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save tool switches' }).click();
    await page.waitForURL(/done=tools/);
    expect(await toolNames(client, 'x_calc_*')).to.not.include('x_calc_ping');
  });

  it('runs another tool from the form its input schema makes, and shows the result', async () => {
    await page.goto(`${admin}/mcps/calc`);
    await page.getByRole('link', { name: 'Try add' }).click();
    await page.waitForURL(`${admin}/tools/x_calc_add`);
    await page.getByLabel('a (required)', { exact: true }).fill('2');
    await page.getByLabel('b (required)', { exact: true }).fill('40');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.waitForLoadState();
    expect(await page.locator('#result-h').textContent()).to.equal('Result');
    expect(await page.locator('#result pre').first().textContent()).to.equal('42');
    expect(await page.locator('#result').textContent()).to.match(/"sum": 42/);
    await shoot('tool');
  });

  it("shows the server's stderr, bounded, on its page", async () => {
    await callTool(client, 'x_calc_slow', { ms: 1 });
    await page.goto(`${admin}/mcps/calc`);
    expect(await page.locator('#stderr').textContent()).to.include('slow 1: started');
  });

  it('suspends the server: it stops, its tools leave, the page says so', async () => {
    await page.goto(`${admin}/mcps/calc`);
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.waitForURL(`${admin}/mcps/calc?done=suspended`);
    expect(await page.locator('#state').textContent()).to.equal('stopped');
    expect(await page.getByRole('button', { name: 'Resume' }).count()).to.equal(1);
    expect(await toolNames(client, 'x_calc_*')).to.deep.equal([]);
    expect(await readFile(join(sb.configDir, 'mcpservers', 'calc.yaml'), 'utf8')).to.match(/suspended: true/);
  });

  it('deletes the server after a confirmation, each action an event naming the administrator', async () => {
    await page.goto(`${admin}/mcps/calc`);
    await page.getByRole('link', { name: 'Delete…' }).click();
    await page.waitForURL(`${admin}/mcps/calc/delete`);
    await page.getByRole('button', { name: 'Delete calc' }).click();
    await page.waitForURL(`${admin}/mcps?done=deleted`);
    expect(await page.locator('tr', { hasText: 'calc' }).count()).to.equal(0);
    expect(existsSync(join(sb.configDir, 'mcpservers', 'calc.yaml'))).to.equal(false);
    const events = (
      (await callTool(client, 'core_events', { resource_name: 'calc', limit: 100 })).structuredContent as {
        events: { reason: string; actor?: { name: string } }[];
      }
    ).events;
    const reasons = events.map((e) => e.reason);
    expect(reasons).to.include.members(['MCPServerCreated', 'MCPServerUpdated', 'MCPServerDeleted', 'Created', 'Updated', 'Deleted']);
    expect(events.filter((e) => e.reason === 'Deleted').map((e) => e.actor?.name)).to.deep.equal(['local']);
  });

  it('answers an unknown path with the styled page, and keeps End reachable at phone width', async () => {
    const res = await page.goto(`${admin}/no/such/page`);
    expect(res?.status()).to.equal(404);
    expect(await page.locator('h1').textContent()).to.equal('Not found');
    expect(await page.getByRole('link', { name: 'Servers' }).count()).to.be.greaterThan(0);
    await page.setViewportSize(PHONE);
    await page.goto(`${admin}/sessions`);
    const end = page.getByRole('button', { name: 'End' }).first();
    const box = (await end.boundingBox())!;
    expect(box.x + box.width).to.be.at.most(PHONE.width);
    expect(await page.locator('time .abs').first().textContent()).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(await page.locator('time .rel').first().textContent()).to.match(/^\(\d+s ago\)$/);
    await screenshot(page, join(SHOTS, 'sessions-phone.png'));
    await page.setViewportSize(DESKTOP);
  });
});
