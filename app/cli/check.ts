/**
 * `switchboard check`: the startup validation, every plugin's checks included, without serving.
 * Problems fail it (exit 1). What is valid but would not run here, a stdio server whose
 * command is not on this machine's PATH, is a warning: check may run in CI on another machine
 * than serve, but a person checking their own setup must hear it before the server fails on
 * every retry; so is a `${VAR}` that is not set here or a `{fromFile}` that cannot be read. So is
 * a bare interpreter or package runner in runtimeServers.allowedCommands:
 * valid, and a door to any program for whoever may create servers. So is a restart-only key
 * changed since the Switchboard running from the same directory started: it waits for a restart.
 */
import { referenceEnvironment } from '../../lib/secrets/secrets-env.js';
import { join } from 'node:path';
import { BUILT_IN_PLUGINS } from '../built-in-plugins.js';
import { ConfigInvalidError, formatConfigProblem } from '../../kernel/errors.js';
import { Kernel } from '../../kernel/kernel.js';
import { plural } from '../../kernel/ready-line.js';
import { createLogger } from '../../kernel/log.js';
import { commandLine } from '../../kernel/config/command-line.js';
import { resolveSecretValue, SecretUnresolvedError } from '../../kernel/secrets/secret-value.js';
import { SETTINGS_FILE } from '../../kernel/config/pipeline.js';
import type { ConfigSnapshot } from '../../kernel/config/snapshot.js';
import type { McpServerDefinition } from '../../kernel/config/settings.js';
import { commandFound } from '../../lib/process/find-command.js';
import { changedSinceStart } from './settings-at-start.js';
import { unpinnedCodeRunners, unpinnedWarning } from '../../plugins/core-tools/allowed-commands.js';

function warnings(s: ConfigSnapshot): string[] {
  const out: string[] = [];
  const settingsFile = join(s.configPath, SETTINGS_FILE);
  for (const executable of unpinnedCodeRunners(s.settings)) out.push(`${settingsFile}: warning: ${unpinnedWarning(executable)}`);
  for (const { value: def, origin } of s.mcpServers.values()) {
    const executable = def.type === 'stdio' ? commandLine(def)[0] : undefined;
    if (executable && !commandFound(executable, s.configPath))
      out.push(
        `${origin.file}: warning: command '${executable}' is not found on PATH (or relative to ${s.configPath}); server '${def.name}' would fail to start`,
      );
    for (const problem of unresolved(def, s.configPath))
      out.push(`${origin.file}: warning: ${problem}; server '${def.name}' would fail to start (and is not retried until its definition changes)`);
  }
  return out;
}

/** References in env and headers that do not resolve here: an unset `${VAR}`, an unreadable file. */
function unresolved(def: McpServerDefinition, configPath: string): string[] {
  const out: string[] = [];
  const env = referenceEnvironment(configPath);
  for (const [field, map] of [['env', def.env] as const, ['headers', def.headers] as const]) {
    for (const [key, value] of Object.entries(map)) {
      try {
        resolveSecretValue(value, `${field}.${key}`, { configPath, env });
      } catch (err) {
        if (err instanceof SecretUnresolvedError) out.push(err.message);
        else throw err;
      }
    }
  }
  return out;
}

/** Restart-only keys config.yaml changed since the Switchboard running from this directory started (settings-at-start.ts). */
async function waitingForRestart(s: ConfigSnapshot): Promise<string[]> {
  const changed = await changedSinceStart(s.configPath, s.settings);
  const settingsFile = join(s.configPath, SETTINGS_FILE);
  return (changed?.keys ?? []).map(
    (key) =>
      `${settingsFile}: warning: ${key} changes on restart: the Switchboard running from this directory (pid ${changed!.pid}) started with another value`,
  );
}

/**
 * The log check runs with: errors as before, and the file store's warnings about links it
 * skipped kept to be said among check's own warnings (the rest of the startup chatter is not
 * check's to repeat).
 */
function checkLogger(storeWarnings: string[], out: CheckOutput) {
  return createLogger({
    level: 'warn',
    sink: {
      write: (line) => {
        const warn = / WARN +\[[^\]]*:store-files\] (.*)$/.exec(line.trimEnd());
        if (warn) storeWarnings.push(`warning: ${warn[1]!}`);
        else if (/^\S+ ERROR /.test(line)) out.stderr.write(line);
      },
    },
  });
}

/** Where check writes: the process's streams, or (tests checking many configurations in one process) a capture. */
export interface CheckOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export async function check(configPath: string, out: CheckOutput = process): Promise<number> {
  try {
    const storeWarnings: string[] = [];
    const s = await Kernel.check({ plugins: BUILT_IN_PLUGINS, configPath, log: checkLogger(storeWarnings, out) });
    const warned = [...storeWarnings, ...warnings(s), ...(await waitingForRestart(s))];
    for (const w of warned) out.stderr.write(`${w}\n`);
    const tail = warned.length ? `, ${warned.length} warning${warned.length === 1 ? '' : 's'}` : '';
    out.stdout.write(`${configPath}: OK (${plural(s.mcpServers.size, 'MCP server')}, ${plural(s.workflows.size, 'workflow')}${tail})\n`);
    return 0;
  } catch (err) {
    if (err instanceof ConfigInvalidError) {
      for (const p of err.problems) out.stderr.write(`${formatConfigProblem(p)}\n`);
      return 1;
    }
    out.stderr.write(`${(err as Error).message}\n`);
    return 1;
  }
}
