/**
 * The kernel: hooks, services, catalogue, sessions, configuration pipeline and the plugins
 * that do everything else. `boot` is startup in order; `shutdown` is its mirror.
 */
import { Catalogue } from './catalogue.js';
import { ConfigPipeline, readSettings } from './config/pipeline.js';
import type { Settings } from './config/settings.js';
import type { ConfigSnapshot } from './config/snapshot.js';
import type { ParsedYaml } from './config/yaml-document.js';
import { createHooks, type KernelHooks } from './hooks.js';
import { ToolInvoker } from './invoke.js';
import type { ConfigApi, KernelApi } from './kernel-api.js';
import { configApi } from './config/config-api.js';
import { createLogger, scrubbingLogger, type Logger } from './log.js';
import { SecretScrubber } from './secrets/scrubber.js';
import { HealthRegistry } from './health.js';
import { Endpoint } from './mcp/server/endpoint.js';
import type { PluginInstance, PluginModule } from './plugin.js';
import { pluginApi } from './plugin-api.js';
import { loadPlugins } from './plugin-loader.js';
import { ServiceRegistry } from './services.js';
import { SessionRegistry } from './sessions.js';
import { networkExposureWarning, SurfaceRegistry } from './config/surfaces.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readyLine } from './ready-line.js';
import { audit, authorizerOf, decisionContext } from './authorization/authorize.js';
import { principalOf } from './authorization/principal.js';
import { PermissionViews } from './authorization/views.js';
import { servedBy } from './tools.js';

/** Keys of the interface whose surfaces are not built yet: loaded, warned about, not acted on. */
const RESERVED_SETTINGS = ['auth', 'mcpClient'] as const;

export interface KernelOptions {
  configPath: string;
  /** The application's plugins (the composition root's list); third-party ones come from config.yaml. */
  plugins: readonly PluginModule[];
  /** Command-line overrides, applied over config.yaml on every (re)load. */
  overrides?: {
    port?: number;
    host?: string;
    /** Where `host` came from (the --host flag or SWITCHBOARD_HOST): a refusal names it. */
    hostFrom?: 'flag' | 'env';
    transport?: Settings['aggregator']['transport'];
    allowUnauthenticatedNetwork?: boolean;
  };
  log?: Logger;
  /** Called when a plugin asks the process to end (stdio client gone). */
  onShutdownRequest?: (reason: string) => void;
  /**
   * Awaited once everything has started, before the ready line: what a reader of "ready"
   * may count on (the CLI's run file, which tells clients the port).
   */
  beforeReady?: (kernel: Kernel) => Promise<void>;
}

export class Kernel implements KernelApi {
  readonly hooks: KernelHooks = createHooks();
  readonly services = new ServiceRegistry();
  readonly sessions = new SessionRegistry();
  readonly secrets = new SecretScrubber();
  readonly surfaces = new SurfaceRegistry();
  readonly health = new HealthRegistry();
  readonly log: Logger;
  readonly catalogue: Catalogue;
  readonly endpoint: Endpoint;
  readonly tools: ToolInvoker;
  private pipeline: ConfigPipeline | undefined;
  private configApi: ConfigApi | undefined;
  private readonly started: { name: string; instance: PluginInstance }[] = [];
  private stopping: Promise<void> | undefined;

  private constructor(private readonly options: KernelOptions) {
    this.log = scrubbingLogger(options.log ?? createLogger(), (text) => this.secrets.scrubText(text));
    this.catalogue = new Catalogue(this.hooks, this.log.child('catalogue'));
    this.endpoint = new Endpoint(this.hooks, this.catalogue, this.sessions, this.log.child('endpoint'));
    this.tools = new ToolInvoker(this.catalogue, this.hooks, this.log.child('invoke'), this.secrets);
    this.narrowByPermission();
  }

  /**
   * Last of the request taps (after the toolset and sign-in views): the caller's catalogue is
   * what it may call. Whichever authorizer a plugin provides decides; the views are rebuilt
   * when the configuration (admins, groups claim) or the authorizer's policies change.
   */
  private narrowByPermission(): void {
    const views = new PermissionViews(
      () => this.catalogue.all(),
      (server) => this.catalogue.all().filter((e) => servedBy(e, server)),
      (entry) => audit(this, entry),
    );
    this.hooks.onConfigLoad.tap('authorization', () => views.changed());
    this.hooks.onRequest.tap({ name: 'authorization', stage: 100 }, (request) => {
      views.narrow(request, principalOf(request.session, this.settings()), authorizerOf(this), (p) => decisionContext(this, p, request.session.transport));
    });
  }

  /** The pipeline itself: loading and store events are the kernel's own. */
  private get loaded(): ConfigPipeline {
    if (!this.pipeline) throw new Error('configuration pipeline not ready');
    return this.pipeline;
  }

  /** The configuration as plugins see it: edits only inside `exclusive`. */
  get config(): ConfigApi {
    return (this.configApi ??= configApi(this.loaded, () => this.services.get('store')));
  }

  settings(): Settings {
    return this.loaded.currentSettings();
  }

  requestShutdown(reason: string): void {
    if (this.options.onShutdownRequest) this.options.onShutdownRequest(reason);
    else void this.shutdown(reason);
  }

  static async boot(options: KernelOptions): Promise<Kernel> {
    const kernel = new Kernel(options);
    try {
      await kernel.bootSteps();
    } catch (err) {
      // Nothing started yet (the usual case: a configuration problem): nothing to announce;
      // the caller says why it does not start, and a "shutting down" before that misleads.
      await kernel.shutdown('startup failed', { quiet: kernel.started.length === 0 }).catch(() => undefined);
      throw err;
    }
    return kernel;
  }

