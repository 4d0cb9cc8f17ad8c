/**
 * Runs a compiled workflow: steps in order, arguments rendered from `.input`, `.results`
 * (`.context` is the same map) and `.vars`; conditions; allowFailure; outputs; progress per
 * step; cancellation from the caller's signal. Every step goes through the kernel's tool
 * path, so the caller's toolset and identity apply to each.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asSwitchboardError, SwitchboardError } from '../../kernel/errors.js';
import type { ToolInvoker } from '../../kernel/invoke.js';
import { errorResult, objectResult } from '../../kernel/mcp/results.js';
import type { CallContext, JsonObject } from '../../kernel/tools.js';
import type { CompiledCondition, CompiledStep, CompiledWorkflow } from './compile-workflow.js';
import type { ExecutionRecord, StepRecord } from './execution-record.js';
import type { ExecutionStore } from './execution-store.js';
import { TemplateError } from './gotpl/index.js';
import { deepEqual, readJsonPath } from './json-path.js';
import { renderValue } from './templates.js';
import { resultText, stepValue } from './step-value.js';

/** Nested workflows deeper than this are refused (cycles are caught at validation; this is the backstop). */
export const MAX_DEPTH = 8;

interface RunState {
  data: { input: JsonObject; results: Record<string, unknown>; context: Record<string, unknown>; vars: Record<string, unknown> };
  /** Outcome of every step that ran, for fromStep conditions. */
  outcomes: Map<string, { success: boolean; value: unknown }>;
  outputs: Record<string, unknown>;
  last: unknown;
}

class StepFailure extends Error {}

function now(): string {
  return new Date().toISOString();
}

function expectationHolds(expect: Record<string, unknown>, success: boolean, value: unknown): boolean {
  if (expect.success !== undefined && expect.success !== success) return false;
  const paths = expect.json_path as Record<string, unknown> | undefined;
  if (paths) for (const [path, want] of Object.entries(paths)) if (!deepEqual(readJsonPath(value, path), want)) return false;
  return true;
}

export class WorkflowEngine {
  constructor(
    private readonly tools: ToolInvoker,
    private readonly store: ExecutionStore,
  ) {}

  private readonly running = new Set<AbortController>();

  /** Shutdown: cancel every running execution; their records end `cancelled`. */
  cancelAll(): void {
    for (const c of this.running) c.abort();
  }

  /** Runs `wf`, cancelled by the caller's signal or by cancelAll(). */
  async run(wf: CompiledWorkflow, input: JsonObject, caller: CallContext): Promise<CallToolResult> {
    const control = new AbortController();
    const relay = () => control.abort();
    caller.signal.addEventListener('abort', relay, { once: true });
    this.running.add(control);
    try {
      return await this.execute(wf, input, { ...caller, signal: control.signal });
    } finally {
      caller.signal.removeEventListener('abort', relay);
      this.running.delete(control);
    }
  }

