/** An upstream's tools and prompts under their catalogue names. */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamPrompt } from '../../kernel/contracts/lifecycle.js';
import type { JsonSchemaObject, ToolDefinition } from '../../kernel/tools.js';
import type { UpstreamConnection } from './connection.js';

export function externalName(conn: UpstreamConnection, name: string): string {
  return `x_${conn.def.toolPrefix ?? conn.def.name}_${name}`;
}

/** Listed while running and while reconnecting after a drop; not once stopped. */
function listed(conn: UpstreamConnection): boolean {
  return conn.state !== 'stopped' && conn.state !== 'stopping';
}

export function toolDefinitions(conn: UpstreamConnection): ToolDefinition[] {
  if (!listed(conn)) return [];
  return conn.tools.map((tool: Tool) => {
    const original = tool.name;
    const def: ToolDefinition = {
      name: externalName(conn, original),
      kind: 'tool',
      description: tool.description ?? tool.title ?? '',
      inputSchema: tool.inputSchema as JsonSchemaObject,
      server: conn.name,
      originalName: original,
      invoke: (args, call) => conn.callTool(original, args, call),
    };
    if (tool.outputSchema) def.outputSchema = tool.outputSchema as JsonSchemaObject;
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
    return entry;
  });
}
