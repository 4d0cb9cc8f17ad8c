/**
 * A tool's TypeScript signature, derived from its input and output schemas, so that a model
 * writing a script sees the call it can make: `tools.x_memory_create_entities(args: {...}):
 * Promise<...>`. The mapping is docs/code-mode.md's table ("Types"). A signature is a hint,
 * not a validator (the invoker validates every call against the schema itself), so whatever
 * does not map, or would cost too much, is `unknown`.
 *
 * Schemas come from upstream servers: hostile input. Bounds keep a signature small and its
 * making short, whatever the schema: nesting past MAX_DEPTH is `unknown`; each type may visit
 * MAX_NODES schema nodes (a `$ref` costs one each time it is followed, so references that fan
 * out exponentially stop at the budget; a reference to a schema already being expanded is
 * `unknown`, so a cycle ends at once); an object whose members pass MEMBER_CHARS ends
 * with an index signature `[key: string]: unknown` for the rest; and should the whole still be
 * longer, it is made again shallower, and at last as `(args: Record<string, unknown>):
 * Promise<unknown>`.
 * Each is made once per catalogue entry (entries are immutable; a change makes new ones).
 */
import type { CatalogueEntry } from '../../kernel/index.js';

/** How deep a type nests before `unknown`. */
const MAX_DEPTH = 8;
/** Schema nodes (enum literals included) one type may visit. */
const MAX_NODES = 2000;
/** The most a signature may be beyond the tool's name; past it, a shallower one. */
export const MAX_SIGNATURE_CHARS = 8192;
/** Members written before an object closes with an index signature: room is left for the rest of the signature. */
const MEMBER_CHARS = MAX_SIGNATURE_CHARS - 1024;
/** Enum literals, union and tuple members shown; more make the base type (or `unknown`). */
const MAX_MEMBERS = 32;
/** A string literal or property name longer than this is not spelled out. */
const MAX_NAME_CHARS = 128;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

type Schema = Record<string, unknown>;

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

function wrap(t: string): string {
  return /[ |&]/.test(t) && !t.startsWith('{') ? `(${t})` : t;
}

function literalKind(v: unknown): string {
  if (v === null) return 'null';
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? typeof v : 'unknown';
}

/** One type's making: its root (for `$ref`), its budget, and the references being expanded. */
class TypeWriter {
  private nodes = 0;
  /** Characters of the members written so far (nested ones counted again in their parent: an overestimate). */
  private chars = 0;
  private readonly expanding = new Set<string>();

  constructor(
    private readonly root: unknown,
    private readonly maxDepth: number,
  ) {}

  typeOf(schema: unknown, depth = 0): string {
    if (!isSchema(schema) || depth > this.maxDepth || ++this.nodes > MAX_NODES) return 'unknown';
    if (typeof schema.$ref === 'string') return this.reference(schema.$ref, depth);
    if ('const' in schema) return this.literal(schema.const);
    if (Array.isArray(schema.enum)) return this.literals(schema.enum);
    const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    if (union) return this.union(union, depth);
    if (Array.isArray(schema.allOf)) return this.intersection(schema.allOf, depth);
    const types: unknown[] = Array.isArray(schema.type) ? schema.type.slice(0, MAX_MEMBERS) : [schema.type];
    return [...new Set(types.map((t) => this.named(t, schema, depth)))].join(' | ');
  }

  private named(type: unknown, schema: Schema, depth: number): string {
    switch (type) {
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
        return this.array(schema, depth);
      case 'object':
        return this.object(schema, depth);
      default:
        return isSchema(schema.properties) ? this.object(schema, depth) : 'unknown';
    }
  }

  /** A local reference (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer into the schema); any other is `unknown`. */
  private reference(ref: string, depth: number): string {
    if ((ref !== '#' && !ref.startsWith('#/')) || this.expanding.has(ref)) return 'unknown';
    let at: unknown = this.root;
    for (const raw of ref === '#' ? [] : ref.slice(2).split('/')) {
      let part: string;
      try {
        part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      } catch {
        return 'unknown';
      }
      if (!isSchema(at) || !Object.prototype.hasOwnProperty.call(at, part)) return 'unknown';
      at = at[part];
    }
    this.expanding.add(ref);
    try {
      return this.typeOf(at, depth + 1);
    } finally {
      this.expanding.delete(ref);
    }
  }

