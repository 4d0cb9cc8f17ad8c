/** Checking a tool-form definition (core_workflow_create/update/validate) the way files are checked. */
import { validateDocument, type WorkflowResource } from '../../kernel/index.js';
import type { ValidationReport } from '../../lib/validation-reply.js';
import { compileWorkflow, type CompiledWorkflow } from './compile-workflow.js';
import { fromResource, toResource, type WorkflowToolForm } from './definition.js';
import type { Presence, WorkflowRegistry } from './registry.js';
import { structuralPhrases } from './structure-phrases.js';

export interface FormCheck {
  resource: WorkflowResource;
  workflow?: CompiledWorkflow;
  errors: string[];
  warnings: string[];
  missing: string[];
}

const NOWHERE = { file: 'arguments', locate: () => ({ line: 0, column: 0 }) };

/** `present`: whether a tool counts as there for the caller (a tool they may not call is missing, as an unknown one is). */
export function checkForm(form: WorkflowToolForm, namespace: string, registry: WorkflowRegistry, origin: string, present?: Presence): FormCheck {
  const resource = toResource(form, namespace);
  // The phrased problems come first: the reference reports only its first problem, so a
  // client reads the first one after "validation failed: ".
  const phrased = structuralPhrases(form.steps, form.onFailure);
  const schemaProblems = validateDocument('workflow', resource, NOWHERE)
    .map((p) => ({ field: p.field.replace(/^(spec|metadata)\./, ''), message: p.message }))
    .filter((p) => !phrased.fields.has(p.field))
    .map((p) => `${p.field}: ${p.message}`);
  const problems = [...phrased.problems, ...schemaProblems];
  if (problems.length) return { resource, errors: problems, warnings: [], missing: [] };
  const compiled = compileWorkflow(fromResource(resource, origin));
  if (!compiled.ok) return { resource, errors: compiled.errors, warnings: [], missing: [] };
  const errors: string[] = [];
  const cycle = registry.cycleThrough(form.name, compiled.workflow.tools);
  if (cycle) errors.push(`nested workflows form a cycle: ${cycle.join(' -> ')}`);
  const missing = missingTools(compiled.workflow, registry, form.name, present);
  const warnings = missing.map((t) => `tool '${t}' is not in the catalogue now: the workflow stays defined but unavailable until it is`);
  return { resource, workflow: compiled.workflow, errors, warnings, missing };
}

export function missingTools(workflow: CompiledWorkflow, registry: WorkflowRegistry, self: string, present: Presence = (t) => registry.hasTool(t)): string[] {
  const missing = new Set<string>();
  for (const tool of workflow.tools) {
    if (tool === `workflow_${self}`) continue;
    if (tool.startsWith('workflow_') && registry.get(tool.slice('workflow_'.length)) && present(tool)) {
      for (const m of registry.availability(tool.slice('workflow_'.length), undefined, present).missing) missing.add(m);
    } else if (!present(tool)) missing.add(tool);
  }
  return [...missing].sort();
}

/** What core_workflow_validate reports of a check: errors, warnings and whether its tools are all there. */
export function validationReport(check: FormCheck): ValidationReport {
  const required = check.workflow?.tools ?? [];
  return {
    valid: check.errors.length === 0,
    errors: check.errors,
    warnings: check.warnings,
    tools: { required, missing: check.missing, available: check.missing.length === 0 },
  };
}
