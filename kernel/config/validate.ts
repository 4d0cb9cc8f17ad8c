/**
 * ajv validation of configuration documents against schemas/. Schema defaults are the
 * built-in defaults (ajv `useDefaults` fills them in), so the schema is the one place a
 * default is written down, and docs/config-reference.md is generated from it.
 */
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigProblem } from '../errors.js';
import { closestName } from './did-you-mean.js';
import { packageRoot } from '../paths.js';
import { loadPrebuilt, PREBUILT_DIR, validatorFingerprint } from './prebuilt-validators.js';
import { PrecheckedAjv } from './meta-schema-check.js';
import type { ParsedYaml, PathSegment } from './yaml-document.js';

/** A schema of schemas/, by file name. */
export type SchemaName = 'config' | 'mcpserver' | 'workflow';
export const SCHEMA_NAMES: readonly SchemaName[] = ['config', 'mcpserver', 'workflow'];
/** A schema a plugin brings for a kind of its own. */
export type JsonSchema = Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export function createAjv(options: Options = {}): Ajv {
  const ajv = new PrecheckedAjv({ allErrors: true, useDefaults: true, strict: false, allowUnionTypes: true, ...options });
  addFormats(ajv);
  return ajv;
}

let kernelAjv: Ajv | undefined;

/**
 * One instance for the schemas plugins bring to the kernel (their options, their meta-tools'
 * arguments): each instance compiles JSON Schema's meta-schema before its first schema,
 * 50-60 ms of CPU at every start that a second instance paid again.
 */
export function sharedAjv(): Ajv {
  return (kernelAjv ??= createAjv());
}

// verbose: an error carries the schema object it came from; a `$ref`'d definition's schemaPath
// starts again at `#/`, so the path alone cannot find the fields a workflow step accepts.
// The build compiles schemas/ with exactly these options (prebuild.ts).
export const VALIDATOR_OPTIONS = { verbose: true } as const;
let documentAjvInstance: Ajv | undefined;
/**
 * The instance that compiles what the build did not (a plugin's own kind, a stale prebuilt
 * file): made at the first such schema, since a start with the build's validators needs none
 * and making one (ajv-formats' formats registered) is CPU at every start and heap kept.
 */
function documentAjv(): Ajv {
  return (documentAjvInstance ??= createAjv(VALIDATOR_OPTIONS));
}
/** A schema's validator and the schema it checks against (where an error's schemaPath starts). */
const compiled = new Map<SchemaName, { validate: ValidateFunction; root: unknown }>();
const compiledOwn = new WeakMap<JsonSchema, ValidateFunction>();

export function schemaText(name: SchemaName): string {
  return readFileSync(join(packageRoot(), 'schemas', `${name}.schema.json`), 'utf8');
}

export function loadSchema(name: SchemaName): Record<string, unknown> {
  return JSON.parse(schemaText(name)) as Record<string, unknown>;
}

function validator(schema: SchemaName | JsonSchema): { validate: ValidateFunction; root: unknown } {
  if (typeof schema !== 'string') {
    let own = compiledOwn.get(schema);
    if (!own) compiledOwn.set(schema, (own = documentAjv().compile(schema)));
    return { validate: own, root: schema };
  }
  let v = compiled.get(schema);
  if (!v) {
    const text = schemaText(schema);
    const root = JSON.parse(text) as Record<string, unknown>;
    // The build's copy when it was compiled from this very text (prebuilt-validators.ts).
    const validate = loadPrebuilt(PREBUILT_DIR, schema, validatorFingerprint(text, VALIDATOR_OPTIONS)) ?? documentAjv().compile(root);
    compiled.set(schema, (v = { validate, root }));
  }
  return v;
}

