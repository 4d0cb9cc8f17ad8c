/**
 * Whether a stdio server's executable would be found when Switchboard spawns it: a path is
 * taken relative to the configuration directory (where servers run), a bare name is looked up
 * on PATH. Used where a definition is checked before anything runs (`switchboard check`,
 * core_mcpserver_validate), so that "not found" is said once instead of on every retry.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function commandFound(command: string, configPath: string): boolean {
  if (command.includes('/')) return executable(isAbsolute(command) ? command : resolve(configPath, command));
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && executable(join(dir, command)));
}
