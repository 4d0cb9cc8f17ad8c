/**
 * The configuration as a plugin sees it (kernel-api.ts ConfigApi): the pipeline's reads and
 * checks, and its edits handed only to an `exclusive` section, so a plugin cannot change the
 * configuration while another edit is half done.
 */
import type { ConfigApi, ConfigEdits } from '../kernel-api.js';
import type { ResourceStore } from '../contracts/store.js';
import type { ConfigPipeline } from './pipeline.js';

export function configApi(pipeline: ConfigPipeline, store: () => ResourceStore): ConfigApi {
  const edits: ConfigEdits = {
    apply: (raw) => pipeline.apply(raw),
    removeKey: (key) => pipeline.removeKey(key),
    replaceSettings: (settings) => pipeline.replaceSettings(settings),
    reloadAll: () => pipeline.reloadAll(store()),
    writeSettings: (text) => pipeline.writeSettings(store(), text),
  };
  return {
    get snapshot() {
      return pipeline.snapshot;
    },
    configPath: pipeline.configPath,
    addKind: (kind) => pipeline.addKind(kind),
    kinds: () => pipeline.kinds(),
    addCheck: (check) => pipeline.addCheck(check),
    addSettingsCheck: (check) => pipeline.addSettingsCheck(check),
    restartRequired: () => pipeline.restartRequired(),
    exclusive: (edit) => pipeline.exclusive(() => edit(edits)),
  };
}
