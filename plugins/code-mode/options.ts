/**
 * The budgets of code mode (`plugins.code-mode.options`). The schema lives in
 * schemas/config.schema.json (definitions/codeModeOptions), so config.yaml's validation, the
 * generated reference and the plugin's own options check read one definition.
 */
import { loadSchema } from '../../kernel/index.js';

export interface CodeModeOptions {
  wallMs: number;
  cpuMs: number;
  memoryBytes: number;
  stackBytes: number;
  maxCalls: number;
  maxConcurrentCalls: number;
  maxResultBytes: number;
  maxLogBytes: number;
  maxScriptsPerCaller: number;
  workers: number;
}

export function optionsSchema(): Record<string, unknown> {
  const definitions = loadSchema('config').definitions as Record<string, Record<string, unknown>>;
  return definitions.codeModeOptions!;
}
