/**
 * A workflow definition checked and compiled once: templates parsed, conditions checked,
 * the input schema derived from `args`. Everything the engine needs per run is here.
 */
import type { WorkflowArgDefinition } from '../../kernel/config/settings.js';
import type { JsonSchemaObject } from '../../kernel/tools.js';
import type { StepDefinition, WorkflowDefinition } from './definition.js';
import { compileValue, TemplateLocationError, type CompiledValue } from './templates.js';

export interface CompiledCondition {
  tool?: string;
  args?: CompiledValue;
  fromStep?: string;
  expect: Record<string, unknown>;
  expectNot?: Record<string, unknown>;
}

export interface CompiledStep {
  def: StepDefinition;
  args: CompiledValue;
  condition?: CompiledCondition;
  outputs?: CompiledValue;
}

export interface CompiledWorkflow {
  def: WorkflowDefinition;
  steps: CompiledStep[];
  inputSchema: JsonSchemaObject;
  /** Every tool the workflow needs: step tools and condition tools. */
  tools: string[];
}

export type Compilation = { ok: true; workflow: CompiledWorkflow } | { ok: false; errors: string[] };

function ofType(type: WorkflowArgDefinition['type'], v: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return !!v && typeof v === 'object' && !Array.isArray(v);
  }
}

export function inputSchemaOf(args: Record<string, WorkflowArgDefinition>): JsonSchemaObject {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, a] of Object.entries(args)) {
    const p: Record<string, unknown> = { type: a.type };
    if (a.description) p.description = a.description;
    if (a.default !== undefined) p.default = a.default;
    properties[name] = p;
    if (a.required && a.default === undefined) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function checkExpect(expect: unknown, where: string, errors: string[]): void {
  if (expect === undefined) return;
  if (!expect || typeof expect !== 'object' || Array.isArray(expect)) {
    errors.push(`${where}: must be an object`);
    return;
  }
  for (const [k, v] of Object.entries(expect)) {
    if (k === 'success' && typeof v !== 'boolean') errors.push(`${where}.success: must be a boolean`);
    else if (k === 'json_path' && (!v || typeof v !== 'object' || Array.isArray(v))) errors.push(`${where}.json_path: must map paths to expected values`);
    else if (k !== 'success' && k !== 'json_path') errors.push(`${where}: unknown expectation '${k}' (use success or json_path)`);
  }
}

export function compileWorkflow(def: WorkflowDefinition): Compilation {
  const errors: string[] = [];
  if (def.steps.length === 0) errors.push('a workflow needs at least one step');
  for (const [name, a] of Object.entries(def.args)) {
    if (a.default !== undefined && !ofType(a.type, a.default)) errors.push(`argument '${name}': default ${JSON.stringify(a.default)} is not of type ${a.type}`);
  }
  const seen = new Set<string>();
  const steps: CompiledStep[] = [];
  const tools = new Set<string>();
  for (const step of def.steps) {
    if (seen.has(step.id)) errors.push(`step '${step.id}': duplicate step id`);
    const at = (what: string) => (path: string) => `step '${step.id}', ${what}${path ? ` '${path}'` : ''}`;
    try {
      const compiled: CompiledStep = { def: step, args: compileValue(step.args, at('argument')) };
      tools.add(step.tool);
      const c = step.condition;
      if (c) {
        const where = `step '${step.id}', condition`;
        if ((c.tool === undefined) === (c.fromStep === undefined)) errors.push(`${where}: set exactly one of 'tool' or 'fromStep'`);
        if (c.fromStep !== undefined && !seen.has(c.fromStep)) errors.push(`${where}: fromStep '${c.fromStep}' is not an earlier step`);
        checkExpect(c.expect, `${where}.expect`, errors);
        checkExpect(c.expect_not, `${where}.expect_not`, errors);
        const cond: CompiledCondition = { expect: c.expect ?? { success: true } };
        if (c.tool !== undefined) {
          cond.tool = c.tool;
          tools.add(c.tool);
          cond.args = compileValue(c.args ?? {}, at('condition argument'));
        }
        if (c.fromStep !== undefined) cond.fromStep = c.fromStep;
        if (c.expect_not) cond.expectNot = c.expect_not;
        compiled.condition = cond;
      }
      if (step.outputs) compiled.outputs = compileValue(step.outputs, at('output'));
      steps.push(compiled);
    } catch (err) {
      if (err instanceof TemplateLocationError) errors.push(err.message);
      else throw err;
    }
    seen.add(step.id);
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, workflow: { def, steps, inputSchema: inputSchemaOf(def.args), tools: [...tools] } };
}
