/**
 * Runs one step of a workflow: a tool call, a loop over items (iterations concurrently up
 * to `concurrency`) or a group of tool calls started together. A step never throws for a
 * failure of its own: it returns an outcome (completed, failed, tolerated, skipped,
 * cancelled) and adds its entries (step-entry.ts) to the sink it is given: one per tool
 * call reached, loop iterations and group members in their canonical order.
 */
import type { CallToolResult } from '#mcp-sdk/types.js';
import { asSwitchboardError, errorResult, type AggregatorLimits, type CallContext, type JsonObject, type ToolCallsApi } from '../../kernel/index.js';
import type { CompiledCondition, CompiledGroup, CompiledLoop, CompiledStep, CompiledToolStep } from './compile-step.js';
import { evaluateCondition, type ConditionReport } from './conditions.js';
import { recordedValue } from './execution-record.js';
import { failureValue, type FailureValue } from './failure-value.js';
import { runPool } from './pool.js';
import type { RenderTurns } from './render-turns.js';
import { newEntry, type EntrySink, type StepEntry } from './step-entry.js';
import { failureText, stepValue } from './step-value.js';
import { ListTooLong, TemplateIsolation } from './template-isolation.js';
import { mayLoop, RenderError, renderValue, templateBudget, type CompiledValue } from './templates.js';

/** What a failed step reports: which step, which tool, and the tool's (or template's) own words. */
export interface StepError {
  step: string;
  tool: string;
  message: string;
  /** The upstream's structured error, when the tool answered with one. */
  upstream?: unknown;
}

export type StepOutcome =
  | { status: 'completed'; value: unknown }
  | { status: 'tolerated'; value: FailureValue }
  | { status: 'failed'; error: StepError }
  | { status: 'skipped' | 'cancelled' };

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
  /** Step `outputs` (name: template), merged. */
  outputs: Record<string, unknown>;
  call: CallContext;
  /** The `.input` paths of the templates rendered so far, in order of first use (template_vars). */
  inputs: Set<string>;
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v;
}

/** The items expression as written, for messages (in single quotes: the run's JSON document escapes none). */
function itemsSource(cv: CompiledValue): string {
  if (cv.kind === 'template') return `'${cv.template.source}'`;
  if (cv.kind === 'literal') return typeof cv.value === 'string' ? `'${cv.value}'` : JSON.stringify(cv.value);
  return '(as written)';
}

function withData(data: RunData, vars: Record<string, unknown>, local: Record<string, unknown>): RunData {
  const results = { ...data.results, ...local };
  return { ...data, results, context: results, vars };
}

/** The words of a failure that is not the tool's: a template, a condition, a refusal. */
function messageOf(err: unknown): string {
  return err instanceof RenderError ? err.message : asSwitchboardError(err).message;
}

export class StepRunner {
  constructor(
    private readonly tools: ToolCallsApi,
    private readonly maxRecordedBytes: number,
    private readonly limits: () => AggregatorLimits,
    private readonly turns: RenderTurns,
  ) {}

  /** Where templates that can loop or build render: off the event loop. */
  private readonly isolation = new TemplateIsolation();

  /**
   * Renders `cv` within a fresh budget from the live limits: in the template worker when a
   * template in it can loop or build, else in-process, taking its turn with I/O.
   */
  readonly render = async (cv: CompiledValue, data: unknown, maxItems?: number): Promise<unknown> => {
    if (mayLoop(cv)) return this.isolation.render(cv, data, this.limits().templates, maxItems);
    if (this.turns.busy()) await this.turns.take();
    const budget = templateBudget(this.limits());
    try {
      return renderValue(cv, data, budget);
    } finally {
      this.turns.spend(budget.elapsed());
    }
  };

  private condition(c: CompiledCondition, data: RunData, scope: RunScope, step: string): Promise<ConditionReport> {
    for (const p of c.inputs) scope.inputs.add(p);
    return evaluateCondition(c, { data, tools: this.tools, call: scope.call, render: this.render, step });
  }

  /** Runs a top-level step, adding its entries to `sink`. */
  run(step: CompiledStep, scope: RunScope, sink: EntrySink): Promise<StepOutcome> {
    if (step.kind === 'tool') return this.tool(step, scope.data, scope, sink);
    return step.kind === 'forEach' ? this.loop(step, scope, sink) : this.group(step, scope, sink);
  }

