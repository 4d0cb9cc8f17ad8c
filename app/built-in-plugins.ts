/**
 * The plugins Switchboard ships, on unless `plugins.<name>: false` (or opt-in, off unless
 * turned on). This list is the application: the kernel knows none of them. Their setup order
 * follows from what each declares it provides and needs (kernel/plugin-order.ts); where
 * nothing constrains two plugins, they keep the order listed here.
 */
import type { PluginModule } from '../kernel/plugin.js';

export const BUILT_IN_PLUGINS: readonly PluginModule[] = [
  { name: 'store-files', load: () => import('../plugins/store-files/index.js') },
  // Orchestrator mode's store (it does nothing unless `orchestrator: true`, when store-files steps aside).
  { name: 'store-kubernetes', load: () => import('../plugins/store-kubernetes/index.js') },
  // Cluster mode's shared state (it does nothing unless `aggregator.cluster` is set): before the plugins that keep state.
  { name: 'cluster-redis', load: () => import('../plugins/cluster-redis/index.js') },
  // Early: the log must be open before the first events (servers starting) are recorded.
  { name: 'events', load: () => import('../plugins/events/index.js') },
  { name: 'auth-server', load: () => import('../plugins/auth-server/index.js') },
  // A policy plugin (opt-in); the built-in roles step aside for it.
  { name: 'authorization-cedar', load: () => import('../plugins/authorization-cedar/index.js'), optIn: true },
  { name: 'authorization', load: () => import('../plugins/authorization/index.js') },
  { name: 'http-server', load: () => import('../plugins/http-server/index.js') },
  { name: 'auth-client', load: () => import('../plugins/auth-client/index.js') },
  { name: 'upstreams', load: () => import('../plugins/upstreams/index.js') },
  { name: 'core-tools', load: () => import('../plugins/core-tools/index.js') },
  { name: 'workflows', load: () => import('../plugins/workflows/index.js') },
  // After workflows: a workflow's task left running by a restart ends as its execution record says.
  { name: 'tasks', load: () => import('../plugins/tasks/index.js') },
  { name: 'limits', load: () => import('../plugins/limits/index.js') },
  { name: 'metrics-otel', load: () => import('../plugins/metrics-otel/index.js') },
  // The import command's reader as a service, for the admin UI's paste form.
  { name: 'client-config', load: () => import('./client-config-plugin.js') },
  { name: 'admin-ui', load: () => import('../plugins/admin-ui/index.js') },
  { name: 'toolsets', load: () => import('../plugins/toolsets/index.js') },
  // Semantic search's models (each does nothing unless its `embedder.*` setting is there): before meta-tools, which ranks with them.
  { name: 'embedder-openai', load: () => import('../plugins/embedder-openai/index.js') },
  { name: 'embedder-static', load: () => import('../plugins/embedder-static/index.js') },
  { name: 'meta-tools', load: () => import('../plugins/meta-tools/index.js') },
  // Opt-in: run_code, the one meta-tool beyond the thirteen (docs/code-mode.md).
  { name: 'code-mode', load: () => import('../plugins/code-mode/index.js'), optIn: true },
  { name: 'transport-streamable-http', load: () => import('../plugins/transport-streamable-http/index.js') },
  { name: 'transport-sse', load: () => import('../plugins/transport-sse/index.js') },
  { name: 'transport-stdio', load: () => import('../plugins/transport-stdio/index.js') },
];
