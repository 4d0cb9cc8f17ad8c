/**
 * runtimeServers.allowedCommands: which executables a stdio server created or changed through
 * a core tool may start. A definition the operator writes in a file is not limited; one a
 * caller writes through the protocol is code that runs on the host, so an operator can narrow
 * it to, say, npx and uvx. An entry matches the executable exactly as written: `npx` (found on
 * Switchboard's PATH) admits `npx` and not `/tmp/x/npx`, which a base-name match would.
 */
import { commandLine, ForbiddenError, type McpServerDefinition, type Settings } from '../../kernel/index.js';

export function executableOf(def: Pick<McpServerDefinition, 'command' | 'args'>): string | undefined {
  return commandLine(def)[0];
}

/** Throws FORBIDDEN when `def` is a stdio server whose executable the setting does not admit. */
export function checkRuntimeCommand(settings: Settings, def: Pick<McpServerDefinition, 'type' | 'command' | 'args'>): void {
  const allowed = settings.runtimeServers.allowedCommands;
  if (allowed === undefined || def.type !== 'stdio') return;
  const executable = executableOf(def);
  if (executable !== undefined && allowed.includes(executable)) return;
  throw new ForbiddenError(
    `Forbidden: the command '${executable ?? ''}' is not one a server created through Switchboard may start (runtimeServers.allowedCommands: [${allowed.join(', ')}])`,
    { command: executable ?? null, allowedCommands: allowed, rule: 'runtimeServers.allowedCommands' },
  );
}