  /**
   * A tool step, with `data` as its template root (a loop iteration's, or the run's). `path`
   * is where it ran when that says more than its id (`loop[2].sub`, `onFailure.undo`).
   */
  async tool(step: CompiledToolStep, data: RunData, scope: RunScope, sink: EntrySink, path?: string, rollback = false): Promise<StepOutcome> {
    const entry = newEntry(step.id, step.tool, step, path, rollback);
    sink.push(entry);
    try {
      if (step.condition) {
        entry.condition = await this.condition(step.condition, data, scope, step.id);
        if (!entry.condition.holds) return this.finish(entry, { status: 'skipped' });
      }
      for (const p of step.argInputs) scope.inputs.add(p);
      let args: JsonObject;
      try {
        args = (await this.render(step.args, data)) as JsonObject;
      } catch (err) {
        if (!(err instanceof RenderError)) throw err;
        return this.failed(step, entry, { step: step.id, tool: step.tool, message: `failed to render arguments for argument '${err.path}': ${err.message}` });
      }
      entry.record.input = entry.record.args = recordedValue(args, this.maxRecordedBytes);
      let result: CallToolResult;
      try {
        result = await this.tools.call(step.tool, args, scope.call);
      } catch (err) {
        result = errorResult(err);
      }
      if (scope.call.cancellation.aborted) return this.finish(entry, { status: 'cancelled' });
      if (result.isError) {
        const upstream = (result.structuredContent as { error?: unknown } | undefined)?.error;
        return this.failed(step, entry, { step: step.id, tool: step.tool, message: failureText(result), ...(upstream !== undefined ? { upstream } : {}) });
      }
      const value = stepValue(result);
      if (step.outputs) Object.assign(scope.outputs, (await this.render(step.outputs, { ...data, result: value })) as object);
      return this.finish(entry, { status: 'completed', value });
    } catch (err) {
      // A condition or an `outputs` template that cannot be evaluated: the step fails, saying where.
      return this.failed(step, entry, { step: step.id, tool: step.tool, message: messageOf(err) });
    }
  }

  /** The entry a loop or group has of its own: when its condition is false, or it fails before its sub-steps run. */
  private own(step: CompiledLoop | CompiledGroup, sink: EntrySink, started: number, condition?: ConditionReport): StepEntry {
    const entry = newEntry(step.id, step.kind, step, undefined, false, started);
    if (condition) entry.condition = condition;
    sink.push(entry);
    return entry;
  }

  private async loop(step: CompiledLoop, scope: RunScope, sink: EntrySink): Promise<StepOutcome> {
    const started = Date.now();
    let items: unknown;
    let condition: ConditionReport | undefined;
    try {
      if (step.condition) {
        condition = await this.condition(step.condition, scope.data, scope, step.id);
        if (!condition.holds) return this.finish(this.own(step, sink, started, condition), { status: 'skipped' });
      }
      items = await this.render(step.items, scope.data, this.limits().workflows.maxIterations);
    } catch (err) {
      return this.failed(step, this.own(step, sink, started, condition), { step: step.id, tool: 'forEach', message: messageOf(err) });
    }
    if (!Array.isArray(items) && !(items instanceof ListTooLong))
      return this.failed(step, this.own(step, sink, started, condition), {
        step: step.id,
        tool: 'forEach',
        message: `step '${step.id}': forEach items expression ${itemsSource(step.items)} resolved to ${typeName(items)}, expected a list`,
      });
    // Refused before any iteration: each one is a tool call and a record, and 100,000 of
    // them held the gateway for seconds and wrote a 40 MB record.
    // A list rendered in the template worker that is too long comes back as its length only.
    const maxItems = this.limits().workflows.maxIterations;
    const count = items instanceof ListTooLong ? items.length : (items as unknown[]).length;
    if (items instanceof ListTooLong || count > maxItems) {
      return this.failed(step, this.own(step, sink, started, condition), {
        step: step.id,
        tool: 'forEach',
        message: `step '${step.id}': forEach.items has ${count} items; at most ${maxItems} are allowed (aggregator.limits.workflows.maxIterations)`,
      });
    }
    const list: readonly unknown[] = items;
    const values: unknown[] = new Array(list.length);
    const slots: StepEntry[][] = list.map(() => []);
    const results = scope.data.results;
    let failure: StepError | undefined;
    let failedEntry: StepEntry | undefined;
    const aborted = () => scope.call.cancellation.aborted;
    await runPool(
      list.length,
      step.concurrency,
      async (i) => {
        const vars = { ...scope.data.vars, [step.as]: list[i], [`${step.as}_index`]: i };
        const local: Record<string, unknown> = {};
        const slot = slots[i]!;
        for (const body of step.body) {
          if (aborted() || failure) return;
          const path = `${step.id}[${i}].${body.id}`;
          const o = await this.tool(body, withData(scope.data, vars, local), scope, slot, path);
          if (o.status === 'failed') {
            failure ??= { ...o.error, step: path, message: `iteration ${i}: ${o.error.message}` };
            failedEntry ??= slot.at(-1);
            return;
          }
          if (o.status === 'completed' || o.status === 'tolerated') local[body.id] = results[`${body.id}_${i}`] = o.value;
        }
        values[i] = step.body.length === 1 ? local[step.body[0]!.id] : local;
      },
      () => failure !== undefined || aborted(),
    );
    for (const slot of slots) for (const e of slot) sink.push(e);
    // After the loop, a body step's plain name is its last iteration's result.
    for (const body of step.body)
      for (let i = list.length - 1; i >= 0; i--) {
        const v = results[`${body.id}_${i}`];
        if (v !== undefined) {
          results[body.id] = v;
          break;
        }
      }
    if (aborted()) return { status: 'cancelled' };
    if (failure) return this.subStepFailed(step, failure, failedEntry ? [failedEntry] : []);
    return { status: 'completed', value: values };
  }

