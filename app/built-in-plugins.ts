/**
 * The plugins Switchboard ships, on unless `plugins.<name>: false` (or opt-in, off unless
 * turned on). This list is the application: the kernel knows none of them. Their setup order
 * follows from what each declares it provides and needs (kernel/plugin-order.ts); where
 * nothing constrains two plugins, they keep the order listed here.
 *
 * The plugins on by default are imported with this list: every start sets them up, and each
 * dynamic import is a place where the build's bundle splits, so behind one import each they
 * made a start load 87 files of the bundle instead of 47 (40-90 ms more CPU, about a tenth of a
 * start; docs/decisions.md, "The program bundled at build"). What one of them needs only once
 * it is used (the OAuth server, cluster mode, orchestrator mode, an embedder, metrics'
 * exporter) stays behind its own import inside it. The opt-in plugins, and workflows with its
 * template engine, load only when on; a new plugin that brings much code of its own for a
 * feature few turn on belongs with them.
 */
import type { PluginModule } from '../kernel/plugin.js';
import * as storeFiles from '../plugins/store-files/index.js';
import * as storeKubernetes from '../plugins/store-kubernetes/index.js';
import * as clusterRedis from '../plugins/cluster-redis/index.js';
import * as events from '../plugins/events/index.js';
import * as authServer from '../plugins/auth-server/index.js';
import * as authorization from '../plugins/authorization/index.js';
import * as httpServer from '../plugins/http-server/index.js';
import * as authClient from '../plugins/auth-client/index.js';
import * as upstreams from '../plugins/upstreams/index.js';
import * as coreTools from '../plugins/core-tools/index.js';
import * as tasks from '../plugins/tasks/index.js';
import * as limits from '../plugins/limits/index.js';
import * as metricsOtel from '../plugins/metrics-otel/index.js';
import * as clientConfig from './client-config-plugin.js';
import * as adminUi from '../plugins/admin-ui/index.js';
import * as toolsets from '../plugins/toolsets/index.js';
import * as embedderOpenai from '../plugins/embedder-openai/index.js';
import * as embedderStatic from '../plugins/embedder-static/index.js';
import * as metaTools from '../plugins/meta-tools/index.js';
import * as transportStreamableHttp from '../plugins/transport-streamable-http/index.js';
import * as transportSse from '../plugins/transport-sse/index.js';
import * as transportStdio from '../plugins/transport-stdio/index.js';

/** A plugin module imported above, in the shape of a lazy one. */
const loaded =
  (module: Awaited<ReturnType<PluginModule['load']>>): PluginModule['load'] =>
  () =>
    Promise.resolve(module);

export const BUILT_IN_PLUGINS: readonly PluginModule[] = [
  { name: 'store-files', load: loaded(storeFiles) },
  // Orchestrator mode's store (it does nothing unless `orchestrator: true`, when store-files steps aside).
  { name: 'store-kubernetes', load: loaded(storeKubernetes) },
  // Cluster mode's shared state (it does nothing unless `aggregator.cluster` is set): before the plugins that keep state.
  { name: 'cluster-redis', load: loaded(clusterRedis) },
  // Early: the log must be open before the first events (servers starting) are recorded.
  { name: 'events', load: loaded(events) },
  { name: 'auth-server', load: loaded(authServer) },
  // A policy plugin (opt-in); the built-in roles step aside for it.
  { name: 'authorization-cedar', load: () => import('../plugins/authorization-cedar/index.js'), optIn: true },
  { name: 'authorization', load: loaded(authorization) },
  { name: 'http-server', load: loaded(httpServer) },
  { name: 'auth-client', load: loaded(authClient) },
  { name: 'upstreams', load: loaded(upstreams) },
  { name: 'core-tools', load: loaded(coreTools) },
  // Behind its import: with workflows off, none of the template engine loads (test/e2e/startup-modules).
  { name: 'workflows', load: () => import('../plugins/workflows/index.js') },
  // After workflows: a workflow's task left running by a restart ends as its execution record says.
  { name: 'tasks', load: loaded(tasks) },
  { name: 'limits', load: loaded(limits) },
  { name: 'metrics-otel', load: loaded(metricsOtel) },
  // The import command's reader as a service, for the admin UI's paste form.
  { name: 'client-config', load: loaded(clientConfig) },
  { name: 'admin-ui', load: loaded(adminUi) },
  { name: 'toolsets', load: loaded(toolsets) },
  // Semantic search's models (each does nothing unless its `embedder.*` setting is there): before meta-tools, which ranks with them.
  { name: 'embedder-openai', load: loaded(embedderOpenai) },
  { name: 'embedder-static', load: loaded(embedderStatic) },
  { name: 'meta-tools', load: loaded(metaTools) },
  // Opt-in: run_code, the one meta-tool beyond the thirteen (docs/code-mode.md).
  { name: 'code-mode', load: () => import('../plugins/code-mode/index.js'), optIn: true },
  { name: 'transport-streamable-http', load: loaded(transportStreamableHttp) },
  { name: 'transport-sse', load: loaded(transportSse) },
  { name: 'transport-stdio', load: loaded(transportStdio) },
];
