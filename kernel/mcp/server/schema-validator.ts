/**
 * The JSON Schema validator every session's SDK Server shares.
 *
 * Without one, the SDK's Server builds its own Ajv instance with every format registered as
 * it is constructed: 18 KiB of heap per open session, more than half of what a session
 * costs, and the larger part of the CPU of setting one up (measured in bench/README.md,
 * "sessions"). The Server uses it only to check a client's answer to `elicitInput`, which
 * Switchboard does not call (elicitations from upstreams are relayed as raw requests); it
 * stays a real validator, with the SDK's options, so a caller of `elicitInput` would still
 * be checked.
 *
 * Shared, Ajv's cache would keep every schema ever compiled (each elicitation brings a new
 * schema object): a compiled schema is removed from it at once, the function it gave stays
 * usable. The Ajv instance is made at the first schema, never for a process that has none.
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '#mcp-sdk/validation/types.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

class SharedSchemaValidator implements jsonSchemaValidator {
  private ajv: Ajv | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    // The SDK's own options (validation/ajv-provider.js), so answers read the same.
    this.ajv ??= addFormats(new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true }));
    const ajv = this.ajv;
    const validate = ajv.compile(schema);
    ajv.removeSchema(schema);
    return (input) =>
      validate(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: ajv.errorsText(validate.errors) };
  }
}

export const SHARED_SCHEMA_VALIDATOR: jsonSchemaValidator = new SharedSchemaValidator();
