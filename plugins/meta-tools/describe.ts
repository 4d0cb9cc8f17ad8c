/** The full form of a catalogue entry (describe_tool, include_schema). */
import type { CatalogueEntry, JsonObject } from '../../kernel/index.js';

export function invocationText(entry: CatalogueEntry): string {
  const example = JSON.stringify({ name: entry.name, arguments: {} });
  return `call_tool(${example}): run it through the meta-tool call_tool with 'name' and 'arguments'; tools inside Switchboard are not callable by name directly.`;
}

export function fullEntry(entry: CatalogueEntry): JsonObject {
  const out: JsonObject = { ...entry.discovery, description: entry.description, inputSchema: entry.inputSchema };
  if (entry.outputSchema) out.outputSchema = entry.outputSchema;
  return out;
}
