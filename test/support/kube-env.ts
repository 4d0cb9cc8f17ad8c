/**
 * A real Kubernetes API server for a test suite (scripts/kube-test-env.sh: kube-apiserver
 * built from source once and cached, etcd from Debian), and plain REST calls to it with a
 * chosen identity, the way kubectl would make them.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, ROOT } from './harness.js';

const run = promisify(execFile);
const SCRIPT = join(ROOT, 'scripts/kube-test-env.sh');

interface AuditEntry {
  verb: string;
  user: { username: string };
  objectRef: { resource: string; name?: string; subresource?: string };
}

export interface KubeEnv {
  server: string;
  ca: string;
  tokens: { admin: string; controller: string; alice: string; bob: string };
  /** A kubeconfig file that authenticates with `token` (namespace `switchboard`). */
  kubeconfig(token: string): Promise<string>;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the body's shape it expects
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    options?: { token?: string; contentType?: string; accept?: string },
  ): Promise<{ status: number; body: T }>;
  /** The API server's audit log entries (writes of switchboard.dev resources). */
  audit(): Promise<AuditEntry[]>;
  /** Creates one object of any kind (what `kubectl create -f` does with one document). */
  create(
    doc: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } },
    token?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  stop(): Promise<void>;
}

/** The path a kind's objects are created at: /api/v1 or /apis/<group>/<version>, namespaced or not, lowercase plural. */
function collectionPath(doc: { apiVersion: string; kind: string; metadata: { namespace?: string } }): string {
  const base = doc.apiVersion === 'v1' ? '/api/v1' : `/apis/${doc.apiVersion}`;
  const plural = `${doc.kind.toLowerCase()}s`;
  return doc.metadata.namespace ? `${base}/namespaces/${doc.metadata.namespace}/${plural}` : `${base}/${plural}`;
}

/** The helm binary (built from source through the Go proxy once, then cached). */
export async function helmBinary(): Promise<string> {
  return (await run(SCRIPT, ['helm'])).stdout.trim();
}

/**
 * `oidc`: the API server also accepts ID tokens of this issuer, for this client id (writes as the caller).
 * `watchSeconds`: it ends every watch after 1 to 2 times this (its --min-request-timeout), so clients list and watch again often.
 */
export async function startKubeEnv(oidc?: { issuer: string; clientId: string; caFile: string }, options: { watchSeconds?: number } = {}): Promise<KubeEnv> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-kube-'));
  const startEnv = {
    ...process.env,
    KUBE_ETCD_PORT: String(await freePort()),
    KUBE_PEER_PORT: String(await freePort()),
    KUBE_API_PORT: String(await freePort()),
    ...(oidc ? { KUBE_OIDC_ISSUER_URL: oidc.issuer, KUBE_OIDC_CLIENT_ID: oidc.clientId, KUBE_OIDC_CA_FILE: oidc.caFile } : {}),
    ...(options.watchSeconds ? { KUBE_MIN_REQUEST_TIMEOUT: String(options.watchSeconds) } : {}),
  };
  await run(SCRIPT, ['start', dir], { maxBuffer: 16 * 1024 * 1024, env: startEnv });
  const env = Object.fromEntries(
    (await readFile(join(dir, 'env'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => l.split('=', 2) as [string, string]),
  );
  const ca = await readFile(env.KUBE_CA!, 'utf8');
  const tokens = { admin: env.KUBE_ADMIN_TOKEN!, controller: env.KUBE_CONTROLLER_TOKEN!, alice: env.KUBE_ALICE_TOKEN!, bob: env.KUBE_BOB_TOKEN! };
  const server = env.KUBE_SERVER!;
  let n = 0;
  const env_: KubeEnv = {
    server,
    ca,
    tokens,
    async kubeconfig(token) {
      const file = join(dir, `kubeconfig-${n++}`);
      await writeFile(
        file,
        `apiVersion: v1\nkind: Config\nclusters: [{name: test, cluster: {server: "${server}", certificate-authority: "${env.KUBE_CA}"}}]\nusers: [{name: u, user: {token: "${token}"}}]\ncontexts: [{name: test, context: {cluster: test, user: u, namespace: switchboard}}]\ncurrent-context: test\n`,
      );
      return file;
    },
    call(method, path, body, options = {}) {
      const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const req = request(
          new URL(path, server),
          {
            method,
            ca,
            headers: {
              authorization: `Bearer ${options.token ?? tokens.admin}`,
              accept: options.accept ?? 'application/json',
              ...(payload !== undefined ? { 'content-type': options.contentType ?? 'application/json' } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              // A path not served yet (a CRD just created) answers plain text: `404 page not found`.
              let body: unknown;
              try {
                body = text ? JSON.parse(text) : {};
              } catch {
                body = { message: text };
              }
              resolve({ status: res.statusCode ?? 0, body: body as never });
            });
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    },
    async audit() {
      const text = await readFile(join(dir, 'audit.log'), 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as AuditEntry);
    },
    create(doc, token) {
      return env_.call('POST', collectionPath(doc), doc, token ? { token } : {});
    },
    async stop() {
      await run(SCRIPT, ['stop', dir]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return env_;
}
