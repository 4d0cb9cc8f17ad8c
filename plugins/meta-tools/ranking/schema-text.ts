/**
 * The words a tool's input schema adds to what its name and description say: its
 * properties' names, their descriptions and their enumerated values, nested properties and
 * array items included. A request often names what a tool takes rather than what it does
 * ("send it tomorrow at 8am" is a tool with a `send_at`, "relabel" one with `labels`), and
 * short descriptions leave that to the schema. Ranked as a field of its own, weighted below
 * the description (ranking.ts), so a tool is never found by its parameters over its purpose.
 */
import type { JsonSchemaObject } from '../../../kernel/index.js';

/** Guard: a generated schema of thousands of properties must not make the index unbounded. */
export const MAX_SCHEMA_TEXT = 2048;
/** How deep nested objects are read: deeper properties describe data, not what the tool is for. */
const MAX_DEPTH = 2;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The schema's property names, descriptions and string enum values (an array's too) as one text, at most MAX_SCHEMA_TEXT characters. */
export function schemaText(schema: JsonSchemaObject | undefined): string {
  const parts: string[] = [];
  let length = 0;
  const add = (text: string): boolean => {
    if (length >= MAX_SCHEMA_TEXT) return false;
    parts.push(text);
    length += text.length + 1;
    return true;
  };
  // An array of choices ("groupStates": alert, warn, ok) says them on its items.
  const addEnum = (node: Record<string, unknown>): boolean => {
    if (!Array.isArray(node.enum)) return true;
    for (const v of node.enum) if (typeof v === 'string' && !add(v)) return false;
    return true;
  };
  const walk = (node: unknown, depth: number): void => {
    if (!isRecord(node) || depth > MAX_DEPTH) return;
    const properties = node.properties;
    if (isRecord(properties)) {
      for (const [name, property] of Object.entries(properties)) {
        if (!add(name)) return;
        if (!isRecord(property)) continue;
        if (typeof property.description === 'string' && !add(property.description)) return;
        if (!addEnum(property) || (isRecord(property.items) && !addEnum(property.items))) return;
        walk(property, depth + 1);
      }
    }
    if (isRecord(node.items)) walk(node.items, depth + 1);
  };
  walk(schema, 0);
  return parts.join(' ').slice(0, MAX_SCHEMA_TEXT);
}
