/**
 * What one plugin receives as `kernel`: the kernel's public surface, with a services and
 * surfaces view that holds the plugin to what it declared (plugin.ts). During its setup a
 * plugin may reach only the services it needs or uses, since only their providers are
 * guaranteed to be set up before it; it may provide and claim only what it declared. Once
 * set up, it may reach any service (calls at run time find every provider in place).
 * A plugin that declares nothing at all is not held to anything (plugins written before
 * declarations existed). The view is a plain object of the kernel's parts typed as their
 * interfaces (kernel-api.ts), not the kernel itself: shutdown, the pipeline's loading and
 * the plugin list are not reachable from it.
 */
import { SwitchboardError } from './errors.js';
import type { KernelApi } from './kernel-api.js';
import { declaresDependencies } from './plugin-order.js';
import type { Plugin } from './plugin.js';
import type { ServiceName, Services, ServiceRegistry } from './services.js';
import type { SurfaceName } from './config/surfaces.js';

/** A plugin did something its declarations do not allow: a bug in the plugin, named. */
export class PluginContractError extends SwitchboardError {
  constructor(plugin: string, message: string) {
    super('PLUGIN_FAILED', `plugin '${plugin}' ${message}`, { plugin });
  }
}

/** The services registry as one plugin sees it. */
export type PluginServices = Pick<ServiceRegistry, 'provide' | 'get' | 'find'>;

class DeclaredServices implements PluginServices {
  private settingUp = true;
  private readonly reachable: ReadonlySet<string>;
  private readonly provides: ReadonlySet<string>;

  constructor(
    private readonly registry: ServiceRegistry,
    private readonly plugin: Plugin<unknown>,
  ) {
    this.reachable = new Set([...(plugin.needs ?? []), ...(plugin.uses ?? [])]);
    this.provides = new Set(plugin.provides ?? []);
  }

  setUp(): void {
    this.settingUp = false;
  }

  provide<K extends ServiceName>(name: K, impl: Services[K]): void {
    if (!this.provides.has(name)) throw new PluginContractError(this.plugin.name, `provides the '${name}' service without declaring it (provides)`);
    this.registry.provide(name, impl);
  }

  get<K extends ServiceName>(name: K): Services[K] {
    if (this.settingUp) this.checkReach(name);
    return this.registry.get(name);
  }

  find<K extends ServiceName>(name: K): Services[K] | undefined {
    if (this.settingUp) this.checkReach(name);
    return this.registry.find(name);
  }

  private checkReach(name: string): void {
    if (!this.reachable.has(name))
      throw new PluginContractError(
        this.plugin.name,
        `reaches the '${name}' service during setup without declaring it (needs or uses), so its provider may not be set up yet`,
      );
  }
}

export interface PluginApi {
  kernel: KernelApi;
  /** Call when the plugin's setup has returned: from then on it may reach any service. */
  setUp(): void;
}

export function pluginApi(kernel: KernelApi & { readonly services: ServiceRegistry }, plugin: Plugin<unknown>): PluginApi {
  const declared = declaresDependencies(plugin);
  const services = declared ? new DeclaredServices(kernel.services, plugin) : undefined;
  const claims = new Set<SurfaceName>(plugin.claims ?? []);
  const surfaces: KernelApi['surfaces'] = {
    claim(surface) {
      if (declared && !claims.has(surface)) throw new PluginContractError(plugin.name, `claims the '${surface}' surface without declaring it (claims)`);
      kernel.surfaces.claim(surface);
    },
  };
  // The kernel's own objects, typed as their interfaces: a view costs nothing on the call path.
  const view: KernelApi = {
    hooks: kernel.hooks,
    services: services ?? kernel.services,
    catalogue: kernel.catalogue,
    sessions: kernel.sessions,
    endpoint: kernel.endpoint,
    tools: kernel.tools,
    secrets: kernel.secrets,
    surfaces,
    get config() {
      return kernel.config;
    },
    health: kernel.health,
    log: kernel.log,
    settings: () => kernel.settings(),
    requestShutdown: (reason) => kernel.requestShutdown(reason),
  };
  return { kernel: view, setUp: () => services?.setUp() };
}
