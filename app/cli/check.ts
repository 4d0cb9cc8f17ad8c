/** `switchboard check`: the startup validation, every plugin's checks included, without serving. */
import { BUILT_IN_PLUGINS } from '../built-in-plugins.js';
import { ConfigInvalidError, formatConfigProblem } from '../../kernel/errors.js';
import { Kernel } from '../../kernel/kernel.js';
import { createLogger } from '../../kernel/log.js';

export async function check(configPath: string): Promise<number> {
  try {
    const s = await Kernel.check({ plugins: BUILT_IN_PLUGINS, configPath, log: createLogger({ level: 'error' }) });
    process.stdout.write(`${configPath}: OK (${s.mcpServers.size} MCP servers, ${s.workflows.size} workflows)\n`);
    return 0;
  } catch (err) {
    if (err instanceof ConfigInvalidError) {
      for (const p of err.problems) process.stderr.write(`${formatConfigProblem(p)}\n`);
      return 1;
    }
    process.stderr.write(`${(err as Error).message}\n`);
    return 1;
  }
}
