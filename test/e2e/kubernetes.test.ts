/**
 * Orchestrator mode against a real Kubernetes API server: MCP servers and workflows as
 * custom resources, created, changed and deleted with the API calls kubectl makes, and
 * Switchboard following along: tools appear and go, suspension holds across a restart, a
 * restart request is acted on once and mirrored into status, status reports what runs.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  connectHttp,
  eventually,
  freePort,
  makeConfigDir,
  meta,
  ROOT,
  startSwitchboard,
  TEST_SERVER,
  callTool,
  errorCode,
  text,
  CLI,
  type Running,
} from '../support/harness.js';
import { startKubeEnv, type KubeEnv } from '../support/kube-env.js';
import { startKubeFaultProxy, type KubeCall, type KubeFaultProxy } from '../support/kube-fault-proxy.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Socket } from 'node:net';

const NS = 'switchboard';

/** A kubeconfig naming the API server at `port` on this host, with a token it never checks. */
async function kubeconfigAt(dir: string, name: string, port: number): Promise<string> {
  const file = join(dir, name);
  await writeFile(
    file,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:${port}"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n`,
  );
  return file;
}

/** A kubeconfig naming an API server that is not there (a closed port). */
async function downKubeconfig(dir: string): Promise<string> {
  return kubeconfigAt(dir, 'kubeconfig-down', await freePort());
}

const API = `/apis/switchboard.dev/v1alpha1/namespaces/${NS}`;

interface Served {
  status: number | null;
  stderr: string;
  /** From its first "retrying" warning to its exit: the retry, without the start before it. */
  retrySeconds: number;
}

/**
 * `serve` in orchestrator mode with `kubeconfig`, started without waiting for it; `done` once
 * it exited. Never spawnSync in this file: a blocked event loop would hear the default-retry
 * child below end only when it is free again (a 30 s retry measured 40.9 and 44.6 s in CI, the
 * down-server test's spawnSync runs having held the loop 10-15 s).
 */
function serve(dir: string, kubeconfig: string): { child: ChildProcess; done: Promise<Served> } {
  const child = spawn(process.execPath, [CLI, 'serve', '--config-path', dir, '--port', '0'], {
    env: { ...process.env, KUBECONFIG: kubeconfig },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let warnedAt: number | undefined;
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    if (warnedAt === undefined && stderr.includes('retrying for up to')) warnedAt = Date.now();
  });
  const done = new Promise<Served>((resolve) =>
    child.once('close', (status) => resolve({ status, stderr, retrySeconds: (Date.now() - (warnedAt ?? Number.NaN)) / 1000 })),
  );
  return { child, done };
}

/**
 * `serve` against an API server that is not there, with the default start-up retry (about
 * 30 s of waiting): the file starts it first, so that it waits while the other tests run
 * instead of alone at the end of the serial pass. What is measured starts at its first
 * warning, not at the spawn: the start before it (Node, the modules, the Kubernetes client's
 * first attempt) is 1.7 s on a quiet machine, but beside the API server's own start and the
 * paired pass the spawn-to-exit time was 47-49 s twice for a 30 s retry; from the warning the
 * retry ends within 50 ms of it.
 */
async function serveWithApiDown(): Promise<{ child: ChildProcess; done: Promise<Served> }> {
  const dir = await makeConfigDir({ 'config.yaml': `orchestrator: true\nnamespace: ${NS}\n` });
  return serve(dir, await downKubeconfig(dir));
}

interface McpServerObject {
  metadata: { name: string; resourceVersion: string };
  spec: Record<string, unknown>;
  status?: { state?: string; health?: string; tools?: number; lastRestartedAt?: string | null; nextRetryAfter?: string | null };
}