function pathOf(instancePath: string): PathSegment[] {
  if (!instancePath) return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** The names of the properties the object at an error's schema path accepts (same document only). */
function acceptedNames(root: unknown, schemaPath: string): string[] {
  if (!schemaPath.startsWith('#/')) return [];
  let node: unknown = root;
  for (const part of schemaPath.slice(2).split('/').slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return [];
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  const properties = typeof node === 'object' && node !== null ? (node as { properties?: unknown }).properties : undefined;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/**
 * A key as a problem may quote it: a name (what a mistyped field is) as written, anything else
 * not at all. A document that is not a definition (a link to /etc/shadow: each line ending in
 * ':' parses as a key) must not have its lines printed into the log, events and check.
 */
const NAME_LIKE = /^[\w.-]{1,64}$/;
export const UNQUOTED_KEY = '<key>';

function shownKey(key: PathSegment): PathSegment {
  return typeof key === 'number' || NAME_LIKE.test(key) ? key : UNQUOTED_KEY;
}

function describe(err: ErrorObject, root: unknown): { key?: string; extra: PathSegment[]; message: string } {
  switch (err.keyword) {
    case 'additionalProperties': {
      const key = String((err.params as { additionalProperty: unknown }).additionalProperty);
      if (!NAME_LIKE.test(key))
        return { key, extra: [UNQUOTED_KEY], message: `unknown field (a key of ${key.length} characters that is not a field name; not quoted)` };
      const own = (err.parentSchema as { properties?: unknown } | undefined)?.properties;
      const names = typeof own === 'object' && own !== null ? Object.keys(own) : acceptedNames(root, err.schemaPath);
      const near = closestName(key, names);
      return { key, extra: [key], message: `unknown field '${key}'${near ? ` (did you mean '${near}'?)` : ''}` };
    }
    case 'required': {
      const key = String((err.params as { missingProperty: unknown }).missingProperty);
      return { extra: [key], message: `required field '${key}' is missing` };
    }
    case 'enum':
      return {
        extra: [],
        message: `must be one of ${(err.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`,
      };
    default:
      return { extra: [], message: err.message ?? 'is invalid' };
  }
}

/**
 * Validates (and fills defaults into) `value`. Problems carry the position of the offending
 * node in `parsed`; `basePath` is where `value` sits inside the parsed document.
 */
export function validateDocument(
  schema: SchemaName | JsonSchema,
  value: unknown,
  parsed: Pick<ParsedYaml, 'file' | 'locate'>,
  basePath: readonly PathSegment[] = [],
): ConfigProblem[] {
  const { validate, root } = validator(schema);
  if (validate(value)) return [];
  const seen = new Set<string>();
  const problems: ConfigProblem[] = [];
  for (const err of validate.errors ?? []) {
    // oneOf/anyOf produce one error per branch plus a summary; the branch errors say more.
    if (err.keyword === 'oneOf' || err.keyword === 'anyOf' || err.keyword === 'if') continue;
    const path = pathOf(err.instancePath);
    const d = describe(err, root);
    const fieldPath = [...path.map(shownKey), ...d.extra];
    const pos = parsed.locate([...basePath, ...path], d.key);
    const p: ConfigProblem = { file: parsed.file, ...pos, field: fieldPath.join('.'), message: d.message };
    const k = `${p.line}:${p.field}:${p.message}`;
    if (!seen.has(k)) {
      seen.add(k);
      problems.push(p);
    }
  }
  return mergeTypeAlternatives(problems);
}

/** The branches of a oneOf each say `must be <type>`: one line `must be string or array` says it better. */
function mergeTypeAlternatives(problems: ConfigProblem[]): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  const typeLine = new Map<string, ConfigProblem>();
  for (const p of problems) {
    const type = /^must be (\w+)$/.exec(p.message)?.[1];
    const earlier = type ? typeLine.get(`${p.line}:${p.field}`) : undefined;
    if (earlier) {
      earlier.message = `${earlier.message} or ${type}`;
      continue;
    }
    if (type) typeLine.set(`${p.line}:${p.field}`, p);
    out.push(p);
  }
  return out;
}
