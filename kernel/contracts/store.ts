/**
 * Where resources (MCP server definitions, workflows: whatever kinds plugins registered)
 * live. The `store-files` plugin keeps them as YAML files; an orchestrator plugin keeps
 * them as custom resources. A store reads the kinds the configuration pipeline has
 * registered (`kernel.config.kinds()`); the pipeline validates whatever a store returns.
 */
import type { ParsedYaml } from '../config/yaml-document.js';
import type { ConfigProblem } from '../errors.js';

/** The name of a registered kind (ResourceKindDefinition.name): `mcpserver`, `workflow`. */
export type ResourceKind = string;

/** A resource as read, before validation: its document and where it came from. */
export interface RawResource {
  kind: ResourceKind;
  /** Stable identity of the document in the store (a file path for files). */
  key: string;
  parsed: ParsedYaml;
}

export interface StoreLoadResult {
  resources: RawResource[];
  /** Documents that could not be read or parsed at all. */
  problems: ConfigProblem[];
}

export type StoreChange =
  | { type: 'upsert'; resource: RawResource }
  | { type: 'remove'; kind: ResourceKind; key: string }
  | { type: 'invalid'; kind: ResourceKind; key: string; problems: ConfigProblem[] }
  | { type: 'settings' };

/** Who a write is made as: the caller's own token (orchestrator mode, interface point 12); absent, the store's own identity. */
export interface WriteAs {
  bearer: string;
}

export interface ResourceStore {
  /** As core_mcpserver_list reports it: `filesystem` for files, `kubernetes` for the orchestrator. */
  readonly mode: string;
  /**
   * How core_service_start/stop/restart act on an MCP server: `imperative` on the running
   * server (files), or `declarative`: written into the definition (suspended,
   * restartRequestedAt) and the reconciler acts (the orchestrator).
   */
  readonly lifecycle: 'imperative' | 'declarative';
  loadAll(): Promise<StoreLoadResult>;
  /** Writes (atomically) the definition of `name`, into `key` when it already lives there. */
  write(kind: ResourceKind, name: string, body: Record<string, unknown>, key?: string, as?: WriteAs): Promise<RawResource>;
  remove(kind: ResourceKind, key: string, as?: WriteAs): Promise<{ location: string }>;
  /** Reads config.yaml's text ('' when there is none), to edit it keeping comments. */
  readSettingsText(): Promise<string>;
  /** Writes config.yaml's new text (atomically); returns where. */
  writeSettings(text: string): Promise<{ location: string }>;
  watch(onChange: (change: StoreChange) => void): Promise<void>;
  close(): Promise<void>;
}
