/** What a plugin sees of the kernel. */
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

export interface KernelApi {
  readonly hooks: KernelHooks;
  readonly services: ServiceRegistry;
  readonly catalogue: Catalogue;
  readonly sessions: SessionRegistry;
  readonly endpoint: Endpoint;
  readonly tools: ToolInvoker;
  /** Values that must never appear in a log line or a tool result. */
  readonly secrets: SecretScrubber;
  /** Surfaces a plugin provides (`claim` in setup); an enabled surface nobody claims stops startup. */
  readonly surfaces: SurfaceRegistry;
  readonly config: ConfigPipeline;
  readonly log: Logger;
  /** The settings in force now (config.yaml plus in-memory changes). */
  settings(): Settings;
  /** Ends the process's service gracefully (used by the stdio transport when its client leaves). */
  requestShutdown(reason: string): void;
}
