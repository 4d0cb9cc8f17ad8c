/**
 * store-files: MCP server and workflow definitions as YAML files in the config directory,
 * and (the GrantStore contract) what an auth plugin issues, as sealed files under state/.
 */
import { join } from 'node:path';
import { definePlugin } from '../../kernel/index.js';
import { halfSavedMessage, SAVE_GRACE_OPTION } from '../../lib/files/save-grace.js';
import { FileStore } from './file-store.js';
import { FileGrantStore } from './grant-files.js';
import { outsideLinkWarning } from './links.js';
import { unclaimedFileWarning } from './unclaimed.js';

export default definePlugin<{ debounceMs: number; saveGraceMs: number; followLinksOutside: boolean }>({
  name: 'store-files',
  description: 'Keeps resources as YAML files under the config directory and watches them; keeps OAuth grants under state/grants.',
  provides: ['store', 'grant-store'],
  // A skipped link is an event as well as a log line, when the events plugin is on.
  uses: ['events'],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      debounceMs: { type: 'integer', minimum: 0, default: 75 },
      saveGraceMs: SAVE_GRACE_OPTION,
      followLinksOutside: {
        type: 'boolean',
        default: false,
        description:
          'Read a definition file that is a link to a file outside the configuration directory. Off: such a link is skipped with a warning naming it (links that stay inside, as in a Kubernetes ConfigMap volume, are always followed).',
      },
    },
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
      new FileStore(
        kernel.config.configPath,
        options.debounceMs,
        () => kernel.config.kinds(),
        {
          onLeftover: leftover,
          onUnclaimed: unclaimed,
          onHalfSaved: (path, how, ms) => log.info(halfSavedMessage(path, how, ms)),
          onWatchError: (err) => log.warn(`watching ${kernel.config.configPath} failed: ${err.message}; edits may go unseen until core_config_reload`),
          onOutsideLink: (link, dir) => {
            const message = outsideLinkWarning(link, dir);
            log.warn(message);
            kernel.services
              .find('events')
              ?.record({ type: 'Warning', reason: 'ConfigLinkSkipped', resource: { type: 'Aggregator', name: 'switchboard' }, message });
          },
        },
        options.followLinksOutside,
        options.saveGraceMs,
      ),
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
