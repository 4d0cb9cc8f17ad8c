/** An upstream's tools and prompts under their catalogue names. */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallContext, JsonObject, ToolDefinition, UpstreamPrompt } from '../../kernel/index.js';
import type { UpstreamConnection } from './connection.js';

export function externalName(conn: UpstreamConnection, name: string): string {
  return `x_${conn.def.toolPrefix ?? conn.def.name}_${name}`;
}

/** Listed while running and while reconnecting after a drop; not once stopped. */
function listed(conn: UpstreamConnection): boolean {
  return conn.state !== 'stopped' && conn.state !== 'stopping';
}

/** How a tool of the server runs: on the connection itself, or (signed in) on the caller's own. */
export type ToolRunner = (originalName: string, args: JsonObject, call: CallContext) => Promise<CallToolResult>;

/** `conn`'s tools, or `tools` listed for it elsewhere (a signed-in owner's connection) run by `run`. */
export function toolDefinitions(conn: UpstreamConnection, tools: readonly Tool[] = conn.tools, run?: ToolRunner): ToolDefinition[] {
  if (!listed(conn)) return [];
  return tools.map((tool: Tool) => {
    const original = tool.name;
    const def: ToolDefinition = {
      name: externalName(conn, original),
      kind: 'tool',
      description: tool.description ?? tool.title ?? '',
      inputSchema: tool.inputSchema,
      server: conn.name,
      originalName: original,
      invoke: run ? (args, call) => run(original, args, call) : (args, call) => conn.callTool(original, args, call),
    };
    if (tool.outputSchema) def.outputSchema = tool.outputSchema;
    // Already checked as the list arrived (icons.ts): kept or gone, never raw.
    if (tool.icons) def.icons = tool.icons;
    if (tool.annotations) {
      const { title: _title, ...hints } = tool.annotations;
      if (Object.keys(hints).length) def.annotations = hints;
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
