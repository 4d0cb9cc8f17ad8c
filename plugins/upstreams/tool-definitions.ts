/** An upstream's tools and prompts under their catalogue names. */
import type { CallToolResult, Tool } from '#mcp-sdk/types.js';
import type { CallContext, JsonObject, TaskSupport, ToolAnnotations, ToolDefinition, ToolInvoker, UpstreamPrompt } from '../../kernel/index.js';
import type { UpstreamConnection } from './connection.js';

/**
 * Hints by their JSON text, one object for every tool that has the same ones (a server's
 * thousand tools carry a handful of distinct combinations of readOnlyHint and the like):
 * 40 bytes a tool otherwise. Held weakly, so hints no tool has any more are forgotten.
 */
const hintsByText = new Map<string, WeakRef<ToolAnnotations>>();
const forgetHints = new FinalizationRegistry<string>((key) => {
  if (hintsByText.get(key)?.deref() === undefined) hintsByText.delete(key);
});

function sharedHints(hints: ToolAnnotations): ToolAnnotations {
  const key = JSON.stringify(hints);
  const existing = hintsByText.get(key)?.deref();
  if (existing) return existing;
  hintsByText.set(key, new WeakRef(hints));
  forgetHints.register(hints, key);
  return hints;
}

export function externalName(conn: UpstreamConnection, name: string): string {
  return `x_${conn.def.toolPrefix ?? conn.def.name}_${name}`;
}

/** Listed while running and while reconnecting after a drop; not once stopped. */
function listed(conn: UpstreamConnection): boolean {
  return conn.state !== 'stopped' && conn.state !== 'stopping';
}

/** How a tool of the server runs: on the connection itself, or (signed in) on the caller's own; `asTask` runs it as a task of the server. */
export type ToolRunner = (originalName: string, args: JsonObject, call: CallContext, asTask: boolean) => Promise<CallToolResult>;

/**
 * Whether a tool runs as a task of its server, decided once per listing: never when the
 * server did not declare task support (the protocol forbids asking), always when the tool
 * requires it (a caller that asked for no task waits for the result all the same), and when
 * the caller asked for a task if the tool allows one.
 */
export function taskSupportOf(tool: Tool, serverRunsTasks: boolean): Exclude<TaskSupport, 'forbidden'> | undefined {
  const support = tool.execution?.taskSupport;
  return serverRunsTasks && (support === 'optional' || support === 'required') ? support : undefined;
}

function invoker(support: TaskSupport | undefined, run: (args: JsonObject, call: CallContext, asTask: boolean) => Promise<CallToolResult>): ToolInvoker {
  if (support === 'required') return (args, call) => run(args, call, true);
  if (support === 'optional') return (args, call) => run(args, call, call.task !== undefined);
  return (args, call) => run(args, call, false);
}

/** How `conn` runs its tool `tool`: as a task of the server when the tool may or must run as one (decided here, once). */
export function memberInvoker(conn: UpstreamConnection, tool: Tool): ToolInvoker {
  const original = tool.name;
  const support = taskSupportOf(tool, conn.runsToolTasks);
  if (support === undefined) return (args, call) => conn.callTool(original, args, call);
  return invoker(support, (args, call, asTask) => (asTask ? conn.callToolTask(original, args, call) : conn.callTool(original, args, call)));
}

/**
 * `tools` without those the definition switches off (`disabledTools`, by their names on the
 * server). Filtered where tools enter the catalogue, so every toolset, listing and search
 * follows without a check of its own, and a call to one is refused as for an unknown tool.
 */
export function enabledTools(conn: UpstreamConnection, tools: readonly Tool[]): readonly Tool[] {
  const off = conn.def.disabledTools;
  if (!off?.length) return tools;
  const set = new Set(off);
  return tools.filter((t) => !set.has(t.name));
}

/** `conn`'s tools, or `tools` listed for it elsewhere (a signed-in owner's connection) run by `run`. */
export function toolDefinitions(conn: UpstreamConnection, listedTools: readonly Tool[] = conn.tools, run?: ToolRunner): ToolDefinition[] {
  if (!listed(conn)) return [];
  const tools = enabledTools(conn, listedTools);
  // A signed-in owner's connection is asked at call time (it falls back to a plain call when its server runs no tasks).
  const serverRunsTasks = run !== undefined || conn.runsToolTasks;
  return tools.map((tool: Tool) => {
    const original = tool.name;
    const support = taskSupportOf(tool, serverRunsTasks);
    const def: ToolDefinition = {
      name: externalName(conn, original),
      kind: 'tool',
      description: tool.description ?? tool.title ?? '',
      inputSchema: tool.inputSchema,
      server: conn.name,
      originalName: original,
      // The plain path stays the one closure it always was: no task check per call.
      invoke:
        support === undefined && !run
          ? (args, call, sink) => conn.callTool(original, args, call, sink)
          : invoker(support, (args, call, asTask) =>
              run ? run(original, args, call, asTask) : asTask ? conn.callToolTask(original, args, call) : conn.callTool(original, args, call),
            ),
    };
    // The plain path relays its server's result as it comes: it may be answered at once.
    if (support === undefined && !run) def.relaysResult = true;
    if (support) def.execution = { taskSupport: support };
    if (tool.outputSchema) def.outputSchema = tool.outputSchema;
    // Already checked as the list arrived (icons.ts): kept or gone, never raw.
    if (tool.icons) def.icons = tool.icons;
    if (tool.annotations) {
      const { title: _title, ...hints } = tool.annotations;
      if (Object.keys(hints).length) def.annotations = sharedHints(hints);
    }
    return def;
  });
}

export function promptEntries(conn: UpstreamConnection): UpstreamPrompt[] {
  if (!listed(conn)) return [];
  return conn.prompts.map((p) => {
    const entry: UpstreamPrompt = { name: externalName(conn, p.name), server: conn.name, originalName: p.name };
    if (p.description) entry.description = p.description;
    if (p.arguments) entry.arguments = p.arguments.map((a) => ({ ...a }));
    if (p.icons) entry.icons = p.icons;
    return entry;
  });
}
