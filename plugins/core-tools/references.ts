/**
 * References are the operator's. `${NAME}` and `{fromFile}` in a definition read Switchboard's
 * own environment and files when the server connects, and the value travels to the server (a
 * header to a URL the writer chose). In files the operator writes they are honoured as ever;
 * in a definition written through core_mcpserver_create/update a new reference is refused,
 * except for an administrator naming a variable in `secrets.allowedEnv` or a file under
 * `secrets.allowedDirs`. A reference sent back unchanged (core_mcpserver_get shows them as
 * written) is not new, and passes.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { ForbiddenError, isFileReference, isReference, REFERENCE, type Principal, type SecretValue, type Settings } from '../../kernel/index.js';

const RULE = 'secrets.references';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The path with links resolved as far as it exists (a file not there yet: its directory). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : resolve(real(parent), path.slice(parent.length + 1));
  }
}

function within(path: string, dirs: readonly string[]): boolean {
  return dirs.some((d) => path === d || path.startsWith(d.endsWith(sep) ? d : d + sep));
}

function refuse(field: string, why: string): never {
  throw new ForbiddenError(
    `Forbidden: ${field}: ${why}; references (\${NAME}, {fromFile}) in definitions written through Switchboard are the operator's (secrets.allowedEnv, secrets.allowedDirs) [rule: ${RULE}]`,
    { field, rule: RULE },
  );
}

function checkValue(value: SecretValue, field: string, principal: Principal, settings: Settings, configPath: string): void {
  if (!principal.admin) refuse(field, 'only administrators may reference the environment or files');
  if (isFileReference(value)) {
    const dirs = settings.secrets.allowedDirs.map((d) => real(isAbsolute(d) ? d : resolve(configPath, d)));
    const path = real(isAbsolute(value.fromFile) ? value.fromFile : resolve(configPath, value.fromFile));
    if (!within(path, dirs)) refuse(field, `the file '${value.fromFile}' is not under secrets.allowedDirs`);
    return;
  }
  for (const m of value.matchAll(REFERENCE)) {
    const name = m[1];
    if (name && !settings.secrets.allowedEnv.includes(name)) refuse(field, `\${${name}} is not in secrets.allowedEnv`);
  }
}

/** Throws FORBIDDEN for a new reference in `given` (env or headers as sent) that the caller may not make. */
export function checkReferences(
  field: 'env' | 'headers' | 'auth.tokenExchange',
  given: Readonly<Record<string, SecretValue>> | undefined,
  stored: Readonly<Record<string, SecretValue>> | undefined,
  principal: Principal,
  settings: Settings,
  configPath: string,
): void {
  for (const [key, value] of Object.entries(given ?? {})) {
    if (!isReference(value) || same(stored?.[key], value)) continue;
    checkValue(value, `${field}.${key}`, principal, settings, configPath);
  }
}
