/**
 * Runs one step of a workflow: a tool call, a loop over items (iterations concurrently up
 * to `concurrency`) or a group of tool calls started together. A step never throws for a
 * failure of its own: it returns an outcome (completed, failed, tolerated, skipped,
 * cancelled) and fills its record; sub-steps add records of their own.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AggregatorLimits } from '../../kernel/config/settings.js';
import { asSwitchboardError } from '../../kernel/errors.js';
import type { ToolInvoker } from '../../kernel/invoke.js';
import { errorResult } from '../../kernel/mcp/shared/results.js';
import type { CallContext, JsonObject } from '../../kernel/tools.js';
import type { CompiledGroup, CompiledLoop, CompiledStep, CompiledToolStep } from './compile-step.js';
import { conditionHolds, type Outcome } from './conditions.js';
import { recordedValue, type StepRecord } from './execution-record.js';
import { TemplateError } from '#gotpl';
import { runPool } from './pool.js';
import { resultText, stepValue } from './step-value.js';
import type { RenderTurns } from './render-turns.js';
import { renderValue, templateBudget, type CompiledValue } from './templates.js';

/** What a failed step reports: which step, which tool, and the tool's (or template's) own words. */
export interface StepError {
  step: string;
  tool: string;
  message: string;
  /** The upstream's structured error, when the tool answered with one. */
  upstream?: unknown;
}

export type StepOutcome = { status: 'completed' | 'tolerated'; value: unknown } | { status: 'failed'; error: StepError } | { status: 'skipped' | 'cancelled' };

export interface RunData {
  input: JsonObject;
  results: Record<string, unknown>;
  /** The interface's alias of `results`. */
  context: Record<string, unknown>;
  vars: Record<string, unknown>;
  /** Set for onFailure steps: the failure being rolled back. */
  error?: StepError;
}

/** The run a step belongs to. */
export interface RunScope {
  data: RunData;
  outcomes: Map<string, Outcome>;
  /** Step `outputs` (name: template), merged. */
  outputs: Record<string, unknown>;
  call: CallContext;
}

function now(): string {
  return new Date().toISOString();
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v;
}

/** A tolerated failure's value, for later conditions and the output template. */
function toleratedValue(error: StepError): unknown {
  return { error: { step: error.step, tool: error.tool, message: error.message } };
}

function withData(data: RunData, vars: Record<string, unknown>, local: Record<string, unknown>): RunData {
  const results = { ...data.results, ...local };
  return { ...data, results, context: results, vars };
}

export class StepRunner {
  constructor(
    private readonly tools: ToolInvoker,
    private readonly maxRecordedBytes: number,
    private readonly limits: () => AggregatorLimits,
    private readonly turns: RenderTurns,
  ) {}

  /** Renders `cv` within a fresh budget from the live limits, taking its turn with I/O. */
  readonly render = async (cv: CompiledValue, data: unknown): Promise<unknown> => {
    if (this.turns.busy()) await this.turns.take();
    const budget = templateBudget(this.limits());
    try {
      return renderValue(cv, data, budget);
    } finally {
      this.turns.spend(budget.elapsed());
    }
  };

  private holds(step: CompiledStep, data: unknown, scope: RunScope): Promise<boolean> {
    return step.condition ? conditionHolds(step.condition, data, scope.outcomes, this.tools, scope.call, this.render) : Promise.resolve(true);
  }

  /** Runs a top-level step; sub-step records go to `children`, in the order they start. */
  run(step: CompiledStep, scope: RunScope, rec: StepRecord, children: StepRecord[]): Promise<StepOutcome> {
    if (step.kind === 'tool') return this.tool(step, scope.data, scope, rec);
    return step.kind === 'forEach' ? this.loop(step, scope, rec, children) : this.group(step, scope, rec, children);
  }

  /** A tool step, with `data` as its template root (a loop iteration's, or the run's). */
  async tool(step: CompiledToolStep, data: RunData, scope: RunScope, rec: StepRecord): Promise<StepOutcome> {
    const t0 = this.begin(rec);
    try {
      if (!(await this.holds(step, data, scope))) return this.finish(rec, t0, { status: 'skipped' });
      const args = (await this.render(step.args, data)) as JsonObject;
      rec.args = recordedValue(args, this.maxRecordedBytes);
      let result: CallToolResult;
      try {
        result = await this.tools.call(step.tool, args, scope.call);
      } catch (err) {
        result = errorResult(err);
      }
      if (scope.call.cancellation.aborted) return this.finish(rec, t0, { status: 'cancelled' });
      if (result.isError) {
        const upstream = (result.structuredContent as { error?: unknown } | undefined)?.error;
        const error: StepError = { step: step.id, tool: step.tool, message: resultText(result), ...(upstream !== undefined ? { upstream } : {}) };
        scope.outcomes.set(step.id, { success: false, value: result.structuredContent ?? resultText(result) });
        return this.failed(step, rec, t0, error);
      }
      const value = stepValue(result);
      scope.outcomes.set(step.id, { success: true, value });
      if (step.outputs) Object.assign(scope.outputs, (await this.render(step.outputs, { ...data, result: value })) as object);
      return this.finish(rec, t0, { status: 'completed', value });
    } catch (err) {
      // A template or condition that cannot be evaluated: the step fails, saying where.
      const message = err instanceof TemplateError ? `${err.message} (step '${step.id}')` : asSwitchboardError(err).message;
      scope.outcomes.set(step.id, { success: false, value: undefined });
      return this.failed(step, rec, t0, { step: step.id, tool: step.tool, message });
    }
  }

