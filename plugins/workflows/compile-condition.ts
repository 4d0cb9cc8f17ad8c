/**
 * A step's condition as written, checked and compiled: a tool called and its result
 * checked, an earlier step's result checked (`fromStep`), or a template rendering true or
 * false. Both spellings of every key are accepted (`fromStep`/`from_step`,
 * `expect_not`/`expectNot`, `json_path`/`jsonPath`), in files and in the tool form alike
 * (reference-behaviour.md §3).
 */
import type { WorkflowCondition } from '../../kernel/index.js';
import { compileValue, inputPathsOf, type CompiledValue } from './templates.js';

/** One `json_path` entry: a path (or a template yielding the actual value) and the value it must have. */
export interface CompiledPathCheck {
  /** A bare path read from the result, or a template rendered with `.result` bound. */
  key: { kind: 'path'; path: string } | { kind: 'template'; value: CompiledValue };
  want: CompiledValue;
}

export interface CompiledExpectation {
  success?: boolean;
  paths?: CompiledPathCheck[];
}

export type CompiledCondition =
  | { kind: 'tool'; tool: string; args: CompiledValue; expect?: CompiledExpectation; expectNot?: CompiledExpectation; inputs: string[] }
  | { kind: 'fromStep'; fromStep: string; expect?: CompiledExpectation; expectNot?: CompiledExpectation; inputs: string[] }
  | { kind: 'template'; template: CompiledValue; inputs: string[] };

/** What compiling a condition needs from its workflow. */
export interface ConditionContext {
  /** Ids of the steps before this one, which `fromStep` may name. */
  ids: ReadonlySet<string>;
  tools: Set<string>;
  errors: string[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function compileExpectation(expect: unknown, where: string, errors: string[], inputs: Set<string>): CompiledExpectation | undefined {
  if (expect === undefined) return undefined;
  if (!isObject(expect)) {
    errors.push(`${where}: must be an object`);
    return undefined;
  }
  const out: CompiledExpectation = {};
  const paths = expect.json_path ?? expect.jsonPath;
  if (expect.json_path !== undefined && expect.jsonPath !== undefined) errors.push(`${where}: set json_path or jsonPath, not both`);
  for (const [k, v] of Object.entries(expect)) {
    if (k === 'success') {
      if (typeof v === 'boolean') out.success = v;
      else errors.push(`${where}.success: must be a boolean`);
    } else if (k !== 'json_path' && k !== 'jsonPath') errors.push(`${where}: unknown expectation '${k}' (use success or json_path)`);
  }
  if (paths !== undefined) {
    if (!isObject(paths)) errors.push(`${where}.json_path: must map paths to expected values`);
    else
      out.paths = Object.entries(paths).map(([key, want]) => {
        const at = (path: string) => `${where}.json_path '${key}'${path ? ` ${path}` : ''}`;
        const check: CompiledPathCheck = {
          key: key.includes('{{') ? { kind: 'template', value: compileValue(key, () => at('key')) } : { kind: 'path', path: key },
          want: compileValue(want, (path) => at(`value${path ? ` '${path}'` : ''}`)),
        };
        if (check.key.kind === 'template') inputPathsOf(check.key.value, inputs);
        inputPathsOf(check.want, inputs);
        return check;
      });
  }
  return out;
}

/** Compiles the condition of step `id`; undefined (with its errors in ctx) when it is malformed. Throws TemplateLocationError for a template that does not parse. */
export function compileCondition(c: WorkflowCondition, id: string, ctx: ConditionContext): CompiledCondition | undefined {
  const where = `step '${id}', condition`;
  if (c.fromStep !== undefined && c.from_step !== undefined) ctx.errors.push(`${where}: set fromStep or from_step, not both`);
  if (c.expect_not !== undefined && c.expectNot !== undefined) ctx.errors.push(`${where}: set expect_not or expectNot, not both`);
  const fromStep = c.fromStep ?? c.from_step;
  const expectNot = c.expect_not ?? c.expectNot;
  // Worded as clients of the reference service match them (reference-behaviour.md §6.2).
  if (c.template !== undefined && (c.tool !== undefined || fromStep !== undefined)) {
    ctx.errors.push(`step '${id}': condition.template is mutually exclusive with tool/fromStep`);
    return undefined;
  }
  if (c.tool !== undefined && fromStep !== undefined) {
    ctx.errors.push(`step '${id}': condition: tool and fromStep are mutually exclusive`);
    return undefined;
  }
  if (c.tool === undefined && fromStep === undefined && c.template === undefined) {
    ctx.errors.push(`step '${id}': condition requires exactly one of template, tool, or fromStep`);
    return undefined;
  }
  if (c.template !== undefined) {
    if (c.expect !== undefined || expectNot !== undefined)
      ctx.errors.push(`${where}: a template condition has no expect; the template itself renders true or false`);
    const template = compileValue(c.template, () => `${where} template`);
    return { kind: 'template', template, inputs: [...inputPathsOf(template)] };
  }
  if (c.expect === undefined && expectNot === undefined) ctx.errors.push(`${where}: a tool or fromStep condition requires expect or expectNot`);
  const inputs = new Set<string>();
  const expect = compileExpectation(c.expect, `${where}.expect`, ctx.errors, inputs);
  const not = compileExpectation(expectNot, `${where}.expect_not`, ctx.errors, inputs);
  const expectations = { ...(expect ? { expect } : {}), ...(not ? { expectNot: not } : {}) };
  if (fromStep !== undefined) {
    if (!ctx.ids.has(fromStep)) ctx.errors.push(`${where}: fromStep '${fromStep}' is not an earlier step`);
    return { kind: 'fromStep', fromStep, ...expectations, inputs: [...inputs] };
  }
  const tool = c.tool!;
  ctx.tools.add(tool);
  const args = compileValue(c.args ?? {}, (path) => `${where} argument${path ? ` '${path}'` : ''}`);
  const argInputs = inputPathsOf(args);
  for (const p of inputs) argInputs.add(p);
  return { kind: 'tool', tool, args, ...expectations, inputs: [...argInputs] };
}
