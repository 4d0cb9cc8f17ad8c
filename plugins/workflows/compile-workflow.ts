/**
 * A workflow definition checked and compiled once: steps (compile-step.ts), rollback steps,
 * the output template, the input schema derived from `args`, the output schema derived
 * from the output template. Everything the engine needs per run is here.
 */
import type { JsonSchemaObject, WorkflowArgDefinition } from '../../kernel/index.js';
import { compileStep, compileSubSteps, type CompiledStep, type CompiledToolStep, type StepContext } from './compile-step.js';
import type { WorkflowDefinition } from './definition.js';
import { outputSchemaOf } from './output-schema.js';
import { compileValue, TemplateLocationError, type CompiledValue } from './templates.js';

export type { CompiledCondition, CompiledGroup, CompiledLoop, CompiledStep, CompiledToolStep } from './compile-step.js';

export interface CompiledWorkflow {
  def: WorkflowDefinition;
  steps: CompiledStep[];
  /** Rollback steps (tool steps), run after a step fails the run. */
  onFailure: CompiledToolStep[];
  /** The output template, when the workflow shapes its result. */
  output?: CompiledValue;
  inputSchema: JsonSchemaObject;
  /** What a run returns, when the output template fixes its shape (output-schema.ts). */
  outputSchema?: JsonSchemaObject;
  /** Every tool the workflow needs: step, sub-step, condition and onFailure tools. */
  tools: string[];
}

export type Compilation = { ok: true; workflow: CompiledWorkflow } | { ok: false; errors: string[] };

export function ofType(type: WorkflowArgDefinition['type'], v: unknown): boolean {
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
  // Open: undeclared arguments are accepted and reach `.input` (reference-behaviour.md §4).
  return { type: 'object', properties, required };
}

export function compileWorkflow(def: WorkflowDefinition): Compilation {
  const ctx: StepContext = { ids: new Set(), tools: new Set(), errors: [] };
  if (def.steps.length === 0) ctx.errors.push('workflow must have at least one step');
  for (const [name, a] of Object.entries(def.args)) {
    if (a.default !== undefined && !ofType(a.type, a.default))
      ctx.errors.push(`argument '${name}': default ${JSON.stringify(a.default)} is not of type ${a.type}`);
  }
  const steps = def.steps.map((s, index) => compileStep(s, ctx, { kind: 'step', index })).filter((s): s is CompiledStep => s !== undefined);
  const onFailure: CompiledToolStep[] = compileSubSteps(def.onFailure, 'onFailure', ctx, false);
  let output: CompiledValue | undefined;
  if (def.output !== undefined) {
    try {
      output = compileValue(def.output, (path) => `output${path ? ` '${path}'` : ''}`);
    } catch (err) {
      if (!(err instanceof TemplateLocationError)) throw err;
      ctx.errors.push(err.message);
    }
  }
  if (ctx.errors.length) return { ok: false, errors: ctx.errors };
  const workflow: CompiledWorkflow = { def, steps, onFailure, inputSchema: inputSchemaOf(def.args), tools: [...ctx.tools] };
  if (output) workflow.output = output;
  const outputSchema = outputSchemaOf(output);
  if (outputSchema) workflow.outputSchema = outputSchema;
  return { ok: true, workflow };
}
