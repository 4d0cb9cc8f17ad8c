/**
 * runtimeServers: what a stdio server created or changed through a core tool may start. A
 * definition the operator writes in a file is not limited; one a caller writes through the
 * protocol is code that runs on the host, so an operator narrows it: the command line
 * (allowedCommands, allowed-commands.ts) and the environment, which must not carry loader or
 * interpreter variables (NODE_OPTIONS, PATH, LD_PRELOAD, ...: lib/process/loader-env.ts)
 * that would run something other than the command line admitted.
 */
import { commandLine, ForbiddenError, type McpServerDefinition, type Settings } from '../../kernel/index.js';
import { loaderVariables } from '../../lib/process/loader-env.js';
import { matchCommandLine, shownEntries } from './allowed-commands.js';

export function executableOf(def: Pick<McpServerDefinition, 'command' | 'args'>): string | undefined {
  return commandLine(def)[0];
}

/** Throws FORBIDDEN when `def` is a stdio server whose command line the setting does not admit. */
export function checkRuntimeCommand(settings: Settings, def: Pick<McpServerDefinition, 'type' | 'command' | 'args'>): void {
  const allowed = settings.runtimeServers.allowedCommands;
  if (allowed === undefined || def.type !== 'stdio') return;
  const verdict = matchCommandLine(allowed, commandLine(def));
  if (verdict.allowed) return;
  const executable = executableOf(def);
  throw new ForbiddenError(`Forbidden: ${verdict.reason} (runtimeServers.allowedCommands: ${shownEntries(allowed)})`, {
    command: executable ?? null,
    rule: 'runtimeServers.allowedCommands',
  });
}

/** Throws FORBIDDEN naming the first loader variable `env` sets that runtimeServers.allowedEnv does not admit. */
export function checkRuntimeEnv(settings: Settings, env: Record<string, unknown> | undefined): void {
  const refused = loaderVariables(env, settings.runtimeServers.allowedEnv);
  if (refused.length === 0) return;
  throw new ForbiddenError(
    `Forbidden: env ${refused.map((n) => `'${n}'`).join(', ')}: a server created through Switchboard may not set ${refused.length === 1 ? 'this variable' : 'these variables'}, which change${refused.length === 1 ? 's' : ''} what the process runs (runtimeServers.allowedEnv admits one by name)`,
    { variables: refused, rule: 'runtimeServers.allowedEnv' },
  );
}