  private async group(step: CompiledGroup, scope: RunScope, sink: EntrySink): Promise<StepOutcome> {
    const started = Date.now();
    if (step.condition) {
      let condition: ConditionReport;
      try {
        condition = await this.condition(step.condition, scope.data, scope, step.id);
      } catch (err) {
        return this.failed(step, this.own(step, sink, started), { step: step.id, tool: 'parallel', message: messageOf(err) });
      }
      if (!condition.holds) return this.finish(this.own(step, sink, started, condition), { status: 'skipped' });
    }
    const value: Record<string, unknown> = {};
    const failures: StepError[] = [];
    const failedEntries: StepEntry[] = [];
    const slots: StepEntry[][] = step.members.map(() => []);
    // A failed member does not stop its siblings: each runs to its own end. Members see the
    // steps before the group, not each other: their plain names are set once all are done.
    await runPool(
      step.members.length,
      step.maxConcurrency,
      async (i) => {
        const o = await this.tool(step.members[i]!, scope.data, scope, slots[i]!);
        if (o.status === 'failed') {
          failures.push(o.error);
          failedEntries.push(slots[i]![0]!);
          value[step.members[i]!.id] = failureValue(o.error.step, o.error.tool, o.error.message);
        } else if (o.status === 'completed' || o.status === 'tolerated') value[step.members[i]!.id] = o.value;
      },
      () => false,
    );
    for (const slot of slots) for (const e of slot) sink.push(e);
    for (const member of step.members) if (member.id in value) scope.data.results[member.id] = value[member.id];
    if (scope.call.cancellation.aborted) return { status: 'cancelled' };
    if (failures.length) {
      const first = failures[0]!;
      const message = failures.map((f) => `'${f.step}' failed: ${f.message}`).join('; ');
      return this.subStepFailed(step, { ...first, message: `group '${step.id}': ${message}` }, failedEntries);
    }
    return { status: 'completed', value };
  }

  /** A loop or group whose sub-step failed: the run fails, or (allowFailure) those entries say the failure was tolerated. */
  private subStepFailed(step: CompiledLoop | CompiledGroup, error: StepError, entries: StepEntry[]): StepOutcome {
    if (!step.allowFailure) return { status: 'failed', error };
    for (const e of entries) {
      e.allowFailure = true;
      e.record.tolerated = true;
    }
    return { status: 'tolerated', value: failureValue(error.step, error.tool, error.message) };
  }

  /** A failure, or (allowFailure) a tolerated one whose failure object becomes the step's value. */
  private failed(step: CompiledStep, entry: StepEntry, error: StepError): StepOutcome {
    const value = failureValue(error.step, error.tool, error.message);
    entry.error = entry.record.error = error.message;
    entry.value = value;
    entry.record.result = recordedValue(value, this.maxRecordedBytes);
    this.close(entry, 'failed');
    if (!step.allowFailure && !entry.allowFailure) return { status: 'failed', error };
    entry.record.tolerated = true;
    return { status: 'tolerated', value };
  }

  private finish(entry: StepEntry, outcome: StepOutcome): StepOutcome {
    if (outcome.status === 'completed') {
      entry.value = outcome.value;
      entry.record.result = recordedValue(outcome.value, this.maxRecordedBytes);
    }
    this.close(entry, outcome.status === 'completed' ? 'completed' : outcome.status === 'cancelled' ? 'cancelled' : 'skipped');
    return outcome;
  }

  private close(entry: StepEntry, status: StepEntry['status']): void {
    const now = Date.now();
    entry.status = entry.record.status = status;
    entry.record.completed_at = new Date(now).toISOString();
    entry.record.duration_ms = now - entry.started;
  }
}