  private literal(v: unknown): string {
    if (typeof v === 'string') return v.length > MAX_NAME_CHARS ? 'string' : JSON.stringify(v);
    return literalKind(v) === 'unknown' ? 'unknown' : JSON.stringify(v);
  }

  private literals(values: unknown[]): string {
    if (values.length === 0) return 'never';
    this.nodes += Math.min(values.length, MAX_MEMBERS);
    // Too many to spell: the types they are of.
    if (values.length > MAX_MEMBERS) {
      const kinds = new Set(values.slice(0, MAX_NODES).map(literalKind));
      return kinds.has('unknown') ? 'unknown' : [...kinds].join(' | ');
    }
    return [...new Set(values.map((v) => this.literal(v)))].join(' | ');
  }

  private union(members: unknown[], depth: number): string {
    if (members.length === 0 || members.length > MAX_MEMBERS) return 'unknown';
    const types = [...new Set(members.map((s) => this.typeOf(s, depth + 1)))];
    return types.includes('unknown') ? 'unknown' : types.join(' | ');
  }

  private intersection(members: unknown[], depth: number): string {
    if (members.length === 0 || members.length > MAX_MEMBERS) return 'unknown';
    const types = [...new Set(members.map((s) => this.typeOf(s, depth + 1)))].filter((t) => t !== 'unknown');
    return types.length ? types.map(wrap).join(' & ') : 'unknown';
  }

  private array(schema: Schema, depth: number): string {
    const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
    if (tuple) return tuple.length > MAX_MEMBERS ? 'unknown[]' : `[${tuple.map((s) => this.typeOf(s, depth + 1)).join(', ')}]`;
    return `${wrap(this.typeOf(schema.items, depth + 1))}[]`;
  }

  private object(s: Schema, depth: number): string {
    const props = isSchema(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []);
    const members: string[] = [];
    let open = false;
    for (const [name, sub] of Object.entries(props)) {
      // Out of budget, or a name too long to spell: the rest are covered by an index signature.
      if (this.nodes >= MAX_NODES || this.chars >= MEMBER_CHARS || name.length > MAX_NAME_CHARS) {
        open = true;
        break;
      }
      const member = `${key(name)}${required.has(name) ? '' : '?'}: ${this.typeOf(sub, depth + 1)}`;
      this.chars += member.length + 2;
      members.push(member);
    }
    if (!open && isSchema(s.additionalProperties)) members.push(`[key: string]: ${this.typeOf(s.additionalProperties, depth + 1)}`);
    else if (open || (s.additionalProperties === true && members.length > 0)) members.push('[key: string]: unknown');
    else if (members.length === 0 && s.additionalProperties !== false) return 'Record<string, unknown>';
    return `{ ${members.join('; ')} }`;
  }
}

/** The TypeScript type of one schema (its references resolved within it). */
export function typeOf(schema: unknown, maxDepth = MAX_DEPTH): string {
  return new TypeWriter(schema, maxDepth).typeOf(schema);
}

function call(name: string, args: string, result: string): string {
  const access = IDENTIFIER.test(name) ? `tools.${name}` : `tools[${JSON.stringify(name)}]`;
  return `${access}(args: ${args}): Promise<${result}>`;
}

const made = new WeakMap<CatalogueEntry, string>();

/**
 * `tools.<name>(args: In): Promise<Out>`. Out is the output schema's type when the tool
 * declares one (the script receives structuredContent), else `unknown` (the script receives
 * the text the tool returned, or its content array when it is not all text). At most
 * MAX_SIGNATURE_CHARS beyond the name: shallower when the full one is longer.
 */
export function signatureOf(entry: CatalogueEntry): string {
  const known = made.get(entry);
  if (known !== undefined) return known;
  const limit = MAX_SIGNATURE_CHARS + entry.name.length;
  let signature = call(entry.name, 'Record<string, unknown>', 'unknown');
  for (const depth of [MAX_DEPTH, 2, 0]) {
    const full = call(entry.name, typeOf(entry.inputSchema, depth), entry.outputSchema ? typeOf(entry.outputSchema, depth) : 'unknown');
    if (full.length <= limit) {
      signature = full;
      break;
    }
  }
  made.set(entry, signature);
  return signature;
}
