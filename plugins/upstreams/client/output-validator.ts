/**
 * What the SDK's Client checks a tool's result with against its outputSchema. Its default makes
 * an ajv instance, formats registered, in every Client's constructor (about 10 ms of CPU for a
 * process's first, 1-2 ms for each later connection or reconnection), though most servers
 * declare no outputSchema and Switchboard's direct tools/call path (direct-calls.ts) does not
 * ask the Client to check. This one makes the SDK's own validator at the first schema it is
 * given, and only then.
 */
import { AjvJsonSchemaValidator } from '#mcp-sdk/validation/ajv.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '#mcp-sdk/validation/types.js';

export class OutputValidatorOnFirstSchema implements jsonSchemaValidator {
  private ajv: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    return (this.ajv ??= new AjvJsonSchemaValidator()).getValidator<T>(schema);
  }
}
