/**
 * How a plugin declares a core tool: a name (the ServicePrefix is applied here), the
 * specification's annotations, an argument schema and a function returning an object.
 * The object becomes structuredContent plus its JSON text (decisions.md).
 */
import type { AdminOperation } from './contracts/authorization.js';
import type { KernelApi } from './kernel-api.js';
import { objectResult } from './mcp/shared/results.js';
import { coreToolName, type CallContext, type JsonObject, type ToolAnnotations, type ToolDefinition } from './tools.js';

export interface CoreToolSpec {
  name: string;
  description: string;
  annotations: ToolAnnotations;
  /** The admin operation it performs, if any (kernel/contracts/authorization.ts). */
  operation?: AdminOperation;
  properties?: Record<string, unknown>;
  required?: string[];
  run(args: JsonObject, call: CallContext): Promise<JsonObject>;
}

export function coreTool(prefix: string, spec: CoreToolSpec): ToolDefinition {
  return {
    name: coreToolName(prefix, spec.name),
    kind: 'core',
    description: spec.description,
    annotations: spec.annotations,
    ...(spec.operation ? { operation: spec.operation } : {}),
    inputSchema: { type: 'object', additionalProperties: false, properties: spec.properties ?? {}, required: spec.required ?? [] },
    invoke: async (args, call) => objectResult(await spec.run(args, call)),
  };
}

/** The annotation sets of the specification's core tool table. */
export const ANNOTATIONS = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  readOpenWorld: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  create: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  update: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  start: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  stop: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  restart: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
} as const satisfies Record<string, ToolAnnotations>;

/**
 * Publishes a plugin's core tools as catalogue source `source`, and again whenever the
 * ServicePrefix (part of their names) changes with a configuration load.
 */
export function publishCoreTools(kernel: KernelApi, source: string, build: (prefix: string) => ToolDefinition[]): void {
  let prefix: string | undefined;
  kernel.hooks.onConfigLoad.tap(`core-tools:${source}`, (next) => {
    const p = next.settings.aggregator.servicePrefix;
    if (p === prefix) return;
    prefix = p;
    kernel.catalogue.replaceSource(source, build(p));
  });
}
