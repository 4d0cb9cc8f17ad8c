/** One consistent view of the whole configuration, as onConfigLoad hands it to plugins. */
import type { McpServerDefinition, Settings, WorkflowResource } from './settings.js';

export interface Origin {
  file: string;
  line: number;
}

export interface Located<T> {
  readonly value: T;
  readonly origin: Origin;
}

export interface ConfigSnapshot {
  readonly configPath: string;
  readonly settings: Settings;
  readonly mcpServers: ReadonlyMap<string, Located<McpServerDefinition>>;
  readonly workflows: ReadonlyMap<string, Located<WorkflowResource>>;
  /** Increases with every snapshot, so a plugin can tell a reload from a repeat. */
  readonly generation: number;
}
