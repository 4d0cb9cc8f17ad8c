/** ajv's errors, as the argument problems a client reads in INVALID_ARGUMENTS. */
import type { ErrorObject } from 'ajv';
import type { ArgumentProblem } from './errors.js';

export function argumentProblems(errors: readonly ErrorObject[] | null | undefined): ArgumentProblem[] {
  return (errors ?? []).map((e) => ({
    path: e.instancePath,
    message:
      e.keyword === 'additionalProperties'
        ? `has unknown property '${(e.params as { additionalProperty: string }).additionalProperty}'`
        : (e.message ?? 'is invalid'),
  }));
}