  private async loop(step: CompiledLoop, scope: RunScope, rec: StepRecord, children: StepRecord[]): Promise<StepOutcome> {
    const t0 = this.begin(rec);
    let items: unknown;
    try {
      if (!(await this.holds(step, scope.data, scope))) return this.finish(rec, t0, { status: 'skipped' });
      items = await this.render(step.items, scope.data);
    } catch (err) {
      return this.failed(step, rec, t0, {
        step: step.id,
        tool: 'forEach',
        message: err instanceof TemplateError ? `${err.message} (step '${step.id}')` : asSwitchboardError(err).message,
      });
    }
    if (!Array.isArray(items))
      return this.failed(step, rec, t0, {
        step: step.id,
        tool: 'forEach',
        message: `step '${step.id}': forEach.items rendered to ${typeName(items)}, not a list`,
      });
    // Refused before any iteration: each one is a tool call and a record, and 100,000 of
    // them held the gateway for seconds and wrote a 40 MB record.
    const maxItems = this.limits().workflows.maxIterations;
    if (items.length > maxItems) {
      return this.failed(step, rec, t0, {
        step: step.id,
        tool: 'forEach',
        message: `step '${step.id}': forEach.items has ${items.length} items; at most ${maxItems} are allowed (aggregator.limits.workflows.maxIterations)`,
      });
    }
    const list = items;
    const values: unknown[] = new Array(list.length);
    let failure: StepError | undefined;
    const aborted = () => scope.call.cancellation.aborted;
    await runPool(
      list.length,
      step.concurrency,
      async (i) => {
        const vars = { ...scope.data.vars, [step.as]: list[i], [`${step.as}_index`]: i };
        const local: Record<string, unknown> = {};
        for (const body of step.body) {
          if (aborted() || failure) return;
          const sub: StepRecord = { id: `${step.id}[${i}].${body.id}`, tool: body.tool, status: 'pending' };
          children.push(sub);
          const o = await this.tool(body, withData(scope.data, vars, local), scope, sub);
          if (o.status === 'failed') {
            failure ??= { ...o.error, step: sub.id, message: `iteration ${i}: ${o.error.message}` };
            return;
          }
          if (o.status === 'completed' || o.status === 'tolerated') local[body.id] = o.value;
        }
        values[i] = step.body.length === 1 ? local[step.body[0]!.id] : local;
      },
      () => failure !== undefined || aborted(),
    );
    if (aborted()) return this.finish(rec, t0, { status: 'cancelled' });
    if (failure) return this.failed(step, rec, t0, failure);
    return this.finish(rec, t0, { status: 'completed', value: values });
  }

  private async group(step: CompiledGroup, scope: RunScope, rec: StepRecord, children: StepRecord[]): Promise<StepOutcome> {
    const t0 = this.begin(rec);
    try {
      if (!(await this.holds(step, scope.data, scope))) return this.finish(rec, t0, { status: 'skipped' });
    } catch (err) {
      return this.failed(step, rec, t0, { step: step.id, tool: 'parallel', message: asSwitchboardError(err).message });
    }
    const value: Record<string, unknown> = {};
    const failures: StepError[] = [];
    // A failed member does not stop its siblings: each runs to its own end.
    await runPool(
      step.members.length,
      step.maxConcurrency,
      async (i) => {
        const member = step.members[i]!;
        const sub: StepRecord = { id: member.id, tool: member.tool, status: 'pending' };
        children.push(sub);
        const o = await this.tool(member, scope.data, scope, sub);
        if (o.status === 'failed') failures.push(o.error);
        else if (o.status === 'completed' || o.status === 'tolerated') value[member.id] = o.value;
      },
      () => false,
    );
    if (scope.call.cancellation.aborted) return this.finish(rec, t0, { status: 'cancelled' });
    if (failures.length) {
      const first = failures[0]!;
      const message = failures.map((f) => `'${f.step}' failed: ${f.message}`).join('; ');
      return this.failed(step, rec, t0, { ...first, message: `group '${step.id}': ${message}` });
    }
    return this.finish(rec, t0, { status: 'completed', value });
  }

  private begin(rec: StepRecord): number {
    const t0 = Date.now();
    rec.started_at = new Date(t0).toISOString();
    rec.status = 'running';
    return t0;
  }

  /** A failure, or (allowFailure) a tolerated one whose error becomes the step's value. */
  private failed(step: CompiledStep, rec: StepRecord, t0: number, error: StepError): StepOutcome {
    rec.error = error.message;
    if (step.allowFailure) return this.finish(rec, t0, { status: 'tolerated', value: toleratedValue(error) });
    return this.finish(rec, t0, { status: 'failed', error });
  }

  private finish(rec: StepRecord, t0: number, outcome: StepOutcome): StepOutcome {
    rec.status = outcome.status;
    rec.completed_at = now();
    rec.duration_ms = Date.now() - t0;
    if (outcome.status === 'completed' || outcome.status === 'tolerated') rec.result = recordedValue(outcome.value, this.maxRecordedBytes);
    return outcome;
  }
}
