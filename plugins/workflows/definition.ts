/**
 * A workflow as the engine sees it, from either of its two forms: the file form
 * (`apiVersion`, `kind: Workflow`, `metadata`, `spec`) and the tool form of
 * core_workflow_create/update (`name`, `description`, `args`, `steps`). Both condition
 * forms and both spellings of allow-failure are accepted in both places.
 */
import type { WorkflowArgDefinition, WorkflowCondition, WorkflowResource, WorkflowStep } from '../../kernel/config/settings.js';

export const WORKFLOW_API_VERSION = 'switchboard.dev/v1alpha1';

export interface StepDefinition {
  id: string;
  tool: string;
  description?: string;
  args: Record<string, unknown>;
  condition?: WorkflowCondition;
  store: boolean;
  allowFailure: boolean;
  outputs?: Record<string, unknown>;
}

export interface WorkflowDefinition {
  name: string;
  description: string;
  args: Record<string, WorkflowArgDefinition>;
  steps: StepDefinition[];
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
  labels?: Record<string, string>;
}

export function normaliseStep(step: WorkflowStep): StepDefinition {
  const out: StepDefinition = {
    id: step.id,
    tool: step.tool,
    args: step.args ?? {},
    store: step.store ?? false,
    allowFailure: step.allowFailure ?? step.allow_failure ?? false,
  };
  if (step.description !== undefined) out.description = step.description;
  if (step.condition !== undefined) out.condition = step.condition;
  if (step.outputs !== undefined) out.outputs = step.outputs;
  return out;
}

export function fromResource(resource: WorkflowResource, origin: string): WorkflowDefinition {
  return {
    name: resource.metadata.name,
    description: resource.spec.description ?? '',
    args: resource.spec.args ?? {},
    steps: resource.spec.steps.map(normaliseStep),
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
  return { apiVersion: WORKFLOW_API_VERSION, kind: 'Workflow', metadata, spec };
}

/** The definition as core_workflow_get shows it: the tool form, steps as written. */
export function toToolForm(resource: WorkflowResource): Record<string, unknown> {
  return {
    name: resource.metadata.name,
    description: resource.spec.description ?? '',
    args: resource.spec.args ?? {},
    steps: resource.spec.steps,
    labels: resource.metadata.labels ?? {},
  };
}

export function toolName(workflow: string): string {
  return `workflow_${workflow}`;
}
