/**
 * The plugin contract. A plugin is a name, what it provides and needs, an optional JSON
 * Schema for its options and a `setup` that taps hooks, provides services and returns what to
 * do at start and stop. Setup runs before the configuration is announced; start after; stop
 * in reverse order.
 *
 * The declarations are what the loader orders plugins by and checks before any setup runs
 * (fastify's plugin dependencies, not a hand-sorted list): every provider of a service a
 * plugin needs or uses is set up before it, a need nobody provides stops startup naming both
 * plugins, and during setup a plugin reaches only services it declared (its services view
 * refuses the rest), so the declarations cannot drift from the code.
 */
import type { KernelApi } from './kernel-api.js';
import type { Logger } from './log.js';
import type { ServiceName } from './services.js';
import type { SurfaceName } from './config/surfaces.js';

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
  /** Services it provides in setup (`kernel.services.provide`); providing an undeclared one is refused. */
  provides?: readonly ServiceName[];
  /** Surfaces it claims in setup (`kernel.surfaces.claim`). */
  claims?: readonly SurfaceName[];
  /**
   * Services it cannot work without. An enabled plugin must provide each (or startup fails,
   * naming this plugin and the provider that is switched off); providers are set up first.
   */
  needs?: readonly ServiceName[];
  /** Services it uses when some enabled plugin provides them; those providers are set up first. */
  uses?: readonly ServiceName[];
  /**
   * Services it reaches only once running (in tool calls, requests, timers), never in setup:
   * checked like `needs`, but they order nothing, so two plugins may call each other.
   */
  needsWhenRunning?: readonly ServiceName[];
  /** JSON Schema for `plugins.<name>.options`; defaults in it are applied. */
  optionsSchema?: Record<string, unknown>;
  // A setup that only taps hooks returns nothing; `void` says so better than `undefined`.
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type
  setup(ctx: PluginContext<Options>): void | PluginInstance | Promise<void | PluginInstance>;
}

/** Identity helper that keeps the options type attached to the plugin. */
export function definePlugin<Options = Record<string, unknown>>(plugin: Plugin<Options>): Plugin<Options> {
  return plugin;
}

/** A plugin the application ships (the composition root's list): loaded only when enabled. */
export interface PluginModule {
  name: string;
  load: () => Promise<{ default: Plugin<never> }>;
  /** Off unless the config turns it on. */
  optIn?: boolean;
}
