/**
 * The deployment as shipped: the Helm chart rendered with `helm template`, applied to a real
 * API server, and Switchboard running with nothing but the chart's RBAC (as its service
 * account): it loads, reconciles and writes status; people get the workflow editors' rights.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CLI, connectHttp, eventually, makeConfigDir, meta, ROOT, startSwitchboard, TEST_SERVER, type Running } from '../support/harness.js';
import { helmBinary, startKubeEnv, type KubeEnv } from '../support/kube-env.js';
import { createAjv, loadSchema } from '../../kernel/config/validate.js';

const run = promisify(execFile);
const NS = 'switchboard';
const API = `/apis/switchboard.dev/v1alpha1/namespaces/${NS}`;
type Doc = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };

describe('deployment: the Helm chart on a real API server', function () {
  this.timeout(120_000);
  let kube: KubeEnv;
  let rendered: string;
  let sb: Running;
  let client: Client;

  before(async function () {
    this.timeout(15 * 60_000);
    const helm = await helmBinary();
    rendered = (await run(helm, ['template', 'switchboard', join(ROOT, 'deploy/helm/switchboard'), '--namespace', NS, '--include-crds'])).stdout;
    kube = await startKubeEnv();
    await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await sb?.stop();
    await kube?.stop();
  });

  it('applies every object helm template renders (CRDs, service account, RBAC, config, deployment, service)', async () => {
    const docs = parseAllDocuments(rendered)
      .map((d) => d.toJSON() as Doc)
      .filter(Boolean);
    expect(docs.map((d) => d.kind)).to.include.members([
      'CustomResourceDefinition',
      'ServiceAccount',
      'Role',
      'RoleBinding',
      'ClusterRole',
      'ConfigMap',
      'Deployment',
      'Service',
    ]);
    // CRDs first, as helm installs them.
    for (const doc of [...docs.filter((d) => d.kind === 'CustomResourceDefinition'), ...docs.filter((d) => d.kind !== 'CustomResourceDefinition')]) {
      const r = await kube.create(doc);
      expect(r.status, `${doc.kind} ${doc.metadata.name}: ${JSON.stringify(r.body)}`).to.equal(201);
    }
    await eventually(
      () => kube.call('GET', `${API}/mcpservers`),
      (r) => r.status === 200,
      20_000,
    );
  });

  it('policies in the values become a mounted policies/ directory with Cedar switched on; check validates them', async () => {
    const values = join(tmpdir(), `switchboard-policies-${process.pid}.yaml`);
    const render = async (policy: string) => {
      await writeFile(
        values,
        `policies:\n  deny.cedar: |\n${policy
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\n')}\n`,
      );
      const out = (await run(await helmBinary(), ['template', 'switchboard', join(ROOT, 'deploy/helm/switchboard'), '--namespace', NS, '-f', values])).stdout;
      return parseAllDocuments(out).map((d) => d.toJSON() as (Doc & { data?: Record<string, string>; spec?: unknown }) | null);
    };
    const good = 'forbid (principal in Group::"apps", action == Action::"call", resource is Tool)\nwhen { resource has server && resource.server == "prod" };';
    const docs = await render(good);
    const policies = docs.find((d) => d?.kind === 'ConfigMap' && d.metadata.name === 'switchboard-policies')!;
    expect(policies.data!['deny.cedar']!.trim()).to.equal(good);
    const deployment = JSON.stringify(docs.find((d) => d?.kind === 'Deployment'));
    expect(deployment).to.include('"mountPath":"/var/lib/switchboard/policies"').and.include('"name":"switchboard-policies"');
    const configYaml = docs.find((d) => d?.kind === 'ConfigMap' && d.metadata.name === 'switchboard-config')!.data!['config.yaml']!;
    expect(configYaml).to.match(/plugins:\n\s+authorization-cedar: true/);
    // The rendered files as the pod sees them (file mode: check needs no API server).
    const check = async (policy: string) => {
      const rendered = await render(policy);
      const config = rendered
        .find((d) => d?.kind === 'ConfigMap' && d.metadata.name === 'switchboard-config')!
        .data!['config.yaml']!.replace('orchestrator: true', 'orchestrator: false');
      const dir = await makeConfigDir({
        'config.yaml': config,
        'policies/deny.cedar': rendered.find((d) => d?.metadata.name === 'switchboard-policies')!.data!['deny.cedar']!,
      });
      return new Promise<{ code: number | null; out: string }>((resolve) => {
        const p = execFile(process.execPath, [CLI, 'check', '--config-path', dir], { encoding: 'utf8' }, (_err, stdout, stderr) =>
          resolve({ code: p.exitCode, out: stdout + stderr }),
        );
      });
    };
    expect((await check(good)).code).to.equal(0);
    const bad = await check('forbid (principal, action == Action::"call", resource is Tool) when { resource.colour == "red" };');
    expect(bad.code).to.equal(1);
    expect(bad.out).to.match(/policies\/deny\.cedar:1:/);
  });

  it('deploy/switchboard.yaml is the chart rendered with its defaults', async () => {
    const plain = (await run(await helmBinary(), ['template', 'switchboard', join(ROOT, 'deploy/helm/switchboard'), '--namespace', NS])).stdout;
    const committed = await readFile(join(ROOT, 'deploy/switchboard.yaml'), 'utf8');
    expect(committed.slice(committed.indexOf('\n') + 1)).to.equal(plain);
  });

  it("Switchboard runs as the chart's service account: it serves resources and writes their status", async () => {
    const config = parseAllDocuments(rendered)
      .map((d) => d.toJSON() as (Doc & { data?: Record<string, string> }) | null)
      .find((d) => d?.kind === 'ConfigMap')!;
    // config.yaml exactly as rendered: its non-loopback bind without OAuth is accepted only by the chart's explicit flag.
    const dir = await makeConfigDir({ 'config.yaml': config.data!['config.yaml']! });
    sb = await startSwitchboard({}, { configDir: dir, env: { KUBECONFIG: await kube.kubeconfig(kube.tokens.controller) } });
    expect(sb.logs()).to.match(/WARN .*THE MCP ENDPOINT HAS NO AUTHENTICATION and listens on 0\.0\.0\.0:/);
    client = await connectHttp(sb.url);
    const server = {
      apiVersion: 'switchboard.dev/v1alpha1',
      kind: 'MCPServer',
      metadata: { name: 'gamma', namespace: NS },
      spec: { type: 'stdio', command: [process.execPath, TEST_SERVER, 'stdio', '--name', 'gamma'], autoStart: true },
    };
    expect((await kube.create(server)).status).to.equal(201);
    await eventually(
      async () => (await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 500 })).tools.map((t) => t.name),
      (t) => t.includes('x_gamma_ping'),
      15_000,
    );
    const observed = await eventually(
      () => kube.call<{ status?: { state?: string } }>('GET', `${API}/mcpservers/gamma`),
      (r) => r.body.status?.state === 'running',
      15_000,
    );
    expect(observed.body.status!.state).to.equal('running');
  });

  it('replicaCount > 1 with cluster.redis: Redis settings in config.yaml, the password as a mounted file, a PodDisruptionBudget; the API server accepts it all', async () => {
    const values = join(tmpdir(), `switchboard-replicas-${process.pid}.yaml`);
    await writeFile(
      values,
      [
        'replicaCount: 3',
        'cluster:',
        '  redis:',
        '    url: rediss://redis.switchboard.svc:6379/2',
        '    password: not-in-config',
        '    tls: { caSecret: { name: redis-ca, key: ca.pem }, serverName: redis.internal }',
        '    keyPrefix: "sb-prod:"',
        'podDisruptionBudget: { minAvailable: 2 }',
        '',
      ].join('\n'),
    );
    const out = (await run(await helmBinary(), ['template', 'scaled', join(ROOT, 'deploy/helm/switchboard'), '--namespace', NS, '-f', values])).stdout;
    type Rendered = Doc & { data?: Record<string, string>; spec?: Record<string, unknown> };
    const docs = parseAllDocuments(out)
      .map((d) => d.toJSON() as Rendered | null)
      .filter((d): d is Rendered => d !== null);
    const configYaml = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'scaled-config')!.data!['config.yaml']!;
    expect(configYaml).to.not.contain('not-in-config');
    const config = parseAllDocuments(configYaml)[0]!.toJSON() as {
      aggregator: { cluster: { redis: Record<string, unknown> } };
      plugins: Record<string, { options?: { statusLease?: { name: string } } }>;
    };
    expect(config.aggregator.cluster.redis).to.deep.equal({
      url: 'rediss://redis.switchboard.svc:6379/2',
      passwordFile: '/var/run/switchboard/redis/password',
      tls: { caFile: '/var/run/switchboard/redis-ca/ca.crt', serverName: 'redis.internal' },
      keyPrefix: 'sb-prod:',
    });
    expect(config.plugins['store-kubernetes']!.options!.statusLease!.name).to.equal('scaled-status');
    const secret = docs.find((d) => d.kind === 'Secret' && d.metadata.name === 'scaled-redis')!;
    expect(Buffer.from(secret.data!.password!, 'base64').toString()).to.equal('not-in-config');
    const deployment = docs.find((d) => d.kind === 'Deployment')!;
    expect(deployment.spec!.replicas).to.equal(3);
    const pod = JSON.stringify(deployment.spec!.template);
    expect(pod)
      .to.include('"mountPath":"/var/run/switchboard/redis"')
      .and.include('"secretName":"scaled-redis"')
      .and.include('"secretName":"redis-ca"')
      .and.include('"key":"ca.pem","path":"ca.crt"')
      .and.include('"fieldPath":"metadata.name"');
    const pdb = docs.find((d) => d.kind === 'PodDisruptionBudget')!;
    expect(pdb.spec).to.deep.equal({
      minAvailable: 2,
      selector: { matchLabels: { 'app.kubernetes.io/name': 'switchboard', 'app.kubernetes.io/instance': 'scaled' } },
    });
    // The config schema accepts what the chart renders (`check` would connect to the Redis named).
    const ajv = createAjv();
    expect(ajv.validate(loadSchema('config'), parseAllDocuments(configYaml)[0]!.toJSON()), ajv.errorsText()).to.equal(true);
    for (const doc of docs) {
      const r = await kube.create(doc);
      expect(r.status, `${doc.kind} ${doc.metadata.name}: ${JSON.stringify(r.body)}`).to.equal(201);
    }
    // With one replica (the default) there is no budget.
    expect(parseAllDocuments(rendered).map((d) => (d.toJSON() as Doc | null)?.kind)).to.not.include('PodDisruptionBudget');
  });

  it('helm template refuses more than one replica without Redis, credentials in the URL, and the old `replicas` key, saying what to do', async () => {
    const helm = await helmBinary();
    const refusal = (args: string[]) =>
      run(helm, ['template', 'refused', join(ROOT, 'deploy/helm/switchboard'), '--namespace', NS, ...args]).then(
        (r) => `rendered: ${r.stdout.slice(0, 100)}`,
        (err: unknown) => (err as { stderr: string }).stderr,
      );
    expect(await refusal(['--set', 'replicaCount=2'])).to.contain(
      'replicaCount is 2 but cluster.redis.url is empty: more than one replica needs Redis to share sessions, OAuth state, limits and events (docs/scale-out.md); set cluster.redis.url, or replicaCount: 1',
    );
    const withCredentials = await refusal(['--set', 'replicaCount=2', '--set', 'cluster.redis.url=redis://user:s3cret@redis:6379']);
    expect(withCredentials)
      .to.contain('cluster.redis.url must be redis://host:port[/db] or rediss://host:port[/db], without credentials')
      .and.not.contain('s3cret');
    expect(await refusal(['--set', 'replicas=2'])).to.contain('the value `replicas` was renamed `replicaCount`');
    expect(await refusal(['--set', 'replicaCount=0'])).to.contain('replicaCount must be a whole number of at least 1, not 0');
    expect(
      await refusal([
        '--set',
        'replicaCount=2',
        '--set',
        'cluster.redis.url=redis://r:6379',
        '--set',
        'cluster.redis.password=a',
        '--set',
        'cluster.redis.passwordSecret.name=b',
      ]),
    ).to.contain('cluster.redis.password and cluster.redis.passwordSecret.name are both set');
    expect(
      await refusal([
        '--set',
        'replicaCount=2',
        '--set',
        'cluster.redis.url=redis://r:6379',
        '--set',
        'podDisruptionBudget.minAvailable=1',
        '--set',
        'podDisruptionBudget.maxUnavailable=1',
      ]),
    ).to.contain('podDisruptionBudget: set minAvailable or maxUnavailable, not both');
    // Redis set through config: instead of cluster.redis also counts.
    expect(await refusal(['--set', 'replicaCount=2', '--set', 'config.aggregator.cluster.redis.url=redis://r:6379'])).to.match(/^rendered: /);
  });

  it('people are workflow editors: they may write Workflows, not MCPServers', async () => {
    const wf = {
      apiVersion: 'switchboard.dev/v1alpha1',
      kind: 'Workflow',
      metadata: { name: 'by-alice', namespace: NS },
      spec: { steps: [{ id: 'p', tool: 'x_gamma_ping' }] },
    };
    expect((await kube.create(wf, kube.tokens.alice)).status).to.equal(201);
    const server = {
      apiVersion: 'switchboard.dev/v1alpha1',
      kind: 'MCPServer',
      metadata: { name: 'by-alice', namespace: NS },
      spec: { type: 'stdio', command: ['true'] },
    };
    const refused = await kube.create(server, kube.tokens.alice);
    expect(refused.status).to.equal(403);
    expect(String(refused.body.message)).to.contain('cannot create resource "mcpservers"');
  });
});
