/**
 * Kubernetes ConfigMap and Secret volumes are links (issue 35, point 7): each key is
 * `<key> -> ..data/<key>`, `..data -> ..<timestamp>/`, and the kubelet updates a volume by
 * writing a new timestamped directory and swapping `..data` atomically. Following only links
 * that stay inside the watched directory must keep such mounts working: loaded at start and
 * reloaded on every swap, for a definitions folder laid out like a volume and for the
 * policies/ directory the Helm chart mounts (rendered from deploy/helm).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectHttp, eventually, makeConfigDir, meta, ROOT, startSwitchboard, type Running } from '../support/harness.js';
import { helmBinary } from '../support/kube-env.js';

const run = promisify(execFile);

/** A volume directory as the kubelet's atomic writer keeps it. */
class ConfigMapVolume {
  private generation = 0;
  constructor(readonly dir: string) {}

  private stamp(): string {
    this.generation++;
    return `..2026_11_25_04_${String(this.generation).padStart(2, '0')}_00.${String(100000000 + this.generation)}`;
  }

  /** First projection: the timestamped directory, `..data`, and one link per key. */
  async create(files: Record<string, string>): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const stamp = this.stamp();
    await mkdir(join(this.dir, stamp));
    for (const [key, content] of Object.entries(files)) await writeFile(join(this.dir, stamp, key), content);
    await symlink(stamp, join(this.dir, '..data'));
    for (const key of Object.keys(files)) await symlink(join('..data', key), join(this.dir, key));
  }

  /** An update the kubelet's way: new directory, `..data_tmp` renamed over `..data`, new keys linked, the old directory removed. */
  async update(files: Record<string, string>): Promise<void> {
    const old = (await readdir(this.dir)).filter((n) => n.startsWith('..2'));
    const stamp = this.stamp();
    await mkdir(join(this.dir, stamp));
    for (const [key, content] of Object.entries(files)) await writeFile(join(this.dir, stamp, key), content);
    await symlink(stamp, join(this.dir, '..data_tmp'));
    await rename(join(this.dir, '..data_tmp'), join(this.dir, '..data'));
    const linked = new Set(await readdir(this.dir));
    for (const key of Object.keys(files)) if (!linked.has(key)) await symlink(join('..data', key), join(this.dir, key));
    for (const dir of old) await rm(join(this.dir, dir), { recursive: true, force: true });
  }
}

const server = (name: string, description: string) => `name: ${name}\ntype: streamable-http\ndescription: ${description}\nurl: http://127.0.0.1:9/mcp\n`;

describe('security: ConfigMap volumes (links inside the directory) load and hot-reload', function () {
  this.timeout(120_000);
  let sb: Running;
  let client: Client;
  let volume: ConfigMapVolume;
  const description = async (name: string) =>
    (await meta<{ description?: string }>(client, 'call_tool', { name: 'core_mcpserver_get', arguments: { name } })).description;

  before(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-configmap-'));
    volume = new ConfigMapVolume(join(dir, 'mcpservers'));
    await volume.create({ 'cm.yaml': server('cm', 'v1') });
    sb = await startSwitchboard({}, { configDir: dir });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
    if (sb) await rm(sb.configDir, { recursive: true, force: true });
  });

  it('loads a definitions folder laid out as a ConfigMap volume, without a warning about its links', async () => {
    expect(await description('cm')).to.equal('v1');
    expect(sb.logs()).to.not.include('link to a file outside');
  });

  it('reloads each update the kubelet makes (a new directory, ..data swapped), and a key added later', async () => {
    await volume.update({ 'cm.yaml': server('cm', 'v2') });
    await eventually(
      () => description('cm'),
      (d) => d === 'v2',
      10_000,
    );
    await volume.update({ 'cm.yaml': server('cm', 'v3'), 'added.yaml': server('added', 'new key') });
    await eventually(
      () => description('cm'),
      (d) => d === 'v3',
      10_000,
    );
    await eventually(
      () => description('added'),
      (d) => d === 'new key',
      10_000,
    );
    expect(sb.logs()).to.not.include('link to a file outside');
  });
});

describe("security: the Helm chart's policies mount, projected as the kubelet does", function () {
  this.timeout(600_000);
  let sb: Running | undefined;
  after(async () => {
    await sb?.stop();
    if (sb) await rm(sb.configDir, { recursive: true, force: true });
  });

  it('loads the rendered policies through the ..data links and reloads a swapped update', async () => {
    const policy = 'forbid (principal, action == Action::"call", resource is Tool) when { resource has server && resource.server == "prod" };';
    const values = join(tmpdir(), `sb-configmap-values-${process.pid}.yaml`);
    await writeFile(values, `policies:\n  deny.cedar: |\n    ${policy}\n`);
    const out = (await run(await helmBinary(), ['template', 'switchboard', join(ROOT, 'deploy/helm/switchboard'), '--namespace', 'switchboard', '-f', values]))
      .stdout;
    await rm(values, { force: true });
    type Doc = { kind: string; metadata: { name: string }; data?: Record<string, string> } | null;
    const docs = parseAllDocuments(out).map((d) => d.toJSON() as Doc);
    const deployment = JSON.stringify(docs.find((d) => d?.kind === 'Deployment'));
    // The mounts this test stands for: policies/ as a directory volume (links), config.yaml by subPath (a plain file).
    expect(deployment).to.include('"mountPath":"/var/lib/switchboard/policies"').and.include('"subPath":"config.yaml"');
    const configMap = (name: string) => docs.find((d) => d?.kind === 'ConfigMap' && d.metadata.name === name)!.data!;
    const config = configMap('switchboard-config')['config.yaml']!.replace('orchestrator: true', 'orchestrator: false');
    const dir = await makeConfigDir({ 'config.yaml': config });
    const policies = new ConfigMapVolume(join(dir, 'policies'));
    await policies.create(configMap('switchboard-policies'));
    sb = await startSwitchboard({}, { configDir: dir, args: ['--host', '127.0.0.1'] });
    await sb.waitForLog(/policies loaded: 1 policies from 1 files/);
    await policies.update({ 'deny.cedar': `${policy}\n${policy.replace('"prod"', '"staging"')}\n` });
    await sb.waitForLog(/policies reloaded: 2 policies from 1 files/);
    expect(sb.logs()).to.not.include('link to a file outside');
  });
});
