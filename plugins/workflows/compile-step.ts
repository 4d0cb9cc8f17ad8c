/**
 * One step as written, checked and compiled: exactly one of a tool call, a loop or a
 * concurrent group; templates parsed; conditions in one of their three forms. Every
 * problem is collected with the step's id in it, so a person reading the list can fix
 * them all at once.
 */
import type { WorkflowCondition, WorkflowStep } from '../../kernel/config/settings.js';
import { compileValue, TemplateLocationError, type CompiledValue } from './templates.js';

export type CompiledCondition =
  | { kind: 'tool'; tool: string; args: CompiledValue; expect: Record<string, unknown>; expectNot?: Record<string, unknown> }
  | { kind: 'fromStep'; fromStep: string; expect: Record<string, unknown>; expectNot?: Record<string, unknown> }
  | { kind: 'template'; template: CompiledValue };

interface CompiledBase {
  id: string;
  condition?: CompiledCondition;
  allowFailure: boolean;
  /** Shown in the returned document. */
  output: boolean;
}

export interface CompiledToolStep extends CompiledBase {
  kind: 'tool';
  tool: string;
  args: CompiledValue;
  outputs?: CompiledValue;
}

export interface CompiledLoop extends CompiledBase {
  kind: 'forEach';
  items: CompiledValue;
  as: string;
  body: CompiledToolStep[];
  concurrency: number;
}

export interface CompiledGroup extends CompiledBase {
  kind: 'parallel';
  members: CompiledToolStep[];
  maxConcurrency: number;
}

export type CompiledStep = CompiledToolStep | CompiledLoop | CompiledGroup;

/** What compiling the steps of one workflow accumulates. */
export interface StepContext {
  /** Every id so far, for duplicates and for `fromStep` (which must name an earlier step). */
  ids: Set<string>;
  tools: Set<string>;
  errors: string[];
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

function compileCondition(c: WorkflowCondition, id: string, ctx: StepContext): CompiledCondition | undefined {
  const where = `step '${id}', condition`;
  const forms = [c.tool !== undefined, c.fromStep !== undefined, c.template !== undefined].filter(Boolean).length;
  if (forms !== 1) {
    ctx.errors.push(`${where}: set exactly one of 'tool', 'fromStep' or 'template'`);
    return undefined;
  }
  if (c.template !== undefined) {
    if (c.expect !== undefined || c.expect_not !== undefined)
      ctx.errors.push(`${where}: a template condition has no expect; the template itself renders true or false`);
    return { kind: 'template', template: compileValue(c.template, () => `${where} template`) };
  }
  checkExpect(c.expect, `${where}.expect`, ctx.errors);
  checkExpect(c.expect_not, `${where}.expect_not`, ctx.errors);
  const expect = c.expect ?? { success: true };
  const not = c.expect_not ? { expectNot: c.expect_not } : {};
  if (c.fromStep !== undefined) {
    if (!ctx.ids.has(c.fromStep)) ctx.errors.push(`${where}: fromStep '${c.fromStep}' is not an earlier step`);
    return { kind: 'fromStep', fromStep: c.fromStep, expect, ...not };
  }
  ctx.tools.add(c.tool!);
  return { kind: 'tool', tool: c.tool!, args: compileValue(c.args ?? {}, (path) => `${where} argument${path ? ` '${path}'` : ''}`), expect, ...not };
}

function limit(value: number | undefined, fallback: number, where: string, errors: string[]): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) errors.push(`${where} must be at least 1 (it is ${value})`);
  return value;
}

/**
 * Compiles `step`; `within` names the loop or group holding it (whose bodies take tool steps
 * only). Returns undefined when the step is too broken to compile (its errors are in ctx).
 */
export function compileStep(step: WorkflowStep, ctx: StepContext, within?: string): CompiledStep | undefined {
  const { id } = step;
  if (ctx.ids.has(id)) ctx.errors.push(`step '${id}': duplicate step id`);
  const kinds = (['tool', 'forEach', 'parallel'] as const).filter((k) => step[k] !== undefined);
  if (kinds.length !== 1) {
    ctx.errors.push(
      `step '${id}': set exactly one of 'tool' (a tool call), 'forEach' (a loop) or 'parallel' (a group)${kinds.length ? `; it sets ${kinds.join(' and ')}` : ''}`,
    );
    ctx.ids.add(id);
    return undefined;
  }
  if (step.maxConcurrency !== undefined && kinds[0] !== 'parallel')
    ctx.errors.push(`step '${id}': maxConcurrency applies to parallel groups (a loop takes forEach.concurrency)`);
  if (within && kinds[0] !== 'tool') {
    ctx.errors.push(`step '${id}' in '${within}': loop bodies, groups and onFailure hold tool steps only (no nested forEach or parallel)`);
    ctx.ids.add(id);
    return undefined;
  }
  try {
    const base: CompiledBase = { id, allowFailure: step.allowFailure ?? step.allow_failure ?? false, output: step.output ?? false };
    if (step.condition) {
      const condition = compileCondition(step.condition, id, ctx);
      if (condition) base.condition = condition;
    }
    if (step.tool !== undefined) {
      ctx.ids.add(id);
      ctx.tools.add(step.tool);
      const compiled: CompiledToolStep = {
        ...base,
        kind: 'tool',
        tool: step.tool,
        args: compileValue(step.args ?? {}, (path) => `step '${id}', argument${path ? ` '${path}'` : ''}`),
      };
      if (step.outputs) compiled.outputs = compileValue(step.outputs, (path) => `step '${id}', output${path ? ` '${path}'` : ''}`);
      return compiled;
    }
    if (step.args !== undefined) ctx.errors.push(`step '${id}': 'args' belong to tool steps; give them to the steps inside`);
    ctx.ids.add(id);
    if (step.forEach) {
      const f = step.forEach;
      const body = f.steps.map((s) => compileStep(s, ctx, id)).filter((s): s is CompiledToolStep => s?.kind === 'tool');
      return {
        ...base,
        kind: 'forEach',
        items: compileValue(f.items, () => `step '${id}', forEach.items`),
        as: f.as ?? 'item',
        body,
        concurrency: limit(f.concurrency, 1, `step '${id}': forEach.concurrency`, ctx.errors),
      };
    }
    const members = step.parallel!.map((s) => compileStep(s, ctx, id)).filter((s): s is CompiledToolStep => s?.kind === 'tool');
    return {
      ...base,
      kind: 'parallel',
      members,
      maxConcurrency: limit(step.maxConcurrency, Number.POSITIVE_INFINITY, `step '${id}': maxConcurrency`, ctx.errors),
    };
  } catch (err) {
    if (!(err instanceof TemplateLocationError)) throw err;
    ctx.errors.push(err.message);
    ctx.ids.add(id);
    return undefined;
  }
}
