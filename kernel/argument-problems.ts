/** ajv's errors, as the argument problems a client reads in INVALID_ARGUMENTS. */
import type { ErrorObject } from 'ajv';
import type { ArgumentProblem } from './errors.js';

export function argumentProblems(errors: readonly ErrorObject[] | null | undefined): ArgumentProblem[] {
  return (errors ?? []).map((e) => ({
    path: e.instancePath,
    message: messageOf(e),
  }));
}

function messageOf(e: ErrorObject): string {
  switch (e.keyword) {
    case 'additionalProperties':
      return `has unknown property '${(e.params as { additionalProperty: string }).additionalProperty}'`;
    case 'enum':
      // Say which values are allowed: for a family's instance argument, which members.
      return `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return e.message ?? 'is invalid';
  }
}
