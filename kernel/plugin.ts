/**
 * The plugin contract. A plugin is a name, an optional JSON Schema for its options and a
 * `setup` that taps hooks, provides services and returns what to do at start and stop.
 * Setup runs before the configuration is announced; start after; stop in reverse order.
 */
import type { KernelApi } from './kernel-api.js';
import type { Logger } from './log.js';

export interface PluginInstance {
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}

export interface PluginContext<Options> {
  kernel: KernelApi;
  options: Options;
  log: Logger;
}

export interface Plugin<Options = Record<string, unknown>> {
  name: string;
  description?: string;
  /** JSON Schema for `plugins.<name>.options`; defaults in it are applied. */
  optionsSchema?: Record<string, unknown>;
  setup(ctx: PluginContext<Options>): void | PluginInstance | Promise<void | PluginInstance>;
}

/** Identity helper that keeps the options type attached to the plugin. */
export function definePlugin<Options = Record<string, unknown>>(plugin: Plugin<Options>): Plugin<Options> {
  return plugin;
}
