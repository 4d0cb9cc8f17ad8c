/**
 * OAuth off means loopback only: a non-loopback bind of the MCP endpoint without OAuth
 * protection is refused at startup, by `switchboard check`, on hot reload and by
 * core_config_update_aggregator, unless `aggregator.allowUnauthenticatedNetwork` accepts it
 * (with a loud warning). The shipped Kubernetes manifest must start, so it says so explicitly.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, parse as parseYaml, stringify } from 'yaml';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { writeFileAtomic } from '../../lib/files/atomic-write.js';
import { callTool, CLI, connectHttp, errorCode, eventually, makeConfigDir, meta, ROOT, startSwitchboard, text, type Running } from '../support/harness.js';
import { checkInProcess, type Checked } from '../support/check.js';

type Obj = Record<string, unknown>;

/**
 * How long one `serve` or `check` process may take: on a loaded two-core machine (the suite
 * beside other work) each took over 20 s of wall time and was killed.
 */
const PROCESS_MS = 90_000;

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: PROCESS_MS });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * `switchboard check` on a config.yaml, in this process (test/support/check.ts): the rule's
 * cases are a dozen configurations, and a `check` process for each cost 2 s of CPU. The first
 * test runs the command itself, which proves it reaches the same function.
 */
async function check(config: string): Promise<Checked> {
  return checkInProcess(await makeConfigDir({ 'config.yaml': config }));
}

/** The lines of a process's output that name the refused setting: there must be exactly one. */
function hostLines(output: string): string[] {
  return output.split('\n').filter((l) => l.includes('aggregator.host'));
}

/** serve and check on the same configuration: both refuse, with the same single line. */
function refusedByBoth(dir: string): string {
  const served = run('serve', '--config-path', dir, '--port', '0');
  expect(served.status, served.stderr).to.equal(1);
  expect(served.stderr).to.not.include('listening');
  const checked = run('check', '--config-path', dir);
  expect(checked.status, checked.stdout).to.equal(1);
  expect(hostLines(checked.stderr)).to.have.length(1);
  expect(hostLines(served.stderr)).to.deep.equal(hostLines(checked.stderr));
  return hostLines(served.stderr)[0]!;
}

const REFUSAL =
  /the MCP endpoint would listen on (\S+) .*without OAuth protection.*; set aggregator\.oauth\.server\.enabled, .*, or set aggregator\.allowUnauthenticatedNetwork: true to accept it$/;

