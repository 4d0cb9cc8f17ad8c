/**
 * ajv checks each schema against JSON Schema's meta-schema before it compiles it, and compiles
 * that meta-schema (draft-07, a few hundred lines of recursive schema) at the first schema each
 * instance sees: 40-50 ms of CPU, paid by the meta-tools' instance at a session's first call of
 * any meta-tool and by the invoker's at the first call of an upstream tool, in every process.
 * The build writes the meta-schema's validator ahead, as it does schemas/'s
 * (prebuilt-validators.ts); an instance made by createAjv checks a schema with that one and
 * answers as ajv would (the verdict, every error, the same "schema is invalid: ..." message).
 * Missing or stale (another ajv, other options), ajv's own check runs, as before.
 */
import { Ajv, type AnySchema, type ValidateFunction } from 'ajv';
import { loadPrebuilt, PREBUILT_DIR, validatorFingerprint } from './prebuilt-validators.js';

/** ajv's default meta-schema (the `Ajv` class is draft-07) and its prebuilt file's name. */
export const META_SCHEMA_ID = 'http://json-schema.org/draft-07/schema';
export const META_VALIDATOR_NAME = 'json-schema-draft-07';

/**
 * The options that decide what a meta-schema check answers. An instance whose options differ in
 * any of them (another caller's `allErrors: false`) checks with ajv's own validator.
 */
const DECIDING = ['allErrors', 'useDefaults', 'strict', 'allowUnionTypes', 'coerceTypes', 'removeAdditional', 'messages'] as const;

/** What the prebuilt check was (or must be) compiled from: the meta-schema's text and the deciding options. */
export function metaSchemaFingerprint(ajv: Ajv): string | undefined {
  const meta = ajv.schemas[META_SCHEMA_ID]?.schema;
  if (meta === undefined) return undefined;
  const options = Object.fromEntries(DECIDING.map((k) => [k, ajv.opts[k] ?? null]));
  return validatorFingerprint(JSON.stringify(meta), options);
}

/** The prebuilt checks loaded in this process, by fingerprint (null: none fits). */
const loaded = new Map<string, ValidateFunction | null>();

function prebuiltCheck(ajv: Ajv): ValidateFunction | undefined {
  const fingerprint = metaSchemaFingerprint(ajv);
  if (fingerprint === undefined) return undefined;
  let check = loaded.get(fingerprint);
  if (check === undefined) loaded.set(fingerprint, (check = loadPrebuilt(PREBUILT_DIR, META_VALIDATOR_NAME, fingerprint) ?? null));
  return check ?? undefined;
}

/** ajv, with the meta-schema check the build compiled where it fits (the module's comment says why). */
export class PrecheckedAjv extends Ajv {
  private check: ValidateFunction | null | undefined;

  override validateSchema(schema: AnySchema, throwOrLogError?: boolean): boolean | Promise<unknown> {
    // A schema naming its own draft, or an instance given another default, is checked by ajv.
    const otherMeta = this.opts.defaultMeta !== undefined && this.opts.defaultMeta !== META_SCHEMA_ID;
    if (typeof schema === 'boolean' || schema.$schema !== undefined || otherMeta) return super.validateSchema(schema, throwOrLogError);
    if (this.check === undefined) this.check = prebuiltCheck(this) ?? null;
    if (this.check === null) return super.validateSchema(schema, throwOrLogError);
    const valid = this.check(schema);
    this.errors = valid ? null : (this.check.errors ?? null);
    if (!valid && throwOrLogError) {
      const message = `schema is invalid: ${this.errorsText()}`;
      if (this.opts.validateSchema === 'log') this.logger.error(message);
      else throw new Error(message);
    }
    return valid;
  }
}
