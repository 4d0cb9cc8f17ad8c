/**
 * One step as written, checked and compiled: exactly one of a tool call, a loop or a
 * concurrent group; templates parsed; conditions in one of their three forms. Every
 * problem is collected with the step's id in it, so a person reading the list can fix
 * them all at once.
 */
import type { WorkflowStep } from '../../kernel/index.js';
import { compileCondition, type CompiledCondition } from './compile-condition.js';
import { compileValue, inputPathsOf, TemplateLocationError, type CompiledValue } from './templates.js';

export type { CompiledCondition } from './compile-condition.js';

interface CompiledBase {
  id: string;
  condition?: CompiledCondition;
  allowFailure: boolean;
  /**
   * Output-enabled: its entries in the returned document carry `result` (`output: true`, or
   * `output` unset and `store: true`; a loop's or group's flag is its sub-steps' default).
   */
  output: boolean;
}

export interface CompiledToolStep extends CompiledBase {
  kind: 'tool';
  tool: string;
  args: CompiledValue;
  /** The `.input` paths its argument templates refer to (template_vars). */
  argInputs: string[];
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

function limit(value: number | undefined, fallback: number, where: string, errors: string[]): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) errors.push(`${where} must be at least 1 (it is ${value})`);
  return value;
}

/**
 * Compiles `step`; `within` names the loop or group holding it (whose bodies take tool steps
 * only). Returns undefined when the step is too broken to compile (its errors are in ctx).
 */
export function compileStep(step: WorkflowStep, ctx: StepContext, within?: string, outputByDefault = false): CompiledStep | undefined {
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
    const output = step.output ?? (step.store === true ? true : outputByDefault);
    const base: CompiledBase = { id, allowFailure: step.allowFailure ?? step.allow_failure ?? false, output };
    if (step.condition) {
      const condition = compileCondition(step.condition, id, ctx);
      if (condition) base.condition = condition;
    }
    if (step.tool !== undefined) {
      ctx.ids.add(id);
      ctx.tools.add(step.tool);
      const args = compileValue(step.args ?? {}, (path) => `step '${id}', argument${path ? ` '${path}'` : ''}`);
      const compiled: CompiledToolStep = { ...base, kind: 'tool', tool: step.tool, args, argInputs: [...inputPathsOf(args)] };
      if (step.outputs) compiled.outputs = compileValue(step.outputs, (path) => `step '${id}', output${path ? ` '${path}'` : ''}`);
      return compiled;
    }
    if (step.args !== undefined) ctx.errors.push(`step '${id}': 'args' belong to tool steps; give them to the steps inside`);
    ctx.ids.add(id);
    if (step.forEach) {
      const f = step.forEach;
      const body = f.steps.map((s) => compileStep(s, ctx, id, output)).filter((s): s is CompiledToolStep => s?.kind === 'tool');
      return {
        ...base,
        kind: 'forEach',
        items: compileValue(f.items, () => `step '${id}', forEach.items`),
        as: f.as ?? 'item',
        body,
        concurrency: limit(f.concurrency, 1, `step '${id}': forEach.concurrency`, ctx.errors),
      };
    }
    const members = step.parallel!.map((s) => compileStep(s, ctx, id, output)).filter((s): s is CompiledToolStep => s?.kind === 'tool');
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