describe('network exposure: without OAuth protection the MCP endpoint stays on loopback', function () {
  // Cases run `switchboard serve` (or `check`) as a process.
  this.timeout(3 * PROCESS_MS);
  describe('refused at startup and by switchboard check', () => {
    it('host 0.0.0.0 in config.yaml: serve exits non-zero and check refuses, with one line naming the setting and its line', async () => {
      const dir = await makeConfigDir({ 'config.yaml': '# shared with the team\naggregator:\n  host: 0.0.0.0\n' });
      const line = refusedByBoth(dir);
      expect(line).to.match(/config\.yaml:3:9: aggregator\.host: /);
      expect(line).to.match(REFUSAL);
      expect(REFUSAL.exec(line)![1]).to.equal('0.0.0.0');
    });

    it('a LAN address, a host name and the IPv6 wildcard likewise; loopback names and addresses pass', async () => {
      const refused = ['192.0.2.2', 'switchboard.internal', "'::'"];
      const accepted = ['127.0.0.1', 'localhost', "'::1'", '127.0.0.2'];
      const results: Checked[] = [];
      for (const host of [...refused, ...accepted]) results.push(await check(`aggregator:\n  host: ${host}\n`));
      refused.forEach((host, i) => {
        const r = results[i]!;
        expect(r.status, `${host}: ${r.stdout}`).to.equal(1);
        expect(hostLines(r.stderr), host).to.have.length(1);
        expect(hostLines(r.stderr)[0]).to.match(REFUSAL);
      });
      accepted.forEach((host, i) => {
        const r = results[refused.length + i]!;
        expect(r.status, `${host}: ${r.stderr}`).to.equal(0);
      });
    });

    it('--host 0.0.0.0 on the command line is refused the same way, naming the flag', async () => {
      const dir = await makeConfigDir({ 'config.yaml': 'aggregator:\n  port: 0\n' });
      const served = run('serve', '--config-path', dir, '--port', '0', '--host', '0.0.0.0');
      expect(served.status, served.stderr).to.equal(1);
      expect(served.stderr).to.not.include('listening');
      const lines = hostLines(served.stderr);
      expect(lines).to.have.length(1);
      expect(lines[0])
        .to.match(/config\.yaml:\d+:\d+: aggregator\.host: /)
        .and.match(REFUSAL);
      expect(lines[0]).to.include('0.0.0.0 (--host on the command line)').and.include('pass --host 127.0.0.1');
    });

    it("is not this rule's business when OAuth protection is on, the transport is stdio or the aggregator is off", async () => {
      const configs = [
        'aggregator:\n  host: 0.0.0.0\n  oauth:\n    server:\n      enabled: true\n      baseUrl: https://sb.example\n      idp: {issuer: https://idp.example, clientId: sb, clientSecret: sb-secret}\n',
        'aggregator:\n  host: 0.0.0.0\n  transport: stdio\n',
        'aggregator:\n  host: 0.0.0.0\n  enabled: false\n',
      ];
      const results: Checked[] = [];
      for (const config of configs) results.push(await check(config));
      configs.forEach((config, i) => expect(results[i]!.status, `${config}\n${results[i]!.stderr}`).to.equal(0));
    });
  });

  describe('aggregator.allowUnauthenticatedNetwork: true', () => {
    let sb: Running | undefined;
    after(async () => {
      await sb?.stop();
    });

    it('starts on 0.0.0.0, with a loud warning that every caller is an anonymous non-administrator', async () => {
      sb = await startSwitchboard({ 'config.yaml': 'aggregator:\n  host: 0.0.0.0\n  allowUnauthenticatedNetwork: true\n' });
      expect(sb.logs()).to.match(/listening on http:\/\/0\.0\.0\.0:\d+\/mcp/);
      const warning = sb
        .logs()
        .split('\n')
        .find((l) => l.includes('HAS NO AUTHENTICATION'));
      expect(warning, sb.logs()).to.match(
        new RegExp(
          `WARN .*listens on 0\\.0\\.0\\.0:${sb.port} \\(aggregator\\.allowUnauthenticatedNetwork: true\\): every caller that reaches that address can use the endpoint as an anonymous non-administrator`,
        ),
      );
      const client = await connectHttp(sb.url);
      try {
        expect((await meta<{ tools: unknown[] }>(client, 'list_tools', { limit: 500 })).tools).to.not.be.empty;
      } finally {
        await client.close();
      }
    });

    it('what the warning says: a caller from another address is an anonymous non-administrator', async function () {
      const lan = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
      if (!lan) this.skip();
      const client = await connectHttp(`http://${lan}:${sb!.port}/mcp`);
      try {
        expect((await meta<{ tools: unknown[] }>(client, 'list_tools', { limit: 500 })).tools).to.not.be.empty;
        // Refused as if they did not exist: what a caller may not call is hidden from it.
        const create = await callTool(client, 'core_mcpserver_create', { name: 'planted', type: 'stdio', command: ['true'] });
        expect(errorCode(create), text(create)).to.equal('TOOL_NOT_FOUND');
        const update = await callTool(client, 'core_config_update_aggregator', { aggregator: { ServicePrefix: 'planted' } });
        expect(errorCode(update), text(update)).to.equal('TOOL_NOT_FOUND');
      } finally {
        await client.close();
      }
    });

    it('passes switchboard check', async () => {
      expect((await checkInProcess(sb!.configDir)).status).to.equal(0);
    });
  });

  describe('while running', () => {
    let sb: Running;
    let client: Client;
    const configFile = (): string => join(sb.configDir, 'config.yaml');

    before(async () => {
      sb = await startSwitchboard({ 'config.yaml': '# loopback on purpose\naggregator:\n  host: 127.0.0.1\n' });
      client = await connectHttp(sb.url);
    });
    after(async () => {
      await client?.close();
      await sb?.stop();
    });

    // The Switchboard these tests share binds loopback: it is the one that shows it (no second start for it).
    it('a loopback bind never warns', () => {
      expect(sb.logs()).to.match(/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/);
      expect(sb.logs()).to.not.include('HAS NO AUTHENTICATION');
    });

    it('core_config_update_aggregator refuses Host 0.0.0.0 with VALIDATION_FAILED naming the setting, and changes nothing', async () => {
      const refused = await callTool(client, 'core_config_update_aggregator', { aggregator: { Host: '0.0.0.0' } });
      expect(errorCode(refused)).to.equal('VALIDATION_FAILED');
      expect(text(refused))
        .to.include('aggregator.host: the MCP endpoint would listen on 0.0.0.0 without OAuth protection')
        .and.include('aggregator.allowUnauthenticatedNetwork: true');
      expect(await meta<Obj>(client, 'call_tool', { name: 'core_config_get_aggregator' })).to.deep.include({ Host: '127.0.0.1' });
    });

    it('accepts 127.0.0.1, and core_config_save after the refusal never persists a non-loopback bind', async () => {
      const accepted = await meta<{ aggregator: Obj }>(client, 'call_tool', {
        name: 'core_config_update_aggregator',
        arguments: { aggregator: { Host: '127.0.0.1', ServicePrefix: 'sb' } },
      });
      expect(accepted.aggregator).to.deep.include({ Host: '127.0.0.1', ServicePrefix: 'sb' });
      expect(errorCode(await callTool(client, 'sb_core_config_update_aggregator', { aggregator: { Host: '192.0.2.2' } }))).to.equal('VALIDATION_FAILED');
      await meta(client, 'call_tool', { name: 'sb_core_config_save' });
      const saved = parseYaml(readFileSync(configFile(), 'utf8')) as { aggregator: Obj };
      expect(saved.aggregator).to.deep.include({ host: '127.0.0.1', servicePrefix: 'sb' });
      expect((await checkInProcess(sb.configDir)).status).to.equal(0);
    });

    it('a hot reload to 0.0.0.0 is refused with the same line, and the last good configuration stays', async () => {
      // Saved whole (temp file and rename, as editors save): a plain write is a truncation and
      // then the text, and read between the two under load, the empty file was applied first.
      await writeFileAtomic(configFile(), 'aggregator:\n  servicePrefix: hot\n  host: 0.0.0.0\n');
      const line = await sb.waitForLog(/config\.yaml:3:9: aggregator\.host: .*\(keeping the last good definition\)/, 5000);
      expect(line).to.match(/the MCP endpoint would listen on 0\.0\.0\.0 without OAuth protection/);
      // Nothing of the refused edit applied: neither the bind nor the prefix beside it.
      const agg = await meta<Obj>(client, 'call_tool', { name: 'sb_core_config_get_aggregator' });
      expect(agg).to.deep.include({ Host: '127.0.0.1', ServicePrefix: 'sb' });
      // The watcher still applies a good edit afterwards.
      await writeFileAtomic(configFile(), 'aggregator:\n  servicePrefix: hot\n  host: 127.0.0.1\n');
      await eventually(
        () => meta<Obj>(client, 'call_tool', { name: 'hot_core_config_get_aggregator' }).catch((): Obj => ({})),
        (a) => a.ServicePrefix === 'hot',
      );
    });
  });

  it('with --host 0.0.0.0 accepted by the flag, a reload that drops the flag is refused, naming --host', async () => {
    const sb = await startSwitchboard({ 'config.yaml': 'aggregator:\n  allowUnauthenticatedNetwork: true\n' }, { args: ['--host', '0.0.0.0'] });
    try {
      expect(sb.logs()).to.include('HAS NO AUTHENTICATION');
      await writeFile(join(sb.configDir, 'config.yaml'), 'aggregator:\n  allowUnauthenticatedNetwork: false\n');
      await sb.waitForLog(
        /aggregator\.host: the MCP endpoint would listen on 0\.0\.0\.0 \(--host on the command line\) without OAuth protection.*\(keeping the last good definition\)/,
        5000,
      );
    } finally {
      await sb.stop();
    }
  });

  describe('the shipped Kubernetes manifest (deploy/switchboard.yaml, the chart rendered with its defaults)', () => {
    const manifest = (): { config: { aggregator: Obj; orchestrator?: boolean } & Obj } => {
      const docs = parseAllDocuments(readFileSync(join(ROOT, 'deploy/switchboard.yaml'), 'utf8')).map(
        (d) => d.toJSON() as { kind?: string; data?: Record<string, string> } | null,
      );
      const configMap = docs.find((d) => d?.kind === 'ConfigMap');
      expect(configMap?.data?.['config.yaml'], 'a ConfigMap with config.yaml').to.be.a('string');
      return { config: parseYaml(configMap!.data!['config.yaml']!) as { aggregator: Obj } & Obj };
    };
    /** check in orchestrator mode reads resources from an API server; this rule is about config.yaml alone. */
    const checkOffCluster = (config: Obj): Promise<Checked> => check(stringify({ ...config, orchestrator: false }));

    it('binds a non-loopback address only with OAuth protection on or allowUnauthenticatedNetwork set explicitly, and passes switchboard check', async () => {
      const { config } = manifest();
      const a = config.aggregator as { host?: string; allowUnauthenticatedNetwork?: boolean; oauth?: { server?: { enabled?: boolean } } };
      expect(config.orchestrator).to.equal(true);
      const loopback = /^(127\.|localhost$|::1$)/.test(a.host ?? 'localhost');
      if (!loopback)
        expect(a.oauth?.server?.enabled === true || a.allowUnauthenticatedNetwork === true, `host ${a.host} with neither OAuth nor the explicit flag`).to.equal(
          true,
        );
      const checked = await checkOffCluster(config);
      expect(checked.status, checked.stderr).to.equal(0);
    });

    it('the explicit setting is what makes it start: without it, the same manifest is refused', async function () {
      const { config } = manifest();
      const a = config.aggregator as { oauth?: { server?: { enabled?: boolean } } };
      if (a.oauth?.server?.enabled === true) this.skip();
      const { allowUnauthenticatedNetwork: _dropped, ...rest } = config.aggregator;
      const checked = await checkOffCluster({ ...config, aggregator: rest });
      expect(checked.status).to.equal(1);
      expect(hostLines(checked.stderr)).to.have.length(1);
      expect(hostLines(checked.stderr)[0]).to.match(REFUSAL);
    });
  });
});
