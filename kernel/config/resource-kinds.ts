/**
 * The kinds of resource the configuration holds besides config.yaml. The kernel knows
 * none of them: the plugin that owns a kind registers it in setup (`kernel.config.addKind`),
 * saying how its documents are validated, named and stored, and where they land in the
 * snapshot. A kind whose plugin is switched off is unknown: its documents are not read.
 */
import { SwitchboardError } from '../errors.js';
import type { JsonSchema, SchemaName } from './validate.js';
import type { TypedCollections } from './snapshot.js';

/**
 * How a kind's documents are written, which says where its name is and how a store that
 * keeps resources its own way (a custom resource) maps them:
 * - `named`: the definition itself, with a `name` field (an MCP server).
 * - `resource`: `apiVersion`, `kind`, `metadata.name` (and labels) and `spec` (a workflow).
 */
export type DocumentShape = 'named' | 'resource';

export interface ResourceKindDefinition {
  /** The identifier stores, checks and changes use: `mcpserver`. */
  readonly name: string;
  /** The plugin that registered it (named in messages about the kind). */
  readonly plugin: string;
  /** How a resource of this kind is called in a document's `kind:` or a custom resource: `MCPServer`. */
  readonly kind: string;
  /** Where a store keeps them: the directory under the config directory, the custom resources' plural. */
  readonly plural: string;
  /** Validates (and fills defaults into) each document: a schema of schemas/ or a schema of the plugin's own. */
  readonly schema: SchemaName | JsonSchema;
  readonly shape: DocumentShape;
  /**
   * The snapshot field that holds the kind, for the kinds the snapshot names with a type
   * (`snapshot.mcpServers`); every kind is also in `snapshot.resources` under its name.
   */
  readonly snapshotField?: keyof TypedCollections;
}

/** The name a validated document gives its resource (the schema guarantees it is there). */
export function nameOf(kind: ResourceKindDefinition, document: object): string {
  if (kind.shape === 'named') return (document as { name: string }).name;
  return (document as { metadata: { name: string } }).metadata.name;
}

/** The registered kinds, in registration order (the order stores read them in). */
export class ResourceKinds {
  private readonly byName = new Map<string, ResourceKindDefinition>();

  add(kind: ResourceKindDefinition): void {
    const taken =
      this.byName.get(kind.name) ??
      [...this.byName.values()].find((k) => k.plural === kind.plural || (kind.snapshotField && k.snapshotField === kind.snapshotField));
    if (taken) {
      throw new SwitchboardError(
        'PLUGIN_FAILED',
        `plugin '${kind.plugin}' registers the resource kind '${kind.name}', which clashes with '${taken.name}' of plugin '${taken.plugin}'`,
      );
    }
    this.byName.set(kind.name, kind);
  }

  get(name: string): ResourceKindDefinition | undefined {
    return this.byName.get(name);
  }

  list(): readonly ResourceKindDefinition[] {
    return [...this.byName.values()];
  }
}
