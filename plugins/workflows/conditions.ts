/**
 * Whether a step's condition holds: a tool called and its result checked, an earlier step's
 * outcome checked, or a template that renders true or false.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolInvoker } from '../../kernel/invoke.js';
import { errorResult } from '../../kernel/mcp/shared/results.js';
import type { CallContext, JsonObject } from '../../kernel/tools.js';
import type { CompiledCondition } from './compile-step.js';
import { deepEqual, readJsonPath } from './json-path.js';
import { stepValue } from './step-value.js';
import type { CompiledValue } from './templates.js';

export interface Outcome {
  success: boolean;
  value: unknown;
}

export class ConditionError extends Error {}

function expectationHolds(expect: Record<string, unknown>, success: boolean, value: unknown): boolean {
  if (expect.success !== undefined && expect.success !== success) return false;
  const paths = expect.json_path as Record<string, unknown> | undefined;
  if (paths) for (const [path, want] of Object.entries(paths)) if (!deepEqual(readJsonPath(value, path), want)) return false;
  return true;
}

/** Renders a compiled value within the engine's budget and turns (StepRunner.render). */
export type Render = (cv: CompiledValue, data: unknown) => Promise<unknown>;

export async function conditionHolds(
  c: CompiledCondition,
  data: unknown,
  outcomes: ReadonlyMap<string, Outcome>,
  tools: ToolInvoker,
  call: CallContext,
  render: Render,
): Promise<boolean> {
  if (c.kind === 'template') {
    const v = await render(c.template, data);
    if (v === true || v === 'true') return true;
    if (v === false || v === 'false') return false;
    throw new ConditionError(`condition template rendered ${JSON.stringify(v)}, not true or false`);
  }
  let outcome: Outcome;
  if (c.kind === 'fromStep') {
    outcome = outcomes.get(c.fromStep) ?? { success: false, value: undefined };
  } else {
    let r: CallToolResult;
    try {
      r = await tools.call(c.tool, (await render(c.args, data)) as JsonObject, call);
    } catch (err) {
      r = errorResult(err);
    }
    outcome = { success: !r.isError, value: r.isError ? undefined : stepValue(r) };
  }
  if (!expectationHolds(c.expect, outcome.success, outcome.value)) return false;
  return !(c.expectNot && expectationHolds(c.expectNot, outcome.success, outcome.value));
}
