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
 * Where a step sits, for messages worded as clients of the reference service match them
 * (reference-behaviour.md §6.2): a top-level step by its index, a sub-step (loop body, group
 * member, onFailure step) by its group and index, with the ids of its earlier siblings.
 */
export type StepPlace = { kind: 'step'; index: number } | { kind: 'sub'; group: string; index: number; siblings: Set<string> };

/** Nested loops and groups are refused by name: the reference has no such thing, and it says only that a tool is needed. */
const TOOL_STEPS_ONLY = 'loop bodies, groups and onFailure hold tool steps only: no nested forEach or parallel';

/** Records `id` at `at`; a repeated id is reported in the words of its place. */
function recordId(id: string, at: StepPlace, ctx: StepContext): void {
  if (at.kind === 'sub' && at.siblings.has(id)) ctx.errors.push(`${at.group}: duplicate sub-step id '${id}'`);
  else if (ctx.ids.has(id)) ctx.errors.push(`duplicate step ID '${id}' found`);
  if (at.kind === 'sub') at.siblings.add(id);
}

/** The sub-steps of a loop body, a group or onFailure, each compiled at its place. */
export function compileSubSteps(steps: readonly WorkflowStep[], group: string, ctx: StepContext, outputByDefault: boolean): CompiledToolStep[] {
  const siblings = new Set<string>();
  return steps
    .map((s, index) => compileStep(s, ctx, { kind: 'sub', group, index, siblings }, outputByDefault))
    .filter((s): s is CompiledToolStep => s?.kind === 'tool');
}

/**
 * Compiles `step` at `at` (sub-steps are tool steps only). Returns undefined when the step is
 * too broken to compile (its errors are in ctx).
 */
export function compileStep(step: WorkflowStep, ctx: StepContext, at: StepPlace, outputByDefault = false): CompiledStep | undefined {
  const { id } = step;
  recordId(id, at, ctx);
  const kinds = (['tool', 'forEach', 'parallel'] as const).filter((k) => step[k] !== undefined);
  const broken = (message: string): undefined => {
    ctx.errors.push(message);
    ctx.ids.add(id);
    return undefined;
  };
  if (at.kind === 'sub') {
    const where = `${at.group} sub-step ${at.index} (${id})`;
    if (step.tool === undefined) return broken(`${where}: tool is required${kinds.length ? ` (${TOOL_STEPS_ONLY})` : ''}`);
    if (kinds.length > 1) return broken(`${where}: tool is mutually exclusive with forEach/parallel (${TOOL_STEPS_ONLY})`);
  } else if (kinds.length !== 1) {
    const where = `step ${at.index} (${id})`;
    if (kinds.length === 0) return broken(`${where}: one of tool, forEach, or parallel is required`);
    return broken(
      step.tool !== undefined ? `${where}: tool is mutually exclusive with forEach/parallel` : `${where}: forEach and parallel are mutually exclusive`,
    );
  }
  if (step.maxConcurrency !== undefined && kinds[0] !== 'parallel')
    ctx.errors.push(`step '${id}': maxConcurrency applies to parallel groups (a loop takes forEach.concurrency)`);
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
    // An empty `args: {}` (what a generator writes on every step) carries nothing and is ignored,
    // as the reference does; arguments that would be dropped are refused (decisions.md).
    const emptyArgs = typeof step.args === 'object' && Object.keys(step.args).length === 0;
    if (step.args !== undefined && !emptyArgs) ctx.errors.push(`step '${id}': 'args' belong to tool steps; give them to the steps inside`);
    ctx.ids.add(id);
    if (step.forEach) {
      const f = step.forEach;
      const body = compileSubSteps(f.steps, `step '${id}' forEach`, ctx, output);
      return {
        ...base,
        kind: 'forEach',
        items: compileValue(f.items, () => `step '${id}', forEach.items`),
        as: f.as ?? 'item',
        body,
        concurrency: limit(f.concurrency, 1, `step '${id}': forEach.concurrency`, ctx.errors),
      };
    }
    const members = compileSubSteps(step.parallel!, `step '${id}' parallel`, ctx, output);
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
