/**
 * store-files: MCP server and workflow definitions as YAML files in the config directory,
 * and (the GrantStore contract) what an auth plugin issues, as sealed files under state/.
 */
import { join } from 'node:path';
import { definePlugin } from '../../kernel/index.js';
import { FileStore } from './file-store.js';
import { FileGrantStore } from './grant-files.js';
import { unclaimedFileWarning } from './unclaimed.js';

export default definePlugin<{ debounceMs: number }>({
  name: 'store-files',
  description: 'Keeps resources as YAML files under the config directory and watches them; keeps OAuth grants under state/grants.',
  provides: ['store', 'grant-store'],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { debounceMs: { type: 'integer', minimum: 0, default: 75 } },
  },
  setup({ kernel, options, log }) {
    if (kernel.settings().orchestrator) {
      // Orchestrator mode stores resources elsewhere; this store stays out of the way.
      return;
    }
    const leftover = (path: string) => log.warn(`removed ${path}, left by a write that was interrupted (the file it was replacing is intact)`);
    const unclaimed = (path: string, directory: string) => log.warn(unclaimedFileWarning(path, directory, kernel.settings()));
    kernel.services.provide(
      'store',
      new FileStore(kernel.config.configPath, options.debounceMs, () => kernel.config.kinds(), {
        onLeftover: leftover,
        onUnclaimed: unclaimed,
        onWatchError: (err) => log.warn(`watching ${kernel.config.configPath} failed: ${err.message}; edits may go unseen until core_config_reload`),
      }),
    );
    // In cluster mode grants are shared through Redis (cluster-redis provides grant-store): no files for them.
    if (kernel.settings().aggregator.cluster) return;
    const grants = new FileGrantStore(join(kernel.config.configPath, 'state', 'grants'), (m) => log.warn(m));
    kernel.services.provide('grant-store', grants);
    return {
      // Before the auth plugin starts (store plugins start first): it reads what it issued.
      start: () => grants.open(),
      stop: () => grants.close(),
    };
  },
});