  private applyOverrides(settings: Settings): Settings {
    const o = this.options.overrides;
    if (!o) return settings;
    return {
      ...settings,
      aggregator: {
        ...settings.aggregator,
        ...(o.port !== undefined ? { port: o.port } : {}),
        ...(o.host ? { host: o.host } : {}),
        ...(o.transport ? { transport: o.transport } : {}),
        ...(o.allowUnauthenticatedNetwork !== undefined ? { allowUnauthenticatedNetwork: o.allowUnauthenticatedNetwork } : {}),
      },
    };
  }

  /**
   * `switchboard check`: everything startup validates (schemas, every plugin's checks),
   * with plugins set up but never started and nothing announced.
   */
  static async check(options: KernelOptions): Promise<ConfigSnapshot> {
    const kernel = new Kernel(options);
    const { parsed } = await kernel.setupPlugins();
    await kernel.loaded.loadAll(kernel.services.get('store'), parsed, { publish: false, strict: true });
    return kernel.loaded.snapshot;
  }

  private async setupPlugins(): Promise<{ parsed: ParsedYaml | undefined; instances: { name: string; instance: PluginInstance }[] }> {
    const { configPath } = this.options;
    const { settings, parsed } = await readSettings(configPath);
    this.pipeline = new ConfigPipeline(
      configPath,
      this.hooks.onConfigLoad,
      this.log.child('config'),
      this.applyOverrides(settings),
      (s) => this.applyOverrides(s),
      (problems) => this.hooks.onConfigRejected.call(problems),
    );
    // Reloads are checked before the overrides are applied to them; the check must see the
    // address that will really be bound, and name `--host` when that is where it came from.
    this.pipeline.addSettingsCheck((s, where) =>
      this.surfaces.problems(this.applyOverrides(s), where, this.options.overrides?.host ? { hostFrom: this.options.overrides.hostFrom ?? 'flag' } : {}),
    );
    for (const key of RESERVED_SETTINGS) {
      // mcpClient.tokenExchange is in force (an MCP server's auth.tokenExchange); only the rest is reserved.
      const reserved = key === 'mcpClient' ? Object.keys(settings.mcpClient ?? {}).some((k) => k !== 'tokenExchange') : settings[key];
      if (reserved) {
        this.log.warn(`config.yaml: '${key}' is accepted but has no effect yet (that surface is not built)`);
      }
    }
    const plugins = await loadPlugins(this.options.plugins, settings.plugins, configPath, join(configPath, 'config.yaml'));
    const instances: { name: string; instance: PluginInstance }[] = [];
    for (const { plugin, options } of plugins) {
      const api = pluginApi(this, plugin);
      const instance = (await plugin.setup({ kernel: api.kernel, options, log: this.log.child(plugin.name) })) ?? {};
      api.setUp();
      instances.push({ name: plugin.name, instance });
    }
    // Before anything asks for a service a switched-on surface would provide: fail closed, by name.
    this.pipeline.checkSettings(this.pipeline.currentSettings(), parsed);
    return { parsed, instances };
  }

  private async bootSteps(): Promise<void> {
    // Before plugins run: the file store makes the directory for its own state.
    const configExisted = existsSync(this.options.configPath);
    const { parsed, instances } = await this.setupPlugins();
    const store = this.services.get('store');
    // A bad definition file is left out (and said), not a reason to keep every server down.
    await this.loaded.loadAll(store, parsed, { publish: true, strict: false });
    for (const entry of instances) {
      await entry.instance.start?.();
      this.started.push(entry);
    }
    await store.watch((change) => void this.loaded.handleChange(change));
    const exposed = networkExposureWarning(this.settings(), this.services.find('http')?.address());
    if (exposed) this.log.warn(exposed);
    await this.options.beforeReady?.(this);
    this.log.info(
      readyLine({
        tools: this.catalogue.all().length,
        servers: this.services
          .find('upstreams')
          ?.list()
          .filter((s) => s.service_type === 'MCPServer')
          .map((s) => ({ name: s.name, state: s.state, error: s.error, suspended: s.metadata.suspended === true })),
        configPath: this.options.configPath,
        configExisted,
        servicePrefix: this.settings().aggregator.servicePrefix,
      }),
    );
  }

  /** Refuse new calls, let running ones finish (up to the grace period), then stop plugins in reverse. */
  shutdown(reason: string, options: { quiet?: boolean } = {}): Promise<void> {
    this.stopping ??= (async () => {
      if (!options.quiet) this.log.info(`shutting down: ${reason}`);
      const grace = this.pipeline ? this.settingsOrDefault().aggregator.shutdownGraceSeconds * 1000 : 0;
      const left = await this.tools.drain(grace);
      if (left) this.log.warn(`${left} tool call(s) still running after ${grace} ms; stopping anyway`);
      await this.services
        .find('store')
        ?.close()
        .catch(() => undefined);
      for (const { name, instance } of this.started.splice(0).reverse()) {
        try {
          await instance.stop?.();
        } catch (err) {
          this.log.error(`plugin ${name} failed to stop: ${(err as Error).message}`);
        }
      }
    })();
    return this.stopping;
  }

  private settingsOrDefault(): Settings {
    try {
      return this.settings();
    } catch {
      return { aggregator: { shutdownGraceSeconds: 0 } } as Settings;
    }
  }
}
