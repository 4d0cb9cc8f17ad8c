/**
 * The result a failed step has in `.results` (tolerated or not, reference-behaviour.md §2):
 * `{success: false, isError: true, error: "<message>"}`, plus `failure: {step, tool,
 * message}`, which Switchboard documented as `error` before.
 */
export interface FailureValue {
  success: false;
  isError: true;
  error: string;
  failure: { step: string; tool: string; message: string };
}

export function failureValue(step: string, tool: string, message: string): FailureValue {
  return { success: false, isError: true, error: message, failure: { step, tool, message } };
}

/** A step result that says the step failed (what a fromStep condition counts as unsuccessful). */
export function isFailureValue(value: unknown): boolean {
  return !!value && typeof value === 'object' && (value as { success?: unknown }).success === false && (value as { isError?: unknown }).isError === true;
}
