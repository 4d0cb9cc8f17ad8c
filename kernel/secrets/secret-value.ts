/**
 * Values of an MCP server's `env` and `headers` may keep their secret out of the YAML:
 * `${NAME}` is replaced by Switchboard's own environment variable NAME, and
 * `{fromFile: path, prefix?}` by the contents of that file (relative paths from the
 * configuration directory, one trailing newline dropped) after the prefix. They are resolved when the server connects,
 * so a rotated file or variable takes effect on the next (re)start.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { SwitchboardError } from '../errors.js';

export interface FileReference {
  fromFile: string;
  /** Written before the file's contents (`Bearer ` for a file that holds a bare token). */
  prefix?: string;
}

/** A value as written in a definition. */
export type SecretValue = string | FileReference;

/** `${NAME}` where NAME is an environment variable name. `$${` writes a literal `${`. */
export const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export class SecretUnresolvedError extends SwitchboardError {
  constructor(field: string, reason: string) {
    super('SECRET_UNRESOLVED', `${field}: ${reason}`, { field });
  }
}

export function isFileReference(value: unknown): value is FileReference {
  return typeof value === 'object' && value !== null && typeof (value as FileReference).fromFile === 'string';
}

/** True when the value takes (part of) its content from outside the definition. */
export function isReference(value: SecretValue): boolean {
  if (isFileReference(value)) return true;
  for (const m of value.matchAll(REFERENCE)) if (m[1]) return true;
  return false;
}

export interface ResolveContext {
  configPath: string;
  env: NodeJS.ProcessEnv;
  /** Receives every value that came from a reference, so logs and results can scrub it. */
  onSecret?: (value: string) => void;
}

function expand(text: string, field: string, ctx: ResolveContext): string {
  return text.replace(REFERENCE, (whole, name: string | undefined) => {
    if (!name) return '${';
    const value = ctx.env[name];
    if (value === undefined) throw new SecretUnresolvedError(field, `\${${name}} is not set in Switchboard's environment`);
    ctx.onSecret?.(value);
    return value;
  });
}

function readReferencedFile(ref: FileReference, field: string, ctx: ResolveContext): string {
  const path = isAbsolute(ref.fromFile) ? ref.fromFile : resolve(ctx.configPath, ref.fromFile);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // Never which error: whether a file exists, or is a directory, is itself worth knowing.
    throw new SecretUnresolvedError(field, `cannot read the referenced file '${ref.fromFile}'`);
  }
  const value = text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
  ctx.onSecret?.(value);
  // An empty file stays empty with its prefix: what reads "no value" must still read so.
  return ref.prefix && value !== '' ? ref.prefix + value : value;
}

export function resolveSecretValue(value: SecretValue, field: string, ctx: ResolveContext): string {
  return isFileReference(value) ? readReferencedFile(value, field, ctx) : expand(value, field, ctx);
}

/** Resolves every value of an env or headers map; the first unresolvable one throws, naming its field. */
export function resolveSecretMap(map: Readonly<Record<string, SecretValue>>, field: string, ctx: ResolveContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) out[key] = resolveSecretValue(value, `${field}.${key}`, ctx);
  return out;
}
