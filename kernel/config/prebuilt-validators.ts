/**
 * The validators of schemas/ compiled by the build instead of at every start.
 *
 * Why: ajv compiling config.schema.json (with allErrors and verbose) took 300-500 ms of CPU on
 * every `switchboard serve`, a fifth of a start; the test suite starts Switchboard hundreds of
 * times. `npm run build` (scripts/build-prebuilt.js, through prebuild.ts) writes each schema's
 * validator as ajv standalone code into dist/kernel/config/prebuilt/<name>.cjs; loading it costs
 * about 20 ms. Each file carries the fingerprint of the schema text and the ajv options it was
 * compiled from: a file that is missing (a plain `tsc` build) or stale (schemas/ edited since)
 * is ignored and the schema compiled at run time as before, so the answer never depends on it.
 *
 * The built-in plugins' option schemas are prebuilt the same way (plugin-<name>.cjs): compiling
 * them was 110-150 ms of every start and every `switchboard check`, most of it ajv compiling
 * JSON Schema's meta-schema before the first of them.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';

/** Where the build writes the prebuilt validators (beside this module in dist/). */
export const PREBUILT_DIR = fileURLToPath(new URL('./prebuilt/', import.meta.url));

/** What a prebuilt validator was compiled from: the schema's text and ajv's options. */
export function validatorFingerprint(schemaText: string, options: Readonly<Record<string, unknown>>): string {
  return createHash('sha256').update(JSON.stringify(options)).update('\0').update(schemaText).digest('hex');
}

export function prebuiltFile(dir: string, name: string): string {
  return join(dir, `${name}.cjs`);
}

const require = createRequire(import.meta.url);

/** The prebuilt validator of `name` when it was compiled from `fingerprint`; undefined otherwise. */
export function loadPrebuilt(dir: string, name: string, fingerprint: string): ValidateFunction | undefined {
  let mod: { fingerprint?: unknown } & ValidateFunction;
  try {
    mod = require(prebuiltFile(dir, name)) as typeof mod;
  } catch {
    // Missing (a build without the step) or unreadable: compiling at run time gives the same answer.
    return undefined;
  }
  return typeof mod === 'function' && mod.fingerprint === fingerprint ? mod : undefined;
}

/** The ajv options a plugin's options are checked with (validate.ts's createAjv defaults). */
export const OPTIONS_VALIDATOR_OPTIONS = {} as const;

/** The prebuilt file of a built-in plugin's option schema. */
export function optionsValidatorName(plugin: string): string {
  return `plugin-${plugin}`;
}

/** What a plugin's option schema's validator was compiled from: the schema as JSON. */
export function optionsFingerprint(schema: Readonly<Record<string, unknown>>): string {
  return validatorFingerprint(JSON.stringify(schema), OPTIONS_VALIDATOR_OPTIONS);
}
