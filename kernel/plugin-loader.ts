/**
 * Which plugins run. Built-ins are listed here in start order and are on unless
 * `plugins.<name>: false` (or `enabled: false`); a third-party plugin is any other key
 * with a `module` (resolved against the config directory when relative).
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigInvalidError, SwitchboardError } from './errors.js';
import type { PluginSetting } from './config/settings.js';
import type { Plugin } from './plugin.js';
import { createAjv } from './config/validate.js';

interface BuiltIn {
  name: string;
  load: () => Promise<{ default: Plugin<never> }>;
  /** Off unless the config turns it on. */
  optIn?: boolean;
}

/** Start order: store and auth before the listener, then what fills the catalogue, then the transports. */
export const BUILT_IN_PLUGINS: readonly BuiltIn[] = [
  { name: 'store-files', load: () => import('../plugins/store-files/index.js') },
  // Orchestrator mode's store (it does nothing unless `orchestrator: true`, when store-files steps aside).
  { name: 'store-kubernetes', load: () => import('../plugins/store-kubernetes/index.js') },
  // Early: the log must be open before the first events (servers starting) are recorded.
  { name: 'events', load: () => import('../plugins/events/index.js') },
  // Before the listener starts: with protection on, the MCP paths never open unprotected.
  { name: 'auth-server', load: () => import('../plugins/auth-server/index.js') },
  // Who may do what: a policy plugin first (opt-in), then the built-in roles, which step aside for it.
  { name: 'authorization-cedar', load: () => import('../plugins/authorization-cedar/index.js'), optIn: true },
  { name: 'authorization', load: () => import('../plugins/authorization/index.js') },
  { name: 'http-server', load: () => import('../plugins/http-server/index.js') },
  // Before upstreams: a server that answers 401 is handed to the OAuth client from the first connection on.
  { name: 'auth-client', load: () => import('../plugins/auth-client/index.js') },
  { name: 'upstreams', load: () => import('../plugins/upstreams/index.js') },
  { name: 'core-tools', load: () => import('../plugins/core-tools/index.js') },
  { name: 'workflows', load: () => import('../plugins/workflows/index.js') },
  { name: 'limits', load: () => import('../plugins/limits/index.js') },
  { name: 'metrics-otel', load: () => import('../plugins/metrics-otel/index.js') },
  { name: 'admin-ui', load: () => import('../plugins/admin-ui/index.js') },
  { name: 'toolsets', load: () => import('../plugins/toolsets/index.js') },
  { name: 'meta-tools', load: () => import('../plugins/meta-tools/index.js') },
  { name: 'transport-streamable-http', load: () => import('../plugins/transport-streamable-http/index.js') },
  { name: 'transport-sse', load: () => import('../plugins/transport-sse/index.js') },
  { name: 'transport-stdio', load: () => import('../plugins/transport-stdio/index.js') },
];

export interface LoadedPlugin {
  plugin: Plugin<unknown>;
  options: Record<string, unknown>;
}

function normalise(setting: PluginSetting | undefined): { enabled: boolean | undefined; module?: string; options: Record<string, unknown> } {
  if (setting === undefined) return { enabled: undefined, options: {} };
  if (typeof setting === 'boolean') return { enabled: setting, options: {} };
  return { enabled: setting.enabled, ...(setting.module ? { module: setting.module } : {}), options: setting.options ?? {} };
}

function isPlugin(value: unknown): value is Plugin<unknown> {
  return !!value && typeof value === 'object' && typeof (value as Plugin).name === 'string' && typeof (value as Plugin).setup === 'function';
}

export async function loadPlugins(settings: Record<string, PluginSetting>, configPath: string, configFile: string): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  const builtInNames = new Set(BUILT_IN_PLUGINS.map((b) => b.name));
  const ajv = createAjv();

  const withOptions = (plugin: Plugin<unknown>, options: Record<string, unknown>): LoadedPlugin => {
    if (plugin.optionsSchema) {
      const validate = ajv.compile(plugin.optionsSchema);
      if (!validate(options)) {
        const msg = (validate.errors ?? []).map((e) => `${e.instancePath || '(options)'} ${e.message}`).join('; ');
        throw new ConfigInvalidError([{ file: configFile, line: 0, column: 0, field: `plugins.${plugin.name}.options`, message: msg }]);
      }
    }
    return { plugin, options };
  };

  for (const b of BUILT_IN_PLUGINS) {
    const s = normalise(settings[b.name]);
    const enabled = s.enabled ?? !b.optIn;
    if (!enabled) continue;
    const mod = await b.load();
    loaded.push(withOptions(mod.default as Plugin<unknown>, s.options));
  }

  for (const [name, raw] of Object.entries(settings)) {
    if (builtInNames.has(name)) continue;
    const s = normalise(raw);
    if (s.enabled === false) continue;
    if (!s.module) {
      throw new ConfigInvalidError([
        { file: configFile, line: 0, column: 0, field: `plugins.${name}`, message: `unknown plugin '${name}': a third-party plugin needs a 'module'` },
      ]);
    }
    const spec = s.module.startsWith('.') || isAbsolute(s.module) ? pathToFileURL(resolve(configPath, s.module)).href : s.module;
    let mod: { default?: unknown; plugin?: unknown };
    try {
      mod = (await import(spec)) as { default?: unknown; plugin?: unknown };
    } catch (err) {
      throw new SwitchboardError('PLUGIN_FAILED', `plugin '${name}': cannot load module '${s.module}': ${(err as Error).message}`);
    }
    const plugin = mod.default ?? mod.plugin;
    if (!isPlugin(plugin)) {
      throw new SwitchboardError('PLUGIN_FAILED', `plugin '${name}': module '${s.module}' does not export a plugin (default export with name and setup)`);
    }
    loaded.push(withOptions(plugin, s.options));
  }
  return loaded;
}
