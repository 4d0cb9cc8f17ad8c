/**
 * What core_workflow_validate and core_mcpserver_validate answer (reference-behaviour.md
 * §6.1): an invalid definition is an error result, "Validation failed: " and its problems
 * joined by "; ", with the whole report kept in the error's details; a valid one is the
 * report plus "Validation successful for <subject> <name>". Warnings never fail it.
 */
import { ValidationFailedError, type JsonObject } from '../kernel/index.js';

export interface ValidationReport extends JsonObject {
  valid: boolean;
  errors: string[];
  warnings: string[];
}

export type ValidationSubject = 'workflow' | 'mcpserver';

/** The report as the tool's result; throws VALIDATION_FAILED (the report in its details) when it has errors. */
export function validationReply(subject: ValidationSubject, name: string, report: ValidationReport): JsonObject {
  if (report.errors.length) throw new ValidationFailedError('Validation failed', report.errors, { ...report, name });
  return { ...report, message: `Validation successful for ${subject} ${name}` };
}
