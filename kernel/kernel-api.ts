/**
 * What a plugin sees of the kernel: interfaces, not the kernel's classes. What only the
 * kernel itself does (loading every resource at boot, applying a store's change event,
 * draining calls at shutdown, adding and removing sessions) is not here, so a plugin cannot
 * reach it by accident.
 */
import type { Catalogue } from './catalogue.js';
import type { RawResource } from './contracts/store.js';
import type { ConfigProblem } from './errors.js';
import type { ConfigPipeline } from './config/pipeline.js';
import type { Settings } from './config/settings.js';
import type { KernelHooks } from './hooks.js';
import type { ToolInvoker } from './invoke.js';
import type { Logger } from './log.js';
import type { Endpoint } from './mcp/server/endpoint.js';
import type { ServiceRegistry } from './services.js';
import type { SecretScrubber } from './secrets/scrubber.js';
import type { SessionRegistry } from './sessions.js';
import type { SurfaceRegistry } from './config/surfaces.js';
import type { HealthRegistry } from './health.js';

/** The catalogue: publish a source's tools, read what is there. */
export type CatalogueApi = Pick<Catalogue, 'version' | 'replaceSource' | 'explainAbsence' | 'forgetAbsence' | 'whyAbsent' | 'get' | 'has' | 'all'>;

/** Open sessions, read-only (transports open them through the endpoint). */
export type SessionsApi = Pick<SessionRegistry, 'get' | 'all' | 'size'>;

/** The MCP endpoint: what clients see directly, and how a transport connects one. */
export type EndpointApi = Pick<
  Endpoint,
  | 'addMetaTool'
  | 'addProtocol'
  | 'setWording'
  | 'metaToolNames'
  | 'serverCapabilities'
  | 'connect'
  | 'serveStateless'
  | 'notifyListChanged'
  | 'notifyHere'
  | 'hasListeners'
  | 'listen'
  | 'setListenResources'
  | 'endListens'
  | 'setTasks'
>;

/** Calling a catalogue tool as a client would (workflows, meta-tools). */
export type ToolCallsApi = Pick<ToolInvoker, 'resolve' | 'call'>;

/** Values that must never appear in a log line or a tool result. */
export type SecretsApi = Pick<SecretScrubber, 'add' | 'size' | 'scrubText' | 'scrubValue' | 'scrubEncoded' | 'scrubResult'>;

/** Changes to the configuration in force: handed only to an `exclusive` edit. */
export interface ConfigEdits {
  /** A resource the store just wrote: validated and in the snapshot when this resolves (or refused with CONFIG_INVALID). */
  apply(raw: RawResource): Promise<void>;
  /** A resource the store just removed, by its key. */
  removeKey(key: string): Promise<void>;
  /** Settings changed in memory (core_config_update_aggregator), until saved. */
  replaceSettings(settings: Settings): Promise<void>;
  /** Everything from the store again; problems leave the previous configuration in force. */
  reloadAll(): Promise<ConfigProblem[]>;
  /** config.yaml replaced by `text` (atomically, through the store); the watcher's echo of it reloads nothing. */
  writeSettings(text: string): Promise<{ location: string }>;
}

/** The configuration: the snapshot in force, checks every load runs, and edits. */
export interface ConfigApi extends Pick<ConfigPipeline, 'snapshot' | 'configPath' | 'addKind' | 'kinds' | 'addCheck' | 'addSettingsCheck' | 'restartRequired'> {
  /**
   * Runs one read-modify-write after every earlier one has finished, so concurrent writers
   * never interleave: each reads what the previous one wrote. Only here can a plugin change
   * the configuration.
   */
  exclusive<T>(edit: (edits: ConfigEdits) => Promise<T>): Promise<T>;
}

export interface KernelApi {
  readonly hooks: KernelHooks;
  readonly services: Pick<ServiceRegistry, 'provide' | 'get' | 'find'>;
  readonly catalogue: CatalogueApi;
  readonly sessions: SessionsApi;
  readonly endpoint: EndpointApi;
  readonly tools: ToolCallsApi;
  readonly secrets: SecretsApi;
  /** Surfaces a plugin provides (`claim` in setup); an enabled surface nobody claims stops startup. */
  readonly surfaces: Pick<SurfaceRegistry, 'claim'>;
  readonly config: ConfigApi;
  /** What /health reports: a plugin contributes a probe of its own state (`degraded` with a reason). */
  readonly health: Pick<HealthRegistry, 'contribute' | 'report'>;
  readonly log: Logger;
  /** The settings in force now (config.yaml plus in-memory changes). */
  settings(): Settings;
  /** Ends the process's service gracefully (used by the stdio transport when its client leaves). */
  requestShutdown(reason: string): void;
}
