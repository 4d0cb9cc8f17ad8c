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

/**
 * The name and the `=` of a line; the value is what follows, trimmed. Only the name is matched
 * by a pattern: `\s*(.*?)\s*$` over the value rescanned a run of spaces from each of its
 * positions (a line of 50,000 spaces took 2 s).
 */
const NAME = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/;
/** From a position: only blanks, or blanks and a `#` comment, to the end. */
const REST_IS_COMMENT = /\s*(?:#.*)?$/y;

function restIsComment(raw: string, from: number): boolean {
  REST_IS_COMMENT.lastIndex = from;
  return REST_IS_COMMENT.test(raw);
}

/**
 * A quoted value's text: from the opening quote to the first closing one after which only a
 * comment follows (`A='it's'` is it's, `A="x" # note` is x); undefined when there is none.
 */
function quoted(raw: string): string | undefined {
  const quote = raw[0];
  if (quote !== "'" && quote !== '"') return undefined;
  for (let i = 1; i < raw.length; i++) {
    // Inside double quotes a backslash escapes the next character.
    if (quote === '"' && raw[i] === '\\') {
      i++;
      continue;
    }
    if (raw[i] !== quote || !restIsComment(raw, i + 1)) continue;
    const text = raw.slice(1, i);
    return quote === "'" ? text : text.replace(/\\(["\\n])/g, (_m, c: string) => (c === 'n' ? '\n' : c));
  }
  return undefined;
}

function valueOf(raw: string): string {
  const text = quoted(raw);
  if (text !== undefined) return text;
  // An unquoted value ends at a ` #` comment.
  const comment = raw.search(/\s#/);
  return comment < 0 ? raw : raw.slice(0, comment).trimEnd();
}

/** The variables of a secrets.env text; a line that is not `NAME=value` is skipped. */
export function parseSecretsEnv(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(#|$)/.test(line)) continue;
    const m = NAME.exec(line);
    if (m) out.set(m[1]!, valueOf(line.slice(m[0].length).trim()));
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
