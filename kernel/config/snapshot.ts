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

/**
 * The kinds the snapshot names with a typed field, for their consumers' convenience. The
 * owning plugin's kind fills its field (`snapshotField`); with that plugin off it is empty.
 */
export interface TypedCollections {
  mcpServers: McpServerDefinition;
  workflows: WorkflowResource;
}

export interface ConfigSnapshot {
  readonly configPath: string;
  readonly settings: Settings;
  /** Every registered kind's resources by kind name, then by resource name (in name order). */
  readonly resources: ReadonlyMap<string, ReadonlyMap<string, Located<unknown>>>;
  readonly mcpServers: ReadonlyMap<string, Located<McpServerDefinition>>;
  readonly workflows: ReadonlyMap<string, Located<WorkflowResource>>;
  /** Increases with every snapshot, so a plugin can tell a reload from a repeat. */
  readonly generation: number;
}
