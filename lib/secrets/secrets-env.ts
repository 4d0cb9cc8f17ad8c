/**
 * secrets.env: an `.env`-style file in the configuration directory whose variables the
 * operator's definitions reference as `${NAME}`, like Switchboard's own environment (which
 * wins when both set a name, as dotenv does). `import` and `add` put the literal credentials
 * they find there, so that the YAML holds references only (docs/secrets.md).
 *
 * The form is the common subset of dotenv, docker compose's env_file and systemd's
 * EnvironmentFile: `NAME=value` lines, `#` comments, an optional `export `, values optionally
 * in double quotes (with \" \\ \n escapes) or single quotes (literal). No `$` expansion.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SECRETS_ENV = 'secrets.env';

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/;

function unquote(raw: string): string {
  if (raw.length >= 2 && raw.startsWith("'") && raw.endsWith("'")) return raw.slice(1, -1);
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) return raw.slice(1, -1).replace(/\\(["\\n])/g, (_m, c: string) => (c === 'n' ? '\n' : c));
  // An unquoted value ends at a ` #` comment.
  return raw.replace(/\s+#.*$/, '');
}

/** The variables of a secrets.env text; a line that is not `NAME=value` is skipped. */
export function parseSecretsEnv(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(#|$)/.test(line)) continue;
    const m = LINE.exec(line);
    if (m) out.set(m[1]!, unquote(m[2]!));
  }
  return out;
}

/** One `NAME=value` line that parseSecretsEnv (and dotenv) reads back as `value`. */
export function secretsEnvLine(name: string, value: string): string {
  if (/^[A-Za-z0-9_\-.:/+=@%,~]*$/.test(value)) return `${name}=${value}`;
  return `${name}="${value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`;
}

export function secretsEnvPath(configPath: string): string {
  return join(configPath, SECRETS_ENV);
}

/** The file's text, '' when there is none. Read at each connect: an edit applies on the next (re)start. */
export function readSecretsEnvText(configPath: string): string {
  try {
    return readFileSync(secretsEnvPath(configPath), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/**
 * What `${NAME}` reads for definitions of this configuration directory: Switchboard's
 * environment over secrets.env. An unreadable secrets.env counts as empty here: the
 * reference that needed it fails, naming the variable.
 */
export function referenceEnvironment(configPath: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  let text = '';
  try {
    text = readSecretsEnvText(configPath);
  } catch {
    // Unreadable: as if absent (see above).
  }
  if (!text) return env;
  return { ...Object.fromEntries(parseSecretsEnv(text)), ...env };
}
