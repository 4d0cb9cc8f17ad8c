/**
 * Which plugins run. The application's plugins (the composition root hands them to
 * `Kernel.boot`) are on unless `plugins.<name>: false` (or `enabled: false`); a third-party
 * plugin is any other key with a `module` (resolved against the config directory when
 * relative). All of them are then ordered by what they provide and need (plugin-order.ts).
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigInvalidError, SwitchboardError } from './errors.js';
import type { PluginSetting } from './config/settings.js';
import type { Plugin, PluginModule } from './plugin.js';
import { orderPlugins } from './plugin-order.js';
import { sharedAjv } from './config/validate.js';
import { loadPrebuilt, optionsFingerprint, optionsValidatorName, PREBUILT_DIR } from './config/prebuilt-validators.js';

export interface LoadedPlugin {
  plugin: Plugin<unknown>;
  options: Record<string, unknown>;
  /** config.yaml: where a problem with the plugin is reported. */
  file: string;
}

function normalise(setting: PluginSetting | undefined): { enabled: boolean | undefined; module?: string; options: Record<string, unknown> } {
  if (setting === undefined) return { enabled: undefined, options: {} };
  if (typeof setting === 'boolean') return { enabled: setting, options: {} };
  // A copy: validating fills in the schema's defaults, and the settings in force must stay as
  // written, or every later edit of config.yaml would seem to change the options (a restart key).
  return { enabled: setting.enabled, ...(setting.module ? { module: setting.module } : {}), options: structuredClone(setting.options ?? {}) };
}

/**
 * Why a resource may be ignored: the plugins config.yaml switches off, as a clause to end a
 * warning with (empty when none is). A plugin that is off registered nothing, so a store
 * cannot know which of them would have owned a resource: it names them all.
 */
export function switchedOffClause(settings: Readonly<Record<string, PluginSetting>>): string {
  const off = Object.entries(settings)
    .filter(([, s]) => normalise(s).enabled === false)
    .map(([name]) => `'${name}'`);
  return off.length ? `; config.yaml switches off the plugin${off.length === 1 ? '' : 's'} ${off.join(', ')}` : '';
}

function isPlugin(value: unknown): value is Plugin<unknown> {
  return !!value && typeof value === 'object' && typeof (value as Plugin).name === 'string' && typeof (value as Plugin).setup === 'function';
}

export async function loadPlugins(
  builtIns: readonly PluginModule[],
  settings: Record<string, PluginSetting>,
  configPath: string,
  configFile: string,
): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  const builtInNames = new Set(builtIns.map((b) => b.name));
  const disabled: PluginModule[] = [];

  const withOptions = (plugin: Plugin<unknown>, options: Record<string, unknown>): LoadedPlugin => {
    if (plugin.optionsSchema) {
      // The build's validator when it was compiled from this very schema (a built-in plugin's).
      const validate =
        loadPrebuilt(PREBUILT_DIR, optionsValidatorName(plugin.name), optionsFingerprint(plugin.optionsSchema)) ?? sharedAjv().compile(plugin.optionsSchema);
      if (!validate(options)) {
        const msg = (validate.errors ?? []).map((e) => `${e.instancePath || '(options)'} ${e.message}`).join('; ');
        throw new ConfigInvalidError([{ file: configFile, line: 0, column: 0, field: `plugins.${plugin.name}.options`, message: msg }]);
      }
    }
    return { plugin, options, file: configFile };
  };

  for (const b of builtIns) {
    const setting = settings[b.name];
    const s = normalise(setting);
    // Written as an object (options, say), a plugin is on unless it says `enabled: false`, as the
    // schema's default says: an opt-in plugin given options was meant to run with them.
    const enabled = s.enabled ?? (typeof setting === 'object' || !b.optIn);
    if (!enabled) {
      disabled.push(b);
      continue;
    }
    const mod = await b.load();
    loaded.push(withOptions(mod.default, s.options));
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
  // Only a missing need loads a switched-off plugin's module, to name it in the message.
  const switchedOff = async (service: string): Promise<string | undefined> => {
    for (const b of disabled) if ((await b.load()).default.provides?.includes(service as never)) return b.name;
    return undefined;
  };
  return orderPlugins(loaded, switchedOff);
}
