/**
 * authorization-cedar: the `authorizer` service decided by Cedar policies (opt-in:
 * `plugins: {authorization-cedar: true}`). The set is the shipped baseline (the built-in roles
 * as policies; option `baseline: false` drops it) plus every `*.cedar` file in
 * `authorization.policiesPath` (default `policies/` beside config.yaml), each validated against
 * the shipped schema. Loaded during setup, because decide() is synchronous and must have its
 * policies before the first request, and because `switchboard check` runs setup too: an invalid
 * policy refuses startup and check alike, naming file and line. Edits then reload while running.
 */
import { definePlugin } from '../../kernel/index.js';
import { SAVE_GRACE_OPTION } from '../../lib/files/save-grace.js';
import { shippedPolicies } from './assets.js';
import { CedarAuthorizer } from './authorizer.js';
import { PolicyLoader } from './policy-loader.js';

export interface CedarOptions {
  baseline: boolean;
  debounceMs: number;
  saveGraceMs: number;
}

export default definePlugin<CedarOptions>({
  name: 'authorization-cedar',
  description: "Cedar policies: the built-in roles as a baseline, and the operator's *.cedar files (authorization.policiesPath), validated and hot-reloaded.",
  provides: ['authorizer'],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      baseline: {
        type: 'boolean',
        default: true,
        description: "Load the baseline policies (the built-in roles); false: the operator's files are the whole policy set.",
      },
      debounceMs: { type: 'integer', minimum: 0, default: 75, description: 'How long the policies directory is quiet before a change is reloaded.' },
      saveGraceMs: SAVE_GRACE_OPTION,
    },
  },
  async setup({ kernel, options, log }) {
    const authorizer = new CedarAuthorizer();
    const loader = new PolicyLoader({
      configPath: kernel.config.configPath,
      baseline: options.baseline,
      shipped: shippedPolicies(),
      authorizer,
      log,
      debounceMs: options.debounceMs,
      saveGraceMs: options.saveGraceMs,
      onRejected: (problems) => kernel.hooks.onConfigRejected.call(problems),
    });
    await loader.load(kernel.settings().authorization.policiesPath);
    kernel.services.provide('authorizer', authorizer);

    kernel.hooks.onConfigLoad.tapPromise('authorization-cedar', (next) => loader.moveTo(next.settings.authorization.policiesPath));

    return {
      start: () => loader.start(),
      stop: () => loader.stop(),
    };
  },
});