describe('orchestrator mode: MCPServer and Workflow resources on a real API server', function () {
  this.timeout(120_000);
  let kube: KubeEnv;
  let sb: Running | undefined;
  let client: Client | undefined;
  let configDir: string;
  let defaultRetry: Awaited<ReturnType<typeof serveWithApiDown>> | undefined;

  const server = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'switchboard.dev/v1alpha1',
    kind: 'MCPServer',
    metadata: { name },
    spec: { type: 'stdio', command: [process.execPath, TEST_SERVER, 'stdio', '--name', name], autoStart: true, ...extra },
  });
  const patchSpec = (name: string, spec: Record<string, unknown>) =>
    kube.call('PATCH', `${API}/mcpservers/${name}`, { spec }, { contentType: 'application/merge-patch+json' });
  const getServer = async (name: string) => (await kube.call<McpServerObject>('GET', `${API}/mcpservers/${name}`)).body;
  const toolNames = async () => (await meta<{ tools: { name: string }[] }>(client!, 'list_tools', { limit: 500 })).tools.map((t) => t.name);
  const start = async (kubeconfig?: string, dir = configDir) => {
    sb = await startSwitchboard({}, { configDir: dir, env: { KUBECONFIG: kubeconfig ?? (await kube.kubeconfig(kube.tokens.admin)) } });
    client = await connectHttp(sb.url);
  };
  const stop = async () => {
    await client?.close().catch(() => undefined);
    await sb?.stop();
    client = undefined;
    sb = undefined;
  };

  before(async function () {
    this.timeout(15 * 60_000); // the first run builds kube-apiserver from source (cached afterwards)
    defaultRetry = await serveWithApiDown();
    kube = await startKubeEnv();
    for (const doc of parseAllDocuments(await readFile(join(ROOT, 'deploy/crds.yaml'), 'utf8'))) {
      const r = await kube.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', doc.toJSON());
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
    }
    await kube.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    await eventually(
      () => kube.call('GET', `${API}/mcpservers`),
      (r) => r.status === 200,
      20_000,
    );
    configDir = await makeConfigDir({ 'config.yaml': `orchestrator: true\nnamespace: ${NS}\n` });
    await start();
  });

  after(async () => {
    // Still running only when its test was not (--grep).
    if (defaultRetry?.child.exitCode === null) defaultRetry.child.kill();
    await stop();
    await kube?.stop();
  });

  it('an MCPServer created through the API brings its tools; status reports it running', async () => {
    const r = await kube.call('POST', `${API}/mcpservers`, server('alpha'));
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    await eventually(toolNames, (t) => t.includes('x_alpha_ping'), 15_000);
    expect(text(await callTool(client!, 'x_alpha_ping'))).to.match(/^pong from alpha/);
    const observed = await eventually(
      () => getServer('alpha'),
      (o) => o.status?.state === 'running' && (o.status.tools ?? 0) > 0,
      10_000,
    );
    expect(observed.status).to.include({ state: 'running', health: 'healthy' });
    const listed = await meta<{ mode: string; mcpServers: { name: string }[] }>(client!, 'call_tool', { name: 'core_mcpserver_list', arguments: {} });
    expect(listed.mode).to.equal('kubernetes');
    expect(listed.mcpServers.map((s) => s.name)).to.include('alpha');
  });

  it('a Workflow resource becomes workflow_<name>', async () => {
    const wf = {
      apiVersion: 'switchboard.dev/v1alpha1',
      kind: 'Workflow',
      metadata: { name: 'twice' },
      spec: {
        description: 'Ping alpha twice.',
        steps: [
          { id: 'a', tool: 'x_alpha_ping' },
          { id: 'b', tool: 'x_alpha_ping' },
        ],
      },
    };
    const r = await kube.call('POST', `${API}/workflows`, wf);
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    await eventually(toolNames, (t) => t.includes('workflow_twice'), 15_000);
    const run = await callTool(client!, 'workflow_twice');
    expect(run.isError, text(run)).to.not.equal(true);
  });

  it('with the workflows plugin off, Workflow resources are ignored with a warning naming each one and the plugin', async () => {
    // 'twice' exists from the test above; a second Switchboard that keeps no workflows.
    const dir = await makeConfigDir({ 'config.yaml': `orchestrator: true\nnamespace: ${NS}\nplugins:\n  workflows: false\n` });
    const other = await startSwitchboard({}, { configDir: dir, env: { KUBECONFIG: await kube.kubeconfig(kube.tokens.admin) } });
    try {
      await other.waitForLog(
        /Workflow switchboard\/twice is ignored: no plugin that is on keeps Workflow resources; config\.yaml switches off the plugin 'workflows'/,
      );
      expect(other.logs().match(/Workflow switchboard\/twice is ignored/g)).to.have.length(1);
      expect(other.logs()).to.not.match(/MCPServer \S+ is ignored/);
    } finally {
      await other.stop();
    }
  });

  it('restartRequestedAt restarts once and is mirrored into status.lastRestartedAt', async () => {
    const pidOf = async () =>
      (await meta<{ metadata: { pid?: number } }>(client!, 'call_tool', { name: 'core_service_status', arguments: { name: 'alpha' } })).metadata.pid;
    const before = await pidOf();
    const at = new Date().toISOString();
    await patchSpec('alpha', { restartRequestedAt: at });
    const observed = await eventually(
      () => getServer('alpha'),
      (o) => o.status?.lastRestartedAt === at && o.status.state === 'running',
      15_000,
    );
    expect(observed.status!.lastRestartedAt).to.equal(at);
    const after = await eventually(pidOf, (p) => p !== undefined && p !== before, 10_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await pidOf(), 'restarted exactly once').to.equal(after);
  });

  it('suspended: the tools go and stay gone across a Switchboard restart; core_service_start resumes it', async () => {
    await patchSpec('alpha', { suspended: true });
    await eventually(toolNames, (t) => !t.includes('x_alpha_ping'), 15_000);
    await eventually(
      () => getServer('alpha'),
      (o) => o.status?.state === 'stopped',
      10_000,
    );
    await stop();
    await start();
    await new Promise((r) => setTimeout(r, 1500));
    expect(await toolNames()).to.not.include('x_alpha_ping');
    const started = await meta<{ written: Record<string, unknown> }>(client!, 'call_tool', { name: 'core_service_start', arguments: { name: 'alpha' } });
    expect(started.written).to.deep.equal({ suspended: false });
    expect((await getServer('alpha')).spec.suspended).to.equal(undefined);
    await eventually(toolNames, (t) => t.includes('x_alpha_ping'), 15_000);
  });

  it('core_service_stop and core_service_restart write the spec; the reconciler acts', async () => {
    const stopped = await meta<{ written: Record<string, unknown> }>(client!, 'call_tool', { name: 'core_service_stop', arguments: { name: 'alpha' } });
    expect(stopped.written).to.deep.equal({ suspended: true });
    expect((await getServer('alpha')).spec.suspended).to.equal(true);
    await eventually(toolNames, (t) => !t.includes('x_alpha_ping'), 15_000);
    await meta(client!, 'call_tool', { name: 'core_service_start', arguments: { name: 'alpha' } });
    await eventually(toolNames, (t) => t.includes('x_alpha_ping'), 15_000);
    const restarted = await meta<{ written: { restartRequestedAt: string } }>(client!, 'call_tool', {
      name: 'core_service_restart',
      arguments: { name: 'alpha' },
    });
    expect((await getServer('alpha')).spec.restartRequestedAt).to.equal(restarted.written.restartRequestedAt);
    await eventually(
      () => getServer('alpha'),
      (o) => o.status?.lastRestartedAt === restarted.written.restartRequestedAt,
      15_000,
    );
  });

  it('an edit of the spec reconfigures only that server', async () => {
    await patchSpec('alpha', { toolPrefix: 'renamed' });
    await eventually(toolNames, (t) => t.includes('x_renamed_ping') && !t.includes('x_alpha_ping'), 15_000);
    await patchSpec('alpha', { toolPrefix: null });
    await eventually(toolNames, (t) => t.includes('x_alpha_ping'), 15_000);
  });

  it('a server that cannot be reached: status says so, with the error and the next retry', async () => {
    const r = await kube.call('POST', `${API}/mcpservers`, {
      apiVersion: 'switchboard.dev/v1alpha1',
      kind: 'MCPServer',
      metadata: { name: 'down' },
      spec: { type: 'streamable-http', url: 'http://127.0.0.1:9/mcp' },
    });
    expect(r.status).to.equal(201);
    const observed = await eventually(
      () => getServer('down'),
      (o) => (o.status?.state === 'failed' || o.status?.state === 'unreachable') && !!o.status.nextRetryAfter,
      15_000,
    );
    expect(observed.status).to.include({ health: 'unhealthy' });
    expect((observed.status as { lastError?: string }).lastError)
      .to.be.a('string')
      .and.not.equal('');
    expect(Date.parse(observed.status!.nextRetryAfter!)).to.be.greaterThan(Date.now() - 60_000);
    await kube.call('DELETE', `${API}/mcpservers/down`);
  });

  it('deleting the resource removes the server and its tools', async () => {
    const r = await kube.call('DELETE', `${API}/mcpservers/alpha`);
    expect(r.status).to.equal(200);
    await eventually(toolNames, (t) => !t.includes('x_alpha_ping'), 15_000);
    const listed = await meta<{ mcpServers: { name: string }[] }>(client!, 'call_tool', { name: 'core_mcpserver_list', arguments: {} });
    expect(listed.mcpServers.map((s) => s.name)).to.not.include('alpha');
  });

  it('core_mcpserver_create writes an MCPServer resource', async () => {
    const created = await meta<{ name: string }>(client!, 'call_tool', {
      name: 'core_mcpserver_create',
      arguments: { name: 'beta', type: 'stdio', command: [process.execPath, TEST_SERVER, 'stdio', '--name', 'beta'], autoStart: true },
    });
    expect(created.name).to.equal('beta');
    const obj = await getServer('beta');
    expect(obj.spec).to.include({ type: 'stdio', autoStart: true });
    await eventually(toolNames, (t) => t.includes('x_beta_ping'), 15_000);
  });

  it('start-up with the API server down, refusing it or never answering retries, then exits naming why (no fallback to files)', async () => {
    // One configuration directory each: the three run at once.
    const configured = () =>
      makeConfigDir({
        'config.yaml': `orchestrator: true\nnamespace: ${NS}\nplugins:\n  store-kubernetes:\n    options:\n      startupRetrySeconds: 2\n`,
      });
    const dirs = [await configured(), await configured(), await configured()] as const;
    // Takes the connection and never says a word, as a load balancer with no backend does.
    const held: Socket[] = [];
    const silent = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const silentPort = (silent.address() as { port: number }).port;
      const cases = [
        { dir: dirs[0], kubeconfig: await downKubeconfig(dirs[0]), reason: 'ECONNREFUSED' },
        { dir: dirs[1], kubeconfig: await kube.kubeconfig('not-a-valid-token'), reason: 'Unauthorized' },
        { dir: dirs[2], kubeconfig: await kubeconfigAt(dirs[2], 'kubeconfig-silent', silentPort), reason: 'did not answer' },
      ];
      // The three at once: each waits out its own 2 s, and none depends on another.
      const ended = await Promise.all(
        cases.map(async ({ dir, kubeconfig, reason }) => {
          const started = Date.now();
          const r = await serve(dir, kubeconfig).done;
          return { reason, r, took: Date.now() - started };
        }),
      );
      for (const { reason, r, took } of ended) {
        expect(r.status, r.stderr).to.equal(1);
        expect(took).to.be.greaterThan(1900);
        // A silent server holds each attempt to what is left of the 2 s, not to a request's 15 s:
        // read in the reason, which names the attempt's own deadline (the wall time of a start
        // beside other work is no measure of it: 13.9 s once in the paired pass).
        if (reason === 'did not answer') expect(Number(/did not answer in ([\d.]+) s/.exec(r.stderr)?.[1]), r.stderr).to.be.at.most(2);
        expect(r.stderr)
          .to.contain('the Kubernetes API server cannot be used')
          .and.contain('retried for 2 s; there is no fallback to files')
          .and.contain(reason);
        expect(r.stderr).to.not.contain('listening');
      }
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    }
  });

  describe('through an API server that refuses one call of a kind', () => {
    const refusedWatch = (call: KubeCall) => call.method === 'GET' && call.path.includes('/mcpservers?') && call.path.includes('watch=true');
    // The write that reports 'running' is the last one a quiet server causes: refused once, only a retry can land it.
    const refusedStatus = (call: KubeCall) =>
      call.method === 'PATCH' && call.path.endsWith('/mcpservers/steady/status') && call.body.includes('"state":"running"');
    const refusedCreate = (call: KubeCall) => call.method === 'POST' && call.path.endsWith('/mcpservers') && call.body.includes('"name":"retried"');
    const LEASE = `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/switchboard-status`;
    const renewal = (call: KubeCall) => call.method === 'PUT' && call.path === LEASE;
    let proxy: KubeFaultProxy;
    /** How many more watches of mcpservers, and how many more writes of the status Lease, to refuse. */
    let watchesToRefuse = 1;
    let renewalsToRefuse = 0;
    /** Every status write that reached the proxy, refused or not. */
    const statusWrites: KubeCall[] = [];

    before(async () => {
      proxy = await startKubeFaultProxy(kube, (call) => {
        if (call.method === 'PATCH' && call.path.endsWith('/status')) statusWrites.push(call);
        if (refusedWatch(call) && watchesToRefuse > 0) {
          watchesToRefuse--;
          return true;
        }
        if (renewal(call) && renewalsToRefuse > 0) {
          renewalsToRefuse--;
          return true;
        }
        if (refusedCreate(call)) return !proxy.refused.some(refusedCreate);
        return refusedStatus(call) && !proxy.refused.some(refusedStatus);
      });
      await stop();
      // A 4 s Lease, renewed every second: its faults play out in seconds.
      const dir = await makeConfigDir({
        'config.yaml': `orchestrator: true\nnamespace: ${NS}\nplugins:\n  store-kubernetes:\n    options:\n      watchTimeoutSeconds: 2\n      statusLease: { name: switchboard-status, durationSeconds: 4 }\n`,
      });
      await start(await proxy.kubeconfig(dir, kube.tokens.admin), dir);
    });

    // Mocha runs a suite's own tests before its nested suites: only the start-up retry's suite
    // runs after these, and it uses no Switchboard of this file's, so the proxied Switchboard is
    // not swapped back for the plain one.
    after(async () => {
      await stop();
      await proxy.close();
      for (const name of ['late', 'aftercuts', 'afterhold', 'afterexpiry', 'steady', 'leaderless', 'retried'])
        await kube.call('DELETE', `${API}/mcpservers/${name}`);
    });

    it('a watch refused at start-up is started again: Switchboard serves, and a resource created after it brings its tools', async () => {
      expect(proxy.refused.filter(refusedWatch)).to.have.length(1);
      expect(sb!.logs()).to.match(/watching mcpservers ended: .*; watching again/);
      const r = await kube.call('POST', `${API}/mcpservers`, server('late'));
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      await eventually(toolNames, (t) => t.includes('x_late_ping'), 15_000);
    });

    it('a watch that ends and is refused when started again is started once more: the replica lives on and follows changes', async () => {
      watchesToRefuse = 1;
      proxy.endWatches();
      await eventually(
        async () => proxy.refused.filter(refusedWatch).length,
        (n) => n === 2,
        15_000,
      );
      expect((await kube.call('DELETE', `${API}/mcpservers/late`)).status).to.equal(200);
      await eventually(toolNames, (t) => !t.includes('x_late_ping'), 15_000);
      expect(sb!.proc.exitCode).to.equal(null);
    });

    it('watches cut as soon as they start are started again once a second, not as fast as the server answers', async () => {
      proxy.cutWatches(true);
      try {
        const from = proxy.cut.length;
        const startedAt = Date.now();
        proxy.endWatches();
        // Two kinds are watched (MCPServers, Workflows): six cuts are three of one kind at least,
        // two waits of a second between them. A loop without the wait made them in milliseconds.
        await eventually(
          async () => proxy.cut.length - from,
          (n) => n >= 6,
          20_000,
        );
        expect(Date.now() - startedAt).to.be.at.least(2000);
      } finally {
        proxy.cutWatches(false);
      }
      // Once the streams stay open again, changes arrive.
      expect((await kube.call('POST', `${API}/mcpservers`, server('aftercuts'))).status).to.equal(201);
      await eventually(toolNames, (t) => t.includes('x_aftercuts_ping'), 15_000);
    });

    it('a watch that gets no answer is given up after its deadline and sent again; changes arrive once answers do', async () => {
      // This Switchboard asks for 2 s watches: one unanswered 3 s after it was sent is taken for a dead connection.
      const mcpWatch = (call: KubeCall) => call.path.includes('/mcpservers?');
      proxy.holdWatches(true);
      try {
        const from = proxy.held.filter(mcpWatch).length;
        proxy.endWatches();
        await eventually(
          async () => proxy.held.filter(mcpWatch).length - from,
          (n) => n >= 2,
          20_000,
        );
      } finally {
        proxy.holdWatches(false);
      }
      expect(sb!.logs()).to.match(
        /watching mcpservers ended: the API server did not end the watch of mcpservers 3 s after it began \(asked for 2 s\): taken for a dead connection/,
      );
      expect((await kube.call('POST', `${API}/mcpservers`, server('afterhold'))).status).to.equal(201);
      await eventually(toolNames, (t) => t.includes('x_afterhold_ping'), 15_000);
    });

    it('a watch the server ends with an ERROR event (410: the version is too old) is listed and watched again', async () => {
      const from = proxy.expired.length;
      proxy.expireWatches(1);
      proxy.endWatches();
      await eventually(
        async () => proxy.expired.length - from,
        (n) => n === 1,
        15_000,
      );
      await sb!.waitForLog(/watching \w+ ended: too old resource version \(expired by the test\); watching again/);
      expect((await kube.call('POST', `${API}/mcpservers`, server('afterexpiry'))).status).to.equal(201);
      await eventually(toolNames, (t) => t.includes('x_afterexpiry_ping'), 15_000);
    });

    it('a status write the API server refuses is tried again on its own, with nothing else changing', async () => {
      expect((await kube.call('POST', `${API}/mcpservers`, server('steady'))).status).to.equal(201);
      await eventually(
        async () => proxy.refused.filter(refusedStatus).length,
        (n) => n === 1,
        15_000,
      );
      const observed = await eventually(
        () => getServer('steady'),
        (o) => o.status?.state === 'running',
        15_000,
      );
      expect(observed.status).to.include({ health: 'healthy' });
      expect(sb!.logs()).to.contain("writing the status of MCPServer 'steady' failed").and.contain('refused by the test');
      await kube.call('DELETE', `${API}/mcpservers/steady`);
    });

    it('a write the API server cannot take now is refused as one to retry, naming what and why; tried again, it is written', async () => {
      const args = { name: 'retried', type: 'stdio', command: [process.execPath, TEST_SERVER, 'stdio', '--name', 'retried'], autoStart: true };
      const first = await callTool(client!, 'core_mcpserver_create', args);
      expect(errorCode(first), text(first)).to.equal('SHARED_STATE_UNAVAILABLE');
      expect(text(first))
        .to.contain("writing MCPServer 'retried'")
        .and.contain('the Kubernetes API server answered 500: refused by the test')
        .and.contain('retry shortly');
      expect((await kube.call('GET', `${API}/mcpservers/retried`)).status).to.equal(404);
      const created = await meta<{ name: string }>(client!, 'call_tool', { name: 'core_mcpserver_create', arguments: args });
      expect(created.name).to.equal('retried');
      await eventually(toolNames, (t) => t.includes('x_retried_ping'), 15_000);
    });

    it('a Lease renewal the API server refuses once changes nothing: the holder goes on writing status and renews at its next look', async () => {
      await sb!.waitForLog(/holds the status Lease 'switchboard-status'/);
      renewalsToRefuse = 1;
      await eventually(
        async () => proxy.refused.filter(renewal).length,
        (n) => n === 1,
        15_000,
      );
      const refusedAt = Date.now();
      await eventually(
        async () => Date.parse((await kube.call<{ spec: { renewTime: string } }>('GET', LEASE)).body.spec.renewTime),
        (renewed) => renewed > refusedAt,
        15_000,
      );
      // A Lease nobody may take before its duration is out is still this replica's: no hand-over, no second writing of every status.
      expect(sb!.logs()).to.match(/status Lease 'switchboard\/switchboard-status': refused by the test/);
      expect(sb!.logs()).not.to.match(/does not hold the status Lease|could not renew the status Lease/);
    });

    it('Lease renewals refused past its duration: the holder stops writing status, says why, and writes every status again once a renewal lands', async () => {
      renewalsToRefuse = Number.POSITIVE_INFINITY;
      await sb!.waitForLog(/could not renew the status Lease 'switchboard-status' in time: it stops writing status/, 15_000);
      const lapsedAt = statusWrites.length;
      expect((await kube.call('POST', `${API}/mcpservers`, server('leaderless'))).status).to.equal(201);
      await eventually(toolNames, (t) => t.includes('x_leaderless_ping'), 15_000);
      const statusOf = async () => (await getServer('leaderless')).status;
      expect(await statusOf(), 'written while the Lease was not renewed').to.equal(undefined);
      renewalsToRefuse = 0;
      const observed = await eventually(statusOf, (st) => st?.state === 'running', 15_000);
      expect(observed).to.include({ health: 'healthy' });
      expect(statusWrites.slice(lapsedAt).filter((w) => w.path.includes('/leaderless/'))).to.have.length.of.at.least(1);
      expect(sb!.logs().match(/holds the status Lease 'switchboard-status'/g)).to.have.length(2);
    });
  });

  // Last in the file: the 30 s it waits out, from the before hook on, pass while everything else runs.
  describe('the default start-up retry, started before everything else', () => {
    it('by default start-up retries for about 30 s before it gives up', async function () {
      this.timeout(90_000);
      const r = await defaultRetry!.done;
      expect(r.status, r.stderr).to.equal(1);
      // The first attempt fails before the warning; the deadline is 30 s after it.
      expect(r.retrySeconds, r.stderr).to.be.within(27, 40);
      expect(r.stderr).to.contain('retrying for up to 30 s').and.contain('retried for 30 s; there is no fallback to files');
    });
  });
});
