/**
 * Whether a step's condition holds: a tool called and its result checked, an earlier step's
 * result checked, or a template that renders true or false. The answer comes with what was
 * examined, for the document's `condition_*` fields (reference-behaviour.md §1.1, §3).
 */
import type { CallToolResult } from '#mcp-sdk/types.js';
import { errorResult, SwitchboardError, type CallContext, type JsonObject, type ToolCallsApi } from '../../kernel/index.js';
import type { CompiledCondition, CompiledExpectation } from './compile-condition.js';
import { isFailureValue } from './failure-value.js';
import { looselyEqual, readJsonPath } from './json-path.js';
import { stepValue } from './step-value.js';
import type { CompiledValue } from './templates.js';

export class ConditionError extends SwitchboardError {
  constructor(message: string) {
    super('WORKFLOW_FAILED', message);
  }
}

/** What a condition examined and what it decided. */
export interface ConditionReport {
  holds: boolean;
  /** `template`, the condition tool's name, or `from_step:<id>`. */
  tool: string;
  /** The rendered template, the parsed tool result, or the referenced step's result. */
  result: unknown;
}

/** Renders a compiled value within the engine's budget and turns (StepRunner.render). */
export type Render = (cv: CompiledValue, data: unknown) => Promise<unknown>;

/** The template data a condition renders with, and where its `.input` references are noted. */
export interface ConditionScope {
  data: { readonly results: Record<string, unknown> };
  tools: ToolCallsApi;
  call: CallContext;
  render: Render;
  /** The step the condition belongs to, for messages. */
  step: string;
}

/** Every json_path entry matches (a path that does not resolve does not). */
async function pathsMatch(e: CompiledExpectation, value: unknown, s: ConditionScope): Promise<boolean> {
  if (!e.paths) return true;
  const data = { ...s.data, result: value };
  for (const check of e.paths) {
    const actual = check.key.kind === 'path' ? readJsonPath(value, check.key.path) : await s.render(check.key.value, data);
    if (actual === undefined || !looselyEqual(actual, await s.render(check.want, data))) return false;
  }
  return true;
}

async function expectationsHold(c: Extract<CompiledCondition, { expect?: unknown }>, success: boolean, value: unknown, s: ConditionScope): Promise<boolean> {
  const { expect, expectNot } = c;
  // Not given is not checked: an expect with json_path alone passes on success as on failure.
  if (expect && ((expect.success !== undefined && expect.success !== success) || !(await pathsMatch(expect, value, s)))) return false;
  if (!expectNot) return true;
  if (expectNot.paths) return !(await pathsMatch(expectNot, value, s));
  return expectNot.success === undefined || expectNot.success !== success;
}

export async function evaluateCondition(c: CompiledCondition, s: ConditionScope): Promise<ConditionReport> {
  if (c.kind === 'template') {
    const v = await s.render(c.template, s.data);
    if (v === true || v === 'true') return { holds: true, tool: 'template', result: v };
    if (v === false || v === 'false') return { holds: false, tool: 'template', result: v };
    throw new ConditionError(`step '${s.step}': condition template rendered ${JSON.stringify(v)}, not true or false`);
  }
  if (c.kind === 'fromStep') {
    const value = s.data.results[c.fromStep];
    if (value === undefined) throw new ConditionError(`step ${s.step} condition references non-existent step result: ${c.fromStep}`);
    return { holds: await expectationsHold(c, !isFailureValue(value), value, s), tool: `from_step:${c.fromStep}`, result: value };
  }
  let r: CallToolResult;
  try {
    r = await s.tools.call(c.tool, (await s.render(c.args, s.data)) as JsonObject, s.call);
  } catch (err) {
    r = errorResult(err);
  }
  const value = stepValue(r);
  return { holds: await expectationsHold(c, !r.isError, value, s), tool: c.tool, result: value };
}
