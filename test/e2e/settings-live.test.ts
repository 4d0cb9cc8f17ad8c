/**
 * Issue 39 item 2: every config.yaml key is applied by hot reload or said to need a restart.
 * The admin listener opens, moves and closes as config.yaml says (real HTTP, its Host and
 * same-origin checks unchanged); a restart-only key (schemas/: x-applies: restart) is logged
 * once, named by core_config_get, core_config_update_aggregator, the admin Settings page and
 * `switchboard check` while the process runs.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CLI, connectHttp, eventually, freePort, meta, startSwitchboard, type Running } from '../support/harness.js';

type Obj = Record<string, unknown>;

async function atomicWrite(path: string, content: string): Promise<void> {
  await writeFile(`${path}.tmp`, content);
  await rename(`${path}.tmp`, path);
}

/** One HTTP request with the headers given as they are (fetch would not send a Host of our choosing). */
function request(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function expectRefused(port: number): Promise<void> {
  const err = await request(port, '/').then(
    () => undefined,
    (e: unknown) => e as NodeJS.ErrnoException,
  );
  expect(err?.code).to.equal('ECONNREFUSED');
}

function check(configDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, 'check', '--config-path', configDir], { timeout: 90_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const count = (text: string, re: RegExp) => text.match(new RegExp(re.source, 'g'))?.length ?? 0;

describe('config.yaml keys applied live or said to need a restart (issue 39 item 2)', function () {
  this.timeout(180_000);
  let sb: Running;
  let client: Client;
  const config = () => join(sb.configDir, 'config.yaml');
  const core = <T = Obj>(name: string, args: Obj = {}) => meta<T>(client, 'call_tool', { name, arguments: args });

  before(async () => {
    sb = await startSwitchboard({ 'config.yaml': '# the admin UI is off\n' });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client.close();
    await sb.stop();
  });

  it('opens the admin listener when config.yaml switches it on, moves it with its port, closes it when switched off: a log line each', async () => {
    const port = await freePort();
    await atomicWrite(config(), `aggregator:\n  admin: { enabled: true, port: ${port} }\n`);
    await sb.waitForLog(new RegExp(`admin UI on http://127\\.0\\.0\\.1:${port}/`), 30_000);
    const page = await request(port, '/sessions');
    expect(page.status).to.equal(200);
    expect(page.body).to.include('Switchboard admin');
    // The DNS-rebinding and same-origin checks hold on a listener opened while running.
    expect((await request(port, '/sessions', { host: 'evil.example' })).status).to.equal(421);
    const forged = await request(port, '/user-tokens', {}, 'DELETE');
    expect(forged.status).to.equal(403);
    expect(forged.body).to.include('without an Origin header');

    const moved = await freePort();
    await atomicWrite(config(), `aggregator:\n  admin: { enabled: true, port: ${moved} }\n`);
    await sb.waitForLog(new RegExp(`admin UI moved from http://127\\.0\\.0\\.1:${port}/ to http://127\\.0\\.0\\.1:${moved}/`), 30_000);
    expect((await request(moved, '/mcps')).status).to.equal(200);
    await expectRefused(port);

    await atomicWrite(config(), `aggregator:\n  admin: { enabled: false, port: ${moved} }\n`);
    await sb.waitForLog(new RegExp(`admin UI closed \\(it was on http://127\\.0\\.0\\.1:${moved}/; aggregator\\.admin\\.enabled is false\\)`), 30_000);
    await expectRefused(moved);
    expect(sb.logs()).to.not.match(/aggregator\.admin\.\w+ changes on restart/);
  });

  it('says why when the port is taken, stays closed, and opens on the next edit', async () => {
    const { createServer } = await import('node:net');
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', () => r()));
    const taken = (squatter.address() as { port: number }).port;
    try {
      await atomicWrite(config(), `aggregator:\n  admin: { enabled: true, port: ${taken} }\n`);
      await sb.waitForLog(
        new RegExp(
          `ERROR .*admin UI: cannot listen on 127\\.0\\.0\\.1:${taken}: .*EADDRINUSE.*; the admin UI stays closed until config\\.yaml changes aggregator\\.admin`,
        ),
        30_000,
      );
      const free = await freePort();
      await atomicWrite(config(), `aggregator:\n  admin: { enabled: true, port: ${free} }\n`);
      await sb.waitForLog(new RegExp(`admin UI on http://127\\.0\\.0\\.1:${free}/`), 30_000);
      expect((await request(free, '/settings')).status).to.equal(200);
      await atomicWrite(config(), '# the admin UI is off again\n');
      await sb.waitForLog(new RegExp(`admin UI closed \\(it was on http://127\\.0\\.0\\.1:${free}/`), 30_000);
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  });

  it('logs a restart-only key once and names it in core_config_get, core_config_update_aggregator, the Settings page and switchboard check', async () => {
    // serve records what config.yaml said at startup (for check) just after it is ready.
    await eventually(
      () => stat(join(sb.configDir, 'state', 'settings-at-start.json')).then(() => true),
      (v) => v,
      30_000,
    );
    const admin = await freePort();
    await atomicWrite(config(), `namespace: elsewhere\naggregator:\n  admin: { enabled: true, port: ${admin} }\n`);
    await sb.waitForLog(/WARN .*namespace changes on restart/, 30_000);
    await sb.waitForLog(new RegExp(`admin UI on http://127\\.0\\.0\\.1:${admin}/`), 30_000);
    expect((await core<{ RestartRequired: string[] }>('core_config_get')).RestartRequired).to.deep.equal(['namespace']);

    // Another edit that changes a live key only: applied, and the pending key is not said again.
    await atomicWrite(config(), `namespace: elsewhere\naggregator:\n  admin: { enabled: true, port: ${admin} }\n  limits: { maxSessions: 77 }\n`);
    await eventually(
      () => core<{ Aggregator: { Limits: { maxSessions: number } } }>('core_config_get'),
      (c) => c.Aggregator.Limits.maxSessions === 77,
      30_000,
    );
    expect(count(sb.logs(), /namespace changes on restart/)).to.equal(1);

    const port = await freePort();
    const updated = await core<{ restartRequiredFor: string[]; restartRequired: string[] }>('core_config_update_aggregator', { aggregator: { Port: port } });
    expect(updated.restartRequiredFor).to.deep.equal(['Port']);
    expect(updated.restartRequired).to.have.members(['namespace', 'aggregator.port']);
    await sb.waitForLog(new RegExp(`aggregator\\.port changes on restart \\(\\d+ in force, ${port} configured\\)`), 10_000);

    const settings = await request(admin, '/settings');
    expect(settings.status).to.equal(200);
    expect(settings.body).to.match(/changes on restart<\/strong>: <code>namespace<\/code>/);
    expect(settings.body).to.match(/2 keys are configured otherwise than in force: restart Switchboard to apply\s+them/);

    const checked = await check(sb.configDir);
    expect(checked.code, checked.stderr).to.equal(0);
    expect(checked.stderr).to.match(new RegExp(`warning: namespace changes on restart: the Switchboard running from this directory \\(pid ${sb.proc.pid}\\)`));
    expect(checked.stderr).to.not.include('aggregator.admin');

    await atomicWrite(config(), `aggregator:\n  admin: { enabled: true, port: ${admin} }\n`);
    await sb.waitForLog(/namespace is back to the value in force/, 30_000);
  });
});
