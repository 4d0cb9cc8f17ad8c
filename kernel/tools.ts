/**
 * The vocabulary of the catalogue: what a tool is, who may see it and how it runs.
 * Plugins that own tools (upstreams, core tools, workflows) describe them with
 * ToolDefinition; everything else reads CatalogueEntry.
 */
import type { Cancellation } from './cancellation.js';
import type { AdminOperation } from './contracts/authorization.js';
import type { CallToolResult, Icon } from '#mcp-sdk/types.js';
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

/**
 * MCP's icon (2025-11-25, SEP-973): what a client may show beside a tool, resource, template,
 * prompt or implementation. Icons from upstreams are data Switchboard passes on, never fetches;
 * the upstreams plugin keeps only the safe ones (plugins/upstreams/icons.ts).
 */
export type { Icon };

export interface JsonSchemaObject extends JsonObject {
  type?: unknown;
  properties?: Record<string, unknown>;
  required?: unknown;
}

/** What runs a tool. `args` has already passed the tool's inputSchema. */
/**
 * Where a call's final result may be written the moment it is known, before the promises
 * between the upstream's socket and the client's answer settle (docs/decisions.md, "A relayed
 * result answered at once"). Given only by a layer whose own result is the tool's, unchanged
 * (call_tool's), and only to a tool that relays its server's result as it is
 * (`ToolDefinition.relaysResult`); a layer in between that changes results wraps the sink with
 * the same change. Called once or not at all: the call's promise still settles with the same
 * result, and an answer already written makes the later one a no-op.
 */
export type ResultSink = (result: CallToolResult) => void;

/** Runs a tool; `sink` is given only to a tool whose definition says it relays its result. */
export type ToolInvoker = (args: JsonObject, call: CallContext, sink?: ResultSink) => Promise<CallToolResult>;

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
  /** Icons a client may show for the tool; never empty when present. */
  icons?: readonly Icon[];
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
  /** What describe_tool shows of the tool besides its schema (a workflow: the tools its steps call, and who wrote it). */
  details?: JsonObject;
  /** Whether the tool may run as a task (2025-11-25 tasks), as MCP's `Tool.execution` says; absent means forbidden. */
  execution?: { taskSupport?: TaskSupport };
  invoke: ToolInvoker;
  /**
   * `invoke` relays its server's result unchanged and hands it to the sink it is given as soon
   * as it has it: an upstream's plain tool, never a tool whose result is put together (a
   * family's, a workflow's) or checked after the call.
   */
  relaysResult?: true;
}

/** MCP's `execution.taskSupport`: whether a tool may (optional), must (required) or cannot (forbidden) run as a task. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/**
 * A call the caller asked to run as a task (2025-11-25 tasks). The call still resolves with
 * its final result, which becomes the task's; meanwhile the tool's owner tells the task what
 * it runs as and how it goes, so `tasks/get` and `tasks/cancel` reach the real work.
 */
export interface TaskCall {
  /** The task's id, as the caller knows it. */
  readonly id: string;
  /** The time to keep the task the caller asked for, in ms (the task may keep it shorter). */
  readonly ttl?: number;
  /** The call runs as task `taskId` of upstream `server` (recorded with the task; cancelling the call cancels it there). */
  runsAs(ref: { server: string; taskId: string }): void;
  /** A status before the final one: `working` with a message, or `input_required` while the work waits on the caller. */
  status(status: 'working' | 'input_required', message?: string): void;
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
  /** Present when the caller asked for the call to run as a task; a workflow's steps do not inherit it (the run is the task). */
  task?: TaskCall;
}

/** Whether `server` serves this tool: it is its server, or a family member that has it. */
export function servedBy(tool: Pick<ToolDefinition, 'server' | 'servers'>, server: string): boolean {
  return tool.server === server || (tool.servers?.includes(server) ?? false);
}

/** Core tool names carry the configured ServicePrefix: `<prefix>_core_...` (none when empty). */
export function coreToolName(prefix: string, base: string): string {
  return prefix ? `${prefix}_${base}` : base;
}
