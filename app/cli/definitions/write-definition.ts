/**
 * One server definition from `import` or `add` to mcpservers/<name>.yaml: validated against
 * the schema, refused when the name is taken or when an existing server already runs the same
 * command or URL (unless --force), its literal credentials moved to secrets.env first, both
 * files written whole (temp + rename, owner-only). A running Switchboard's watcher then loads it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { validateDocument } from '../../../kernel/config/validate.js';
import { PRIVATE_FILE, writeFileAtomic } from '../../../lib/files/atomic-write.js';
import { parseSecretsEnv, readSecretsEnvText, secretsEnvLine, secretsEnvPath } from '../../../lib/secrets/secrets-env.js';
import { moveCredentials, type MovedCredential } from './credentials.js';
import { describeIdentity, existingServers, sharedPart, serverIdentity, type ExistingServer } from './existing-servers.js';

export interface Writing {
  configPath: string;
  force: boolean;
  dryRun: boolean;
  /** The servers there, and those written so far in this run. */
  existing: ExistingServer[];
  /** secrets.env as it is now (text), and its variables. */
  secretsText: string;
  secrets: Map<string, string>;
  env: NodeJS.ProcessEnv;
  /** The command named in messages: `import`, `add`. */
  command: string;
}

interface Output {
  file: string;
  what: string;
  text: string;
  moved: MovedCredential[];
}

export type Written =
  | ({ status: 'written' } & Output)
  | ({ status: 'would write' } & Output)
  /** The name, or what it runs, is already there: nothing to do. */
  | { status: 'taken'; reason: string }
  /** It cannot be written as it is. */
  | { status: 'invalid'; reason: string };

export async function startWriting(o: { configPath: string; force: boolean; dryRun: boolean; command: string }): Promise<Writing> {
  const secretsText = readSecretsEnvText(o.configPath);
  return { ...o, existing: await existingServers(o.configPath), secretsText, secrets: parseSecretsEnv(secretsText), env: process.env };
}

const ARGUMENTS = { file: 'arguments', locate: () => ({ line: 0, column: 0 }) };

function problemsOf(def: Record<string, unknown>): string | undefined {
  const problems = validateDocument('mcpserver', structuredClone(def), ARGUMENTS);
  return problems.length ? problems.map((p) => `${p.field || '(definition)'}: ${p.message}`).join('; ') : undefined;
}

export async function writeDefinition(w: Writing, name: string, def: Record<string, unknown>): Promise<Written> {
  const invalid = problemsOf(def);
  if (invalid) return { status: 'invalid', reason: invalid };
  const file = join(w.configPath, 'mcpservers', `${name}.yaml`);
  const what = describeIdentity(def);
  if (!w.force) {
    // A file that does not parse is not in `existing`, and is not to be overwritten either.
    const same = w.existing.find((e) => e.name === name)?.file ?? (existsSync(file) ? file : undefined);
    if (same) return { status: 'taken', reason: `${same} exists (use --force to overwrite)` };
    const identity = serverIdentity(def);
    const twin = identity === undefined ? undefined : w.existing.find((e) => e.identity === identity);
    if (twin) return { status: 'taken', reason: `it duplicates '${twin.name}' (${twin.file}): the same ${sharedPart(def)}; --force adds it anyway` };
  }
  let moved: ReturnType<typeof moveCredentials>;
  try {
    moved = moveCredentials(name, def, w.secrets, w.env);
  } catch (err) {
    return { status: 'invalid', reason: (err as Error).message };
  }
  const text = stringify(moved.definition, { lineWidth: 0 });
  if (w.dryRun) return { status: 'would write', file, what, text, moved: moved.moved };
  if (moved.moved.length) {
    // The secrets first: the definition must never reference a variable that is not there yet.
    const lines = moved.moved
      .filter((m) => !w.secretsText.split('\n').includes(secretsEnvLine(m.variable, m.value)))
      .map((m) => secretsEnvLine(m.variable, m.value));
    if (lines.length) {
      const head = w.secretsText === '' ? `# Variables that ${w.command} moved out of mcpservers/*.yaml; definitions reference them as \${NAME}.\n` : '';
      w.secretsText = `${head}${w.secretsText}${w.secretsText === '' || w.secretsText.endsWith('\n') ? '' : '\n'}${lines.join('\n')}\n`;
      await writeFileAtomic(secretsEnvPath(w.configPath), w.secretsText, { mode: PRIVATE_FILE });
    }
  }
  await writeFileAtomic(file, text, { mode: PRIVATE_FILE });
  w.existing = [...w.existing.filter((e) => e.name !== name), { name, file, identity: serverIdentity(def) }];
  return { status: 'written', file, what, text, moved: moved.moved };
}

/** `; credentials moved to .../secrets.env: env.X as ${X}`, or nothing. */
export function movedNote(w: Writing, moved: readonly MovedCredential[], dryRun: boolean): string {
  if (!moved.length) return '';
  const list = moved.map((m) => `${m.field} as \${${m.variable}}`).join(', ');
  return `; ${dryRun ? 'would move credentials' : 'credentials moved'} to ${secretsEnvPath(w.configPath)}: ${list}`;
}
