/**
 * What describe_tool shows of a workflow besides its schema: which tool each step calls (and
 * each condition's tool), who wrote it and whose rights its steps run with. A description is
 * the author's words; the steps are what runs, so a caller can see that "Summarize text
 * nicely" creates an MCP server before running it.
 */
import { describePrincipal, type JsonObject, type WorkflowResource, type WorkflowStep } from '../../kernel/index.js';
import type { Authority } from './authorship.js';

function stepSummary(step: WorkflowStep): JsonObject {
  const out: JsonObject = { id: step.id };
  if (step.tool !== undefined) out.tool = step.tool;
  if (step.condition?.tool !== undefined) out.condition_tool = step.condition.tool;
  if (step.forEach) out.forEach = step.forEach.steps.map(stepSummary);
  if (step.parallel) out.parallel = step.parallel.map(stepSummary);
  return out;
}

function runsWith(authority: Authority | undefined): string {
  if (!authority) return "the caller's rights (written by the operator)";
  return `the caller's rights, and no more than its ${authority.role}'s (${describePrincipal(authority.principal)})`;
}

export function workflowDetails(resource: WorkflowResource, authority: Authority | undefined): JsonObject {
  const spec = resource.spec;
  const workflow: JsonObject = {
    author: spec.registeredBy !== undefined && authority ? authorName(resource, authority) : 'the operator',
    ...(spec.registeredBy !== undefined ? { registeredBy: spec.registeredBy } : {}),
    ...(spec.approvedBy !== undefined ? { approvedBy: spec.approvedBy } : {}),
    runsWith: runsWith(authority),
    steps: spec.steps.map(stepSummary),
  };
  if (spec.onFailure?.length) workflow.onFailure = spec.onFailure.map(stepSummary);
  return { workflow };
}

/** The author by name: from the authority when it is the author, else the key (an approved workflow's author). */
function authorName(resource: WorkflowResource, authority: Authority): string {
  if (authority.role === 'author') return describePrincipal(authority.principal);
  const email = resource.spec.registeredAs?.email;
  return email ?? resource.spec.registeredBy!.replace(/^person:/, '');
}
