/**
 * Several replicas in orchestrator mode against a real API server: one holds the status
 * Lease and is the only one writing status (the audit log names who wrote: each replica
 * authenticates as its own user); SIGKILLed, the other takes the Lease over once it expires
 * and writes; a clean stop releases it; every replica acts on a restartRequestedAt once
 * (each counts its own restarts of the server: the wrapper records its parent's pid); a
 * Workflow's status says whether it can run and what it misses, as servers come and go.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { join } from 'node:path';
import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectHttp, eventually, makeConfigDir, meta, ROOT, startSwitchboard, TEST_SERVER, type Running } from '../support/harness.js';
import { startKubeEnv, type KubeEnv } from '../support/kube-env.js';

const NS = 'switchboard';
const API = `/apis/switchboard.dev/v1alpha1/namespaces/${NS}`;
const LEASE = `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/sb-replicas-status`;
const DURATION_S = 4;
const WATCH_SECONDS = 3;

interface LeaseObject {
  spec: { holderIdentity?: string; leaseDurationSeconds?: number; leaseTransitions?: number };
}
interface Replica {
  id: 'replica-a' | 'replica-b';
  user: 'alice' | 'bob';
  sb: Running;
  client: Client;
}

describe('orchestrator mode with several replicas: the status Lease, restarts per replica, Workflow status', function () {
  this.timeout(180_000);
  let kube: KubeEnv;
  let configDir: string;
  let startsFile: string;
  const replicas = new Map<Replica['id'], Replica>();

  const start = async (id: Replica['id']): Promise<Replica> => {
    const user = id === 'replica-a' ? 'alice' : 'bob';
    const sb = await startSwitchboard({}, { configDir, env: { KUBECONFIG: await kube.kubeconfig(kube.tokens[user]), POD_NAME: id } });
    const replica = { id, user, sb, client: await connectHttp(sb.url) } as const;
    replicas.set(id, replica);
    return replica;
  };
  const stop = async (id: Replica['id']) => {
    const r = replicas.get(id);
    replicas.delete(id);
    await r?.client.close().catch(() => undefined);
    await r?.sb.stop();
  };
  const holder = async () => (await kube.call<LeaseObject>('GET', LEASE)).body.spec?.holderIdentity;
  const toolNames = async (r: Replica) => (await meta<{ tools: { name: string }[] }>(r.client, 'list_tools', { limit: 500 })).tools.map((t) => t.name);
  const getObject = async <T>(plural: string, name: string) => (await kube.call<T>('GET', `${API}/${plural}/${name}`)).body;
  /** Who patched a resource's status, in order (the audit log: each replica is its own user). */
  const statusWriters = async (plural: string, name: string) =>
    (await kube.audit())
      .filter((e) => e.objectRef.resource === plural && e.objectRef.name === name && e.objectRef.subresource === 'status')
      .map((e) => e.user.username);
  /** The server's starts, by the pid of the Switchboard that started it. */
  const starts = async () => {
    const lines = (await readFile(startsFile, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    const counts = new Map<number, number>();
    // "<pid> <server> <time>": alpha's starts only.
    for (const pid of lines.filter((l) => l.split(' ')[1] === 'alpha').map((l) => Number(l.split(' ')[0]))) counts.set(pid, (counts.get(pid) ?? 0) + 1);
    return counts;
  };
  const startsOf = async (id: Replica['id']) => (await starts()).get(replicas.get(id)!.sb.proc.pid!) ?? 0;
  /** A watch of MCPServers, open until the API server ends it (as it ends the replicas' own watches). */
  const watchEnds = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        new URL(`${API}/mcpservers?watch=1`, kube.server),
        { ca: kube.ca, headers: { authorization: `Bearer ${kube.tokens.admin}` } },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end();
    });
  const server = (name: string) => ({
    apiVersion: 'switchboard.dev/v1alpha1',
    kind: 'MCPServer',
    metadata: { name, namespace: NS },
    spec: {
      type: 'stdio',
      // $PPID is the Switchboard that spawned it: each replica's starts are counted apart.
      command: ['/bin/sh', '-c', `echo "$PPID ${name} $(date +%T.%N)" >> '${startsFile}'; exec '${process.execPath}' '${TEST_SERVER}' stdio --name ${name}`],
      autoStart: true,
    },
  });

  before(async function () {
    this.timeout(15 * 60_000); // the first run builds kube-apiserver from source (cached afterwards)
    // Watches end every 3 to 6 s: each replica lists and watches again many times during the suite.
    kube = await startKubeEnv(undefined, { watchSeconds: WATCH_SECONDS });
    for (const doc of parseAllDocuments(await readFile(join(ROOT, 'deploy/crds.yaml'), 'utf8'))) {
      const r = await kube.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', doc.toJSON());
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
    }
    await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    // Each replica is its own user, so the audit log says which one wrote.
    const binding = await kube.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'replicas-are-admins' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: ['alice', 'bob'].map((name) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name })),
    } as Parameters<KubeEnv['create']>[0]);
    expect(binding.status, JSON.stringify(binding.body)).to.equal(201);
    await eventually(
      () => kube.call('GET', `${API}/mcpservers`),
      (r) => r.status === 200,
      20_000,
    );
    configDir = await makeConfigDir({
      'config.yaml': `orchestrator: true\nnamespace: ${NS}\nplugins:\n  store-kubernetes:\n    options:\n      statusLease: { name: sb-replicas-status, durationSeconds: ${DURATION_S} }\n`,
    });
    startsFile = join(configDir, 'starts.log');
    await start('replica-a');
    await eventually(holder, (h) => h === 'replica-a', 15_000);
    await start('replica-b');
  });

  after(async () => {
    for (const id of [...replicas.keys()]) await stop(id);
    await kube?.stop();
  });

  it('one replica holds the Lease; only it writes status, the other leaves it', async () => {
    const lease = (await kube.call<LeaseObject>('GET', LEASE)).body;
    expect(lease.spec).to.include({ holderIdentity: 'replica-a', leaseDurationSeconds: DURATION_S });
    await replicas.get('replica-b')!.sb.waitForLog(/replica 'replica-b' does not hold the status Lease 'sb-replicas-status' \('replica-a' does\)/);
    expect((await kube.create(server('alpha'))).status).to.equal(201);
    for (const r of replicas.values())
      await eventually(
        () => toolNames(r),
        (t) => t.includes('x_alpha_ping'),
        20_000,
      );
    await eventually(
      () => getObject<{ status?: { state?: string; observedGeneration?: number } }>('mcpservers', 'alpha'),
      (o) => o.status?.state === 'running' && o.status.observedGeneration === 1,
      15_000,
    );
    const writers = await statusWriters('mcpservers', 'alpha');
    expect(writers).to.not.be.empty;
    expect(new Set(writers)).to.deep.equal(new Set(['alice']));
  });

  it('the API server ends watches within twice its minimum request timeout (so replicas re-list during this suite)', async () => {
    const started = Date.now();
    await watchEnds();
    expect((Date.now() - started) / 1000).to.be.within(WATCH_SECONDS * 0.9, WATCH_SECONDS * 2 + 5);
  });

  it('restartRequestedAt: each replica restarts its own connection once', async () => {
    await eventually(starts, (s) => s.size === 2, 15_000);
    expect([await startsOf('replica-a'), await startsOf('replica-b')]).to.deep.equal([1, 1]);
    const at = new Date().toISOString();
    await kube.call('PATCH', `${API}/mcpservers/alpha`, { spec: { restartRequestedAt: at } }, { contentType: 'application/merge-patch+json' });
    await eventually(
      async () => [await startsOf('replica-a'), await startsOf('replica-b')],
      (s) => s[0] === 2 && s[1] === 2,
      20_000,
    );
    await eventually(
      () => getObject<{ status?: { lastRestartedAt?: string; state?: string } }>('mcpservers', 'alpha'),
      (o) => o.status?.lastRestartedAt === at && o.status.state === 'running',
      15_000,
    );
    // A replica that starts again with the same value starts the server, it does not also restart it.
    await stop('replica-b');
    const b = await start('replica-b');
    await eventually(
      () => toolNames(b),
      (t) => t.includes('x_alpha_ping'),
      20_000,
    );
    expect(await startsOf('replica-b')).to.equal(1);
    // A second request: once more on each, which also shows the first was not acted on twice.
    const again = new Date(Date.now() + 1000).toISOString();
    await kube.call('PATCH', `${API}/mcpservers/alpha`, { spec: { restartRequestedAt: again } }, { contentType: 'application/merge-patch+json' });
    await eventually(
      () => getObject<{ status?: { lastRestartedAt?: string } }>('mcpservers', 'alpha'),
      (o) => o.status?.lastRestartedAt === again,
      15_000,
    );
    await eventually(
      async () => [await startsOf('replica-a'), await startsOf('replica-b')],
      (s) => s[0] === 3 && s[1] === 2,
      20_000,
    );
    for (const r of replicas.values())
      await eventually(
        () => toolNames(r),
        (t) => t.includes('x_alpha_ping'),
        20_000,
      );
    // Two watches of our own run out one after the other: every replica's watch ended meanwhile, and it listed again.
    await watchEnds();
    await watchEnds();
    expect([await startsOf('replica-a'), await startsOf('replica-b')], 'no restart from a re-list').to.deep.equal([3, 2]);
  });

  it('the holder SIGKILLed: the other takes the Lease over once it expires and writes status', async () => {
    expect(await holder()).to.equal('replica-a');
    const a = replicas.get('replica-a')!;
    const killedAt = Date.now();
    a.sb.proc.kill('SIGKILL');
    replicas.delete('replica-a');
    await a.client.close().catch(() => undefined);
    await eventually(holder, (h) => h === 'replica-b', 30_000, 100);
    const seconds = (Date.now() - killedAt) / 1000;
    // Not while it was live: the last renewal came at most a look (a quarter of the duration, stretched by load) before the kill.
    // At most the duration plus a look after it, with room for the machine's load.
    expect(seconds).to.be.within(DURATION_S * 0.5, DURATION_S * 3);
    await replicas.get('replica-b')!.sb.waitForLog(/took over the status Lease 'sb-replicas-status' from 'replica-a'/);
    expect((await kube.call<LeaseObject>('GET', LEASE)).body.spec.leaseTransitions).to.equal(1);
    const before = (await statusWriters('mcpservers', 'alpha')).length;
    await kube.call('PATCH', `${API}/mcpservers/alpha`, { spec: { suspended: true } }, { contentType: 'application/merge-patch+json' });
    await eventually(
      () => getObject<{ status?: { state?: string; observedGeneration?: number } }>('mcpservers', 'alpha'),
      (o) => o.status?.state === 'stopped',
      15_000,
    );
    const after = (await statusWriters('mcpservers', 'alpha')).slice(before);
    expect(after).to.not.be.empty;
    expect(new Set(after)).to.deep.equal(new Set(['bob']));
    await kube.call('PATCH', `${API}/mcpservers/alpha`, { spec: { suspended: null } }, { contentType: 'application/merge-patch+json' });
  });

  it("a Workflow's status says whether it can run and which tools it misses, as servers come and go", async () => {
    const wf = {
      apiVersion: 'switchboard.dev/v1alpha1',
      kind: 'Workflow',
      metadata: { name: 'needs-beta', namespace: NS },
      spec: {
        steps: [
          { id: 'a', tool: 'x_alpha_ping' },
          { id: 'b', tool: 'x_beta_ping' },
        ],
      },
    };
    expect((await kube.create(wf)).status).to.equal(201);
    type WorkflowObject = { status?: { available?: boolean; missing?: string[]; observedGeneration?: number } };
    const status = () => getObject<WorkflowObject>('workflows', 'needs-beta');
    const missingBeta = await eventually(status, (o) => o.status?.available === false && o.status.missing?.join() === 'x_beta_ping', 20_000);
    expect(missingBeta.status).to.deep.equal({ available: false, missing: ['x_beta_ping'], observedGeneration: 1 });
    expect((await kube.create(server('beta'))).status).to.equal(201);
    const available = await eventually(status, (o) => o.status?.available === true, 20_000);
    expect(available.status).to.deep.equal({ available: true, missing: [], observedGeneration: 1 });
    await kube.call('PATCH', `${API}/mcpservers/beta`, { spec: { suspended: true } }, { contentType: 'application/merge-patch+json' });
    await eventually(status, (o) => o.status?.available === false && o.status.missing?.join() === 'x_beta_ping', 20_000);
    // `kubectl get wf` asks for a Table: the printer columns, filled from status.
    const table = await kube.call<{ columnDefinitions: { name: string }[]; rows: { cells: unknown[]; object: { metadata: { name: string } } }[] }>(
      'GET',
      `${API}/workflows`,
      undefined,
      { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    );
    expect(table.status).to.equal(200);
    const columns = table.body.columnDefinitions.map((c) => c.name);
    expect(columns).to.include.members(['Name', 'Available', 'Missing', 'Age']);
    const row = table.body.rows.find((r) => r.object.metadata.name === 'needs-beta')!;
    expect(row.cells[columns.indexOf('Available')]).to.equal(false);
    expect(String(row.cells[columns.indexOf('Missing')])).to.contain('x_beta_ping');
    expect(new Set(await statusWriters('workflows', 'needs-beta'))).to.deep.equal(new Set(['bob']));
  });

  it('the CRDs declare the printer columns and the Workflow status subresource', async () => {
    const crd = (
      await kube.call<{ spec: { versions: { additionalPrinterColumns: { name: string; jsonPath: string }[]; subresources?: { status?: object } }[] } }>(
        'GET',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/workflows.switchboard.dev',
      )
    ).body;
    const version = crd.spec.versions[0]!;
    expect(version.subresources).to.have.property('status');
    expect(version.additionalPrinterColumns.map((c) => [c.name, c.jsonPath])).to.deep.include.members([
      ['Available', '.status.available'],
      ['Missing', '.status.missing'],
      ['Age', '.metadata.creationTimestamp'],
    ]);
  });

  it('a clean stop releases the Lease: a waiting replica takes it without waiting for it to expire', async () => {
    const a = await start('replica-a');
    await a.sb.waitForLog(/replica 'replica-a' does not hold the status Lease/);
    // Since its second restart request, replica-b saw alpha suspended and resumed (one more start) and listed
    // again many times (watches end every 3-6 s): no restart came of the re-lists.
    expect(await startsOf('replica-b')).to.equal(3);
    await stop('replica-b');
    await eventually(holder, (h) => h === 'replica-a', 15_000, 100);
    await a.sb.waitForLog(/took the status Lease 'sb-replicas-status' \(it was released\)/);
    expect(a.sb.logs()).to.not.match(/took over the status Lease/);
  });

  it('a Lease renewed with a renewTime from a skewed clock is not taken while it is renewed; taken once renewals stop', async () => {
    await stop('replica-a');
    // An intruder holds it, writing renewTimes from a clock years behind: only renewals, never times, count.
    const renew = async () => {
      const lease = (await kube.call<LeaseObject & { metadata: Record<string, unknown> }>('GET', LEASE)).body;
      const r = await kube.call('PUT', LEASE, {
        ...lease,
        spec: { holderIdentity: 'intruder', leaseDurationSeconds: DURATION_S, renewTime: `2001-01-01T00:00:0${renewals % 10}.000000Z`, leaseTransitions: 7 },
      });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      renewals++;
    };
    let renewals = 0;
    await renew();
    const b = await start('replica-b');
    await b.sb.waitForLog(/replica 'replica-b' does not hold the status Lease 'sb-replicas-status' \('intruder' does\)/);
    // Three durations of renewals, every eighth of one (pacing the intruder, not waiting for the replica).
    while (renewals < 24) {
      expect(await holder(), `after ${renewals} renewals`).to.equal('intruder');
      await new Promise((r) => setTimeout(r, (DURATION_S * 1000) / 8));
      await renew();
    }
    const stoppedAt = Date.now();
    await eventually(holder, (h) => h === 'replica-b', 30_000, 100);
    expect((Date.now() - stoppedAt) / 1000).to.be.at.least(DURATION_S * 0.5);
    await b.sb.waitForLog(/took over the status Lease 'sb-replicas-status' from 'intruder'/);
    expect((await kube.call<LeaseObject>('GET', LEASE)).body.spec.leaseTransitions).to.equal(8);
  });
});
