/**
 * The vocabulary of the catalogue: what a tool is, who may see it and how it runs.
 * Plugins that own tools (upstreams, core tools, workflows) describe them with
 * ToolDefinition; everything else reads CatalogueEntry.
 */
import type { Cancellation } from './cancellation.js';
import type { AdminOperation } from './contracts/authorization.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ClientChannel } from './mcp/shared/client-channel.js';
import type { RequestContext } from './request-context.js';

export type ToolKind = 'tool' | 'workflow' | 'core';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type JsonObject = { [key: string]: unknown };

export interface JsonSchemaObject extends JsonObject {
  type?: unknown;
  properties?: Record<string, unknown>;
  required?: unknown;
}

/** What runs a tool. `args` has already passed the tool's inputSchema. */
export type ToolInvoker = (args: JsonObject, call: CallContext) => Promise<CallToolResult>;

export interface ToolDefinition {
  /** The catalogue name: `core_*`, `x_<server>_<tool>` or `workflow_<name>`. */
  name: string;
  kind: ToolKind;
  description: string;
  inputSchema: JsonSchemaObject;
  outputSchema?: JsonSchemaObject;
  /** Set for external tools only; for a family's tool, the family's name. */
  server?: string;
  /** A family's tool: the member servers that have it (the values of its instance argument). */
  servers?: readonly string[];
  /** The name the owner knows the tool by (the upstream's own tool name). */
  originalName?: string;
  annotations?: ToolAnnotations;
  labels?: Record<string, string>;
  /** A core tool that performs an admin operation says which: callers who may never perform it do not see the tool. */
  operation?: AdminOperation;
  /**
   * The tool checks its arguments itself (a workflow: reserved arguments and wording clients
   * match on), so the kernel does not validate them against `inputSchema`, which stays what
   * clients are shown.
   */
  checksOwnArguments?: true;
  /**
   * What the kernel checks arguments against when it is not `inputSchema`: a family's tool
   * checks its instance argument itself, so that its refusal can name the members that are
   * there now rather than the enum clients were last shown.
   */
  validationSchema?: JsonSchemaObject;
  invoke: ToolInvoker;
}

/** One tool call in flight. */
export interface CallContext {
  request: RequestContext;
  /** Fires when the caller cancels or the call is abandoned; `cancellation.signal` is an AbortSignal for fetch and the like. */
  cancellation: Cancellation;
  /** Present when the client asked for progress; forwards progress of this call. */
  progress?: (progress: number, total?: number, message?: string) => Promise<void>;
  /** Nesting depth: 0 for call_tool, +1 for each workflow step. */
  depth: number;
  /** The way back to the calling client, for what an upstream asks or logs during the call. */
  client?: ClientChannel;
}

/** Whether `server` serves this tool: it is its server, or a family member that has it. */
export function servedBy(tool: Pick<ToolDefinition, 'server' | 'servers'>, server: string): boolean {
  return tool.server === server || (tool.servers?.includes(server) ?? false);
}

/** Core tool names carry the configured ServicePrefix: `<prefix>_core_...` (none when empty). */
export function coreToolName(prefix: string, base: string): string {
  return prefix ? `${prefix}_${base}` : base;
}