  private async execute(wf: CompiledWorkflow, input: JsonObject, call: CallContext): Promise<CallToolResult> {
    if (call.depth >= MAX_DEPTH) throw new SwitchboardError('WORKFLOW_FAILED', `workflow '${wf.def.name}' is nested ${call.depth} deep; at most ${MAX_DEPTH} levels are allowed`);
    const started = Date.now();
    const record: ExecutionRecord = {
      execution_id: randomUUID(),
      workflow_name: wf.def.name,
      status: 'running',
      started_at: new Date(started).toISOString(),
      input,
      steps: wf.steps.map((s) => ({ id: s.def.id, tool: s.def.tool, status: 'pending' as const })),
    };
    this.store.add(record);
    const state: RunState = {
      data: { input, results: {}, context: {}, vars: { execution_id: record.execution_id, workflow: wf.def.name } },
      outcomes: new Map(),
      outputs: {},
      last: undefined,
    };
    state.data.context = state.data.results;
    const stepCall: CallContext = { ...call, depth: call.depth + 1 };
    delete stepCall.progress;
    let failure: SwitchboardError | undefined;
    for (let i = 0; i < wf.steps.length; i++) {
      const step = wf.steps[i]!;
      const rec = record.steps[i]!;
      if (call.signal.aborted) {
        this.cancelFrom(record, i);
        break;
      }
      await call.progress?.(i, wf.steps.length, `step ${step.def.id}`);
      try {
        await this.runStep(step, rec, state, stepCall);
      } catch (err) {
        if (call.signal.aborted) {
          rec.status = 'cancelled';
          rec.error = 'cancelled';
          this.cancelFrom(record, i + 1);
          break;
        }
        if (!(err instanceof StepFailure)) throw err;
        if (!step.def.allowFailure) {
          failure = new SwitchboardError('WORKFLOW_FAILED', `workflow '${wf.def.name}' failed at step '${step.def.id}': ${rec.error}`, {
            execution_id: record.execution_id,
            step: step.def.id,
          });
          for (const later of record.steps.slice(i + 1)) later.status = 'skipped';
          break;
        }
      }
    }
    await call.progress?.(wf.steps.length, wf.steps.length, 'done');
    record.completed_at = now();
    record.duration_ms = Date.now() - started;
    if (record.steps.some((s) => s.status === 'cancelled')) {
      record.status = 'cancelled';
      record.error = 'cancelled by the client or by shutdown';
    } else if (failure) {
      record.status = 'failed';
      record.error = failure.message;
    } else {
      record.status = 'completed';
      record.result = Object.keys(state.outputs).length ? state.outputs : state.last;
    }
    this.store.save(record);
    if (record.status === 'completed') {
      return objectResult({ execution_id: record.execution_id, workflow: wf.def.name, status: 'completed', outputs: (record.result ?? null) as JsonObject });
    }
    const err = failure ?? new SwitchboardError('CANCELLED', `workflow '${wf.def.name}' was cancelled`, { execution_id: record.execution_id });
    return errorResult(err);
  }

  private cancelFrom(record: ExecutionRecord, index: number): void {
    for (const s of record.steps.slice(index)) if (s.status === 'pending' || s.status === 'running') s.status = 'cancelled';
  }

  private async runStep(step: CompiledStep, rec: StepRecord, state: RunState, call: CallContext): Promise<void> {
    const t0 = Date.now();
    rec.started_at = new Date(t0).toISOString();
    rec.status = 'running';
    const finish = (status: StepRecord['status'], error?: string): void => {
      rec.status = status;
      rec.completed_at = now();
      rec.duration_ms = Date.now() - t0;
      if (error !== undefined) rec.error = error;
    };
    try {
      if (step.condition && !(await this.conditionHolds(step.condition, state, call))) {
        finish('skipped');
        return;
      }
      const args = renderValue(step.args, state.data) as JsonObject;
      rec.args = args;
      let result: CallToolResult;
      try {
        result = await this.tools.call(step.def.tool, args, call);
      } catch (err) {
        result = errorResult(err);
      }
      const value = result.isError ? (result.structuredContent ?? resultText(result)) : stepValue(result);
      rec.result = value;
      state.outcomes.set(step.def.id, { success: !result.isError, value });
      if (result.isError) {
        finish('failed', resultText(result));
        throw new StepFailure();
      }
      if (step.def.store) state.data.results[step.def.id] = value;
      state.last = value;
      if (step.outputs) Object.assign(state.outputs, renderValue(step.outputs, { ...state.data, result: value }) as object);
      finish('completed');
    } catch (err) {
      if (err instanceof StepFailure) throw err;
      const message = err instanceof TemplateError ? `${err.message} (step '${step.def.id}')` : asSwitchboardError(err).message;
      state.outcomes.set(step.def.id, { success: false, value: undefined });
      finish('failed', message);
      throw new StepFailure();
    }
  }

  private async conditionHolds(c: CompiledCondition, state: RunState, call: CallContext): Promise<boolean> {
    let success: boolean;
    let value: unknown;
    if (c.fromStep !== undefined) {
      const o = state.outcomes.get(c.fromStep);
      success = o?.success ?? false;
      value = o?.value;
    } else {
      const args = c.args ? (renderValue(c.args, state.data) as JsonObject) : {};
      let r: CallToolResult;
      try {
        r = await this.tools.call(c.tool!, args, call);
      } catch (err) {
        r = errorResult(err);
      }
      success = !r.isError;
      value = r.isError ? undefined : stepValue(r);
    }
    if (!expectationHolds(c.expect, success, value)) return false;
    if (c.expectNot && expectationHolds(c.expectNot, success, value)) return false;
    return true;
  }
}
