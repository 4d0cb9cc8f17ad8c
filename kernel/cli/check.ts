/** `switchboard check`: the startup validation without serving anything. */
import { ConfigPipeline, readSettings } from '../config/pipeline.js';
import { createHooks } from '../hooks.js';
import { ConfigInvalidError, formatConfigProblem } from '../errors.js';
import { createLogger } from '../log.js';
import { FileStore } from '../../plugins/store-files/file-store.js';

export async function check(configPath: string): Promise<number> {
  try {
    const { settings } = await readSettings(configPath);
    const pipeline = new ConfigPipeline(configPath, createHooks().onConfigLoad, createLogger({ level: 'error' }), settings);
    await pipeline.loadAll(new FileStore(configPath, 0));
    const s = pipeline.snapshot;
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
