/** What a plugin sees of the kernel. */
import type { Catalogue } from './catalogue.js';
import type { ConfigPipeline } from './config/pipeline.js';
import type { Settings } from './config/settings.js';
import type { KernelHooks } from './hooks.js';
import type { ToolInvoker } from './invoke.js';
import type { Logger } from './log.js';
import type { Endpoint } from './mcp/endpoint.js';
import type { ServiceRegistry } from './services.js';
import type { SessionRegistry } from './sessions.js';

export interface KernelApi {
  readonly hooks: KernelHooks;
  readonly services: ServiceRegistry;
  readonly catalogue: Catalogue;
  readonly sessions: SessionRegistry;
  readonly endpoint: Endpoint;
  readonly tools: ToolInvoker;
  readonly config: ConfigPipeline;
  readonly log: Logger;
  /** The settings in force now (config.yaml plus in-memory changes). */
  settings(): Settings;
  /** Ends the process's service gracefully (used by the stdio transport when its client leaves). */
  requestShutdown(reason: string): void;
}
