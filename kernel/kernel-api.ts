/**
 * What a plugin sees of the kernel: interfaces, not the kernel's classes. What only the
 * kernel itself does (loading every resource at boot, applying a store's change event,
 * draining calls at shutdown, adding and removing sessions) is not here, so a plugin cannot
 * reach it by accident.
 */
import type { Catalogue } from './catalogue.js';
import type { ConfigPipeline } from './config/pipeline.js';
import type { Settings } from './config/settings.js';
import type { KernelHooks } from './hooks.js';
import type { ToolInvoker } from './invoke.js';
import type { Logger } from './log.js';
import type { Endpoint } from './mcp/endpoint.js';
import type { ServiceRegistry } from './services.js';
import type { SecretScrubber } from './secrets/scrubber.js';
import type { SessionRegistry } from './sessions.js';
import type { SurfaceRegistry } from './config/surfaces.js';

/** The catalogue: publish a source's tools, read what is there. */
export type CatalogueApi = Pick<Catalogue, 'version' | 'replaceSource' | 'explainAbsence' | 'forgetAbsence' | 'whyAbsent' | 'get' | 'has' | 'all'>;

/** Open sessions, read-only (transports open them through the endpoint). */
export type SessionsApi = Pick<SessionRegistry, 'get' | 'all' | 'size'>;

/** The MCP endpoint: what clients see directly, and how a transport connects one. */
export type EndpointApi = Pick<Endpoint, 'addMetaTool' | 'addProtocol' | 'metaToolNames' | 'connect'>;

/** Calling a catalogue tool as a client would (workflows, meta-tools). */
export type ToolCallsApi = Pick<ToolInvoker, 'resolve' | 'call'>;

/** Values that must never appear in a log line or a tool result. */
export type SecretsApi = Pick<SecretScrubber, 'add' | 'size' | 'scrubText' | 'scrubValue' | 'scrubEncoded' | 'scrubResult'>;

/**
 * The configuration: the snapshot in force, checks that every load runs, and edits made by
 * tools (each inside `exclusive`, so that two edits never interleave).
 */
export type ConfigApi = Pick<ConfigPipeline, 'snapshot' | 'configPath' | 'addCheck' | 'addSettingsCheck' | 'exclusive' | 'apply' | 'removeKey' | 'replaceSettings' | 'reloadAll'>;

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
  readonly log: Logger;
  /** The settings in force now (config.yaml plus in-memory changes). */
  settings(): Settings;
  /** Ends the process's service gracefully (used by the stdio transport when its client leaves). */
  requestShutdown(reason: string): void;
}
