/**
 * A workflow definition's check as an event (reference-behaviour.md §6.1, §10):
 * core_workflow_validate tells either outcome, create and update tell a refusal here. A
 * success on create or update is told by the events plugin when the definition takes effect,
 * whichever way it came (a core tool, a file, the cluster's store).
 */
import type { EventLog } from '../../kernel/index.js';

export function recordValidation(events: EventLog | undefined, name: string, errors: readonly string[]): void {
  const resource = { type: 'Workflow' as const, name };
  events?.record(
    errors.length
      ? { type: 'Warning', reason: 'WorkflowValidationFailed', resource, message: `Workflow ${name} validation failed: ${errors.join('; ')}` }
      : { type: 'Normal', reason: 'WorkflowValidationSucceeded', resource, message: `Workflow ${name} validation completed successfully` },
  );
}
