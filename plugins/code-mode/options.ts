/**
 * The budgets of code mode (`plugins.code-mode.options`). The schema lives in
 * schemas/config.schema.json (definitions/codeModeOptions), so config.yaml's validation, the
 * generated reference and the plugin's own options check read one definition.
 */
import { loadSchema } from '../../kernel/index.js';
import type { Budgets } from './messages.js';

/** A script's budgets (messages.ts, what crosses to the worker) and the plugin's own two settings. */
export interface CodeModeOptions extends Budgets {
  maxScriptsPerCaller: number;
  workers: number;
}

export function optionsSchema(): Record<string, unknown> {
  const definitions = loadSchema('config').definitions as Record<string, Record<string, unknown>>;
  return definitions.codeModeOptions!;
}
