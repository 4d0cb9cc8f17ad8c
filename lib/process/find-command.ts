/**
 * Where a stdio server's executable is: a path is taken relative to the configuration
 * directory (where servers run), a bare name is looked up on Switchboard's own PATH. Never on
 * the PATH a definition's `env` sets: Node's spawn would look there, and a caller who may set
 * env (runtimeServers) and fill a directory would then start that directory's own `npx`
 * instead of the one allowedCommands admitted. The connection spawns the path found here.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The absolute path `command` runs as, or undefined when there is no such executable. */
export function resolveCommand(command: string, configPath: string): string | undefined {
  if (command.includes('/')) {
    const path = isAbsolute(command) ? command : resolve(configPath, command);
    return executable(path) ? path : undefined;
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    // An empty entry means the working directory to a shell; Switchboard does not search it.
    if (!dir || !isAbsolute(dir)) continue;
    const path = join(dir, command);
    if (executable(path)) return path;
  }
  return undefined;
}

/** Whether `command` would be found when Switchboard spawns it (`switchboard check`, core_mcpserver_validate). */
export function commandFound(command: string, configPath: string): boolean {
  return resolveCommand(command, configPath) !== undefined;
}
