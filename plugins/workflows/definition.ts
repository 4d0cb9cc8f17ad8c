/**
 * A workflow as the engine sees it, from either of its two forms: the file form
 * (`apiVersion`, `kind: Workflow`, `metadata`, `spec`) and the tool form of
 * core_workflow_create/update (`name`, `description`, `args`, `steps`, `onFailure`,
 * `output`). Both condition forms and both spellings of allow-failure are accepted in both.
 */
import type { WorkflowArgDefinition, WorkflowResource, WorkflowStep } from '../../kernel/index.js';

export const WORKFLOW_API_VERSION = 'switchboard.dev/v1alpha1';

export interface WorkflowDefinition {
  name: string;
  description: string;
  args: Record<string, WorkflowArgDefinition>;
  /** As written; compile-workflow.ts checks and types them. */
  steps: WorkflowStep[];
  onFailure: WorkflowStep[];
  /** The output template, when the workflow shapes its result. */
  output?: unknown;
  labels: Record<string, string>;
  /** Where it came from, for messages: a file, or `core_workflow_create`. */
  origin: string;
}

/** The tool form's arguments. */
export interface WorkflowToolForm {
  name: string;
  description?: string;
  args?: Record<string, WorkflowArgDefinition>;
  steps: WorkflowStep[];
  onFailure?: WorkflowStep[];
  output?: unknown;
  labels?: Record<string, string>;
}

export function fromResource(resource: WorkflowResource, origin: string): WorkflowDefinition {
  return {
    name: resource.metadata.name,
    description: resource.spec.description ?? '',
    args: resource.spec.args ?? {},
    steps: resource.spec.steps,
    onFailure: resource.spec.onFailure ?? [],
    ...(resource.spec.output !== undefined ? { output: resource.spec.output } : {}),
    labels: resource.metadata.labels ?? {},
    origin,
  };
}

/** The file form a tool-form definition is stored as. */
export function toResource(form: WorkflowToolForm, namespace: string): WorkflowResource {
  const metadata: WorkflowResource['metadata'] = { name: form.name, namespace };
  if (form.labels && Object.keys(form.labels).length) metadata.labels = form.labels;
  const spec: WorkflowResource['spec'] = { steps: form.steps };
  if (form.description !== undefined) spec.description = form.description;
  if (form.args !== undefined) spec.args = form.args;
  if (form.onFailure !== undefined) spec.onFailure = form.onFailure;
  if (form.output !== undefined) spec.output = form.output;
  return { apiVersion: WORKFLOW_API_VERSION, kind: 'Workflow', metadata, spec };
}

/** The definition as core_workflow_get shows it: the tool form, steps as written. */
export function toToolForm(resource: WorkflowResource): Record<string, unknown> {
  return {
    name: resource.metadata.name,
    description: resource.spec.description ?? '',
    args: resource.spec.args ?? {},
    steps: resource.spec.steps,
    ...(resource.spec.onFailure ? { onFailure: resource.spec.onFailure } : {}),
    ...(resource.spec.output !== undefined ? { output: resource.spec.output } : {}),
    labels: resource.metadata.labels ?? {},
    ...(resource.spec.registeredBy !== undefined ? { registeredBy: resource.spec.registeredBy } : {}),
    ...(resource.spec.approvedBy !== undefined ? { approvedBy: resource.spec.approvedBy } : {}),
  };
}

export function toolName(workflow: string): string {
  return `workflow_${workflow}`;
}
