/**
 * A tool's TypeScript signature, derived from its input and output schemas, so that a model
 * writing a script sees the call it can make: `tools.x_memory_create_entities(args: {...}):
 * Promise<...>`. The mapping (docs/code-mode.md, "Types"): JSON Schema's types to their
 * TypeScript names, `enum`/`const` to literal unions, `properties` to an object type whose
 * optional members are those not in `required`, `items` to an array, `anyOf`/`oneOf` to a
 * union, `additionalProperties` to an index signature; anything else is `unknown`. Nesting
 * past MAX_DEPTH is `unknown` too: a signature is a hint, not a validator (the invoker
 * validates every call against the schema itself).
 */
import type { CatalogueEntry } from '../../kernel/index.js';

const MAX_DEPTH = 4;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

type Schema = Record<string, unknown>;

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function literal(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null ? JSON.stringify(v) : 'unknown';
}

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

function objectType(s: Schema, depth: number): string {
  const props = isSchema(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []);
  const members = Object.entries(props).map(([name, sub]) => `${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(sub, depth + 1)}`);
  if (isSchema(s.additionalProperties)) members.push(`[key: string]: ${typeOf(s.additionalProperties, depth + 1)}`);
  else if (members.length === 0 && s.additionalProperties !== false) return 'Record<string, unknown>';
  return `{ ${members.join('; ')} }`;
}

/** The TypeScript type of one schema. */
export function typeOf(schema: unknown, depth = 0): string {
  if (!isSchema(schema) || depth > MAX_DEPTH) return 'unknown';
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ') || 'never';
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union) return union.map((s) => typeOf(s, depth + 1)).join(' | ') || 'unknown';
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const mapped = types.map((t) => {
    switch (t) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array':
        return `${wrap(typeOf(schema.items, depth + 1))}[]`;
      case 'object':
        return objectType(schema, depth);
      default:
        return isSchema(schema.properties) ? objectType(schema, depth) : 'unknown';
    }
  });
  return mapped.join(' | ');
}

function wrap(t: string): string {
  return /[ |]/.test(t) && !t.startsWith('{') ? `(${t})` : t;
}

/**
 * `tools.<name>(args: In): Promise<Out>`. Out is the output schema's type when the tool
 * declares one (the script receives structuredContent), else `unknown` (the script receives
 * the text the tool returned, or its content array when it is not all text).
 */
export function signatureOf(entry: CatalogueEntry): string {
  const access = IDENTIFIER.test(entry.name) ? `tools.${entry.name}` : `tools[${JSON.stringify(entry.name)}]`;
  const out = entry.outputSchema ? typeOf(entry.outputSchema) : 'unknown';
  return `${access}(args: ${typeOf(entry.inputSchema)}): Promise<${out}>`;
}
