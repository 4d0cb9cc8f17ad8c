/**
 * store-kubernetes: orchestrator mode (`orchestrator: true`). MCP servers and workflows are
 * custom resources (MCPServer, Workflow; group switchboard.dev) in `namespace`, watched and
 * reconciled like files are in store-files; the replica holding the status Lease writes what
 * it observes to each MCPServer's and Workflow's status; an auth plugin's grants are kept as Secrets. Start-up needs the API server: unreachable, it is retried for
 * `startupRetrySeconds`, then start-up fails (there is no fallback to files).
 */
import { definePlugin, switchedOffClause } from '../../kernel/index.js';
import type { KubeApi } from './kube-api.js';

/** The longest one start-up attempt waits for an answer. */
const ATTEMPT_TIMEOUT_MS = 15_000;

async function connect(namespace: string, retryMs: number, onRetry: (message: string) => void): Promise<KubeApi> {
  const { KubeApi } = await import('./kube-api.js');
  const deadline = Date.now() + retryMs;
  let said = false;
  for (;;) {
    try {
      const api = KubeApi.fromEnvironment(namespace);
      // Proves the server, the credentials and the CRDs at once. An API server that takes the
      // connection and never answers (a load balancer with no backend) must not carry start-up
      // past its deadline: the attempt gets what is left of it, at least a second.
      const timeoutMs = Math.min(ATTEMPT_TIMEOUT_MS, Math.max(1000, deadline - Date.now()));
      if ((await api.groupKinds(timeoutMs)).length === 0)
        throw new Error(`no custom resource definitions of the group are installed (install the chart's CRDs)`);
      return api;
    } catch (err) {
      const reason = (err as Error).message;
      if (Date.now() >= deadline)
        throw new Error(
          `orchestrator mode: the Kubernetes API server cannot be used: ${reason} (retried for ${Math.round(retryMs / 1000)} s; there is no fallback to files)`,
          { cause: err },
        );
      if (!said) onRetry(`the Kubernetes API server cannot be used yet (${reason}); retrying for up to ${Math.round(retryMs / 1000)} s`);
      said = true;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

interface Options {
  startupRetrySeconds: number;
  watchTimeoutSeconds: number;
  statusLease: { name: string; durationSeconds: number };
}

export default definePlugin<Options>({
  name: 'store-kubernetes',
  description: 'Keeps MCP servers and workflows as Kubernetes custom resources (orchestrator mode) and writes their status.',
  provides: ['store', 'grant-store', 'orchestrator-secrets'],
  claims: ['orchestrator'],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      startupRetrySeconds: { type: 'number', minimum: 0, default: 30, description: 'How long start-up retries an API server it cannot use before it fails.' },
      watchTimeoutSeconds: {
        type: 'integer',
        minimum: 1,
        maximum: 3600,
        // As client-go's reflectors (5-10 minutes); the API server's own default is 30-60.
        default: 300,
        description:
          'How long the API server is asked to run each watch before it ends it (Switchboard then lists and watches again). A watch not ended half as long again after that (1-30 s more) is taken for a dead connection and replaced.',
      },
      statusLease: {
        type: 'object',
        additionalProperties: false,
        default: {},
        description: 'The coordination.k8s.io Lease that elects the one replica writing status (docs/kubernetes.md).',
        properties: {
          name: {
            type: 'string',
            // A DNS-1123 subdomain: what the API server accepts as a Lease name.
            pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$',
            maxLength: 253,
            default: 'switchboard-status',
            description: "The Lease's name in `namespace`; the chart sets `<release>-status`. Every replica of one deployment uses the same.",
          },
          durationSeconds: {
            type: 'integer',
            minimum: 2,
            maximum: 300,
            default: 15,
            description: 'How long a Lease not renewed stays with its holder; another replica takes it over after that. Renewed every quarter of it.',
          },
        },
      },
    },
  },
  async setup({ kernel, options, log }) {
    kernel.surfaces.claim('orchestrator');
    if (!kernel.settings().orchestrator) return;
    const namespace = kernel.settings().namespace;
    // Loaded only in orchestrator mode: a file-mode Switchboard never pays for the Kubernetes client.
    const [{ KubeStore }, { StatusWriter }, { SecretGrantStore }, { StatusLease, replicaIdentity }] = await Promise.all([
      import('./kube-store.js'),
      import('./status-writer.js'),
      import('./secret-grants.js'),
      import('./status-lease.js'),
    ]);
    const api = await connect(namespace, options.startupRetrySeconds * 1000, (m) => log.warn(m));
    const store = new KubeStore(
      api,
      kernel.config.configPath,
      () => kernel.config.kinds(),
      (m) => log.warn(m),
      (where, kind) => log.warn(`${where} is ignored: no plugin that is on keeps ${kind} resources${switchedOffClause(kernel.settings().plugins)}`),
      options.watchTimeoutSeconds,
    );
    kernel.services.provide('store', store);
    // What an auth plugin issues, kept as Secrets (the files of store-files have no place in a pod);
    // in cluster mode Redis keeps them (cluster-redis provides grant-store).
    const grants = kernel.settings().aggregator.cluster ? undefined : new SecretGrantStore(api, (m) => log.warn(m));
    if (grants) kernel.services.provide('grant-store', grants);
    kernel.services.provide('orchestrator-secrets', {
      async read(name, ns = namespace) {
        const secret = await api
          .request<{ data?: Record<string, string> }>('GET', `/api/v1/namespaces/${encodeURIComponent(ns)}/secrets/${encodeURIComponent(name)}`)
          .catch((err: unknown) => {
            throw new Error(`the secret '${ns}/${name}' cannot be read: ${(err as Error).message}`);
          });
        return Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
      },
    });
    // Always elected, also with one replica: a rolling update runs two for a while, and a single replica takes a free Lease at once.
    const identity = replicaIdentity();
    const status = new StatusWriter(kernel, api, log, {
      generationOf: (plural, name) => store.generationOf(plural, name),
      mayWrite: () => lease.leading(),
    });
    const lease = new StatusLease(api, { ...options.statusLease, identity }, log, (now) => {
      if (now.leading) status.rewriteAll();
      if (now.leading) log.info(`replica '${identity}' holds the status Lease '${options.statusLease.name}': it writes MCPServer and Workflow status`);
      // Still named the holder, but not renewed in time: another replica may take it over from now on.
      else if (now.holder === identity)
        log.warn(
          `replica '${identity}' could not renew the status Lease '${options.statusLease.name}' in time: it stops writing status until it renews it, or another replica takes it over`,
        );
      else
        log.info(
          `replica '${identity}' does not hold the status Lease '${options.statusLease.name}'${now.holder ? ` ('${now.holder}' does)` : ''}: it leaves status to the holder`,
        );
    });
    status.attach();
    log.info(`orchestrator mode: MCPServer and Workflow resources in namespace '${namespace}'`);
    return {
      // Before the auth plugin starts (store plugins start first): it reads what it issued.
      start: async () => {
        await grants?.open();
        lease.start();
      },
      stop: async () => {
        status.close();
        await lease.stop();
        grants?.close();
        await store.close();
      },
    };
  },
});
