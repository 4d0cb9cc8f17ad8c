/**
 * Runs a compiled workflow: its steps in order (each a tool call, a loop or a group, see
 * step-runner.ts), conditions, allowFailure, rollback steps after a failure, the returned
 * document (result-document.ts), progress per step and cancellation with the caller's
 * call. Every tool call goes through the kernel's tool path, so the caller's toolset and
 * identity apply to each.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  errorResult,
  objectResult,
  SwitchboardError,
  type AggregatorLimits,
  type CallContext,
  type Cancellation,
  type EventLog,
  type EventType,
  type JsonObject,
  type SecretsApi,
  type ToolCallsApi,
  type ExecutionRecords,
} from '../../kernel/index.js';
import type { CompiledStep, CompiledWorkflow } from './compile-workflow.js';
import { scrubRecord, type ExecutionRecord, type StepRecord } from './execution-record.js';
import { resultDocument, type ShownStep } from './result-document.js';
import { StepRunner, type RunScope, type StepError } from './step-runner.js';
import { RenderTurns } from './render-turns.js';
import { templateBudget } from './templates.js';

/** Nested workflows deeper than this are refused (cycles are caught at validation; this is the backstop). */
export const MAX_DEPTH = 8;

function toolOf(step: CompiledStep): string {
  return step.kind === 'tool' ? step.tool : step.kind;
}

export interface EngineOptions {
  /** Step results (and arguments) larger than this are recorded truncated; the returned document never is. */
  maxRecordedResultBytes: number;
  /** The live `aggregator.limits` (template budget, forEach items), read at each use so a reload applies at once. */
  limits: () => AggregatorLimits;
  /** Where execution and step events go, when an event log is there. */
  events?: () => EventLog | undefined;
  /** Who is calling (principal key and name), recorded as the execution's caller: its owner. */
  callerOf?: (call: CallContext) => { key: string; name: string };
  /** Known secrets, kept out of execution records (execution-record.ts scrubRecord). */
  secrets?: SecretsApi;
}

export class WorkflowEngine {
  private readonly running = new Set<Cancellation>();
  private readonly runner: StepRunner;
  private readonly events: () => EventLog | undefined;
  private readonly callerOf: EngineOptions['callerOf'];
  private readonly limits: () => AggregatorLimits;
  private readonly turns = new RenderTurns();
  private readonly secrets: SecretsApi | undefined;

  constructor(
    tools: ToolCallsApi,
    private readonly store: ExecutionRecords,
    options: EngineOptions,
  ) {
    this.runner = new StepRunner(tools, options.maxRecordedResultBytes, options.limits, this.turns);
    this.limits = options.limits;
    this.events = options.events ?? (() => undefined);
    this.callerOf = options.callerOf;
    this.secrets = options.secrets;
  }

  private event(record: ExecutionRecord, type: EventType, reason: string, message: string): void {
    this.events()?.record({
      type,
      reason,
      resource: { type: 'WorkflowExecution', name: record.execution_id },
      message: `workflow '${record.workflow_name}' (execution ${record.execution_id}): ${message}`,
      ...(record.caller !== undefined ? { actor: { key: record.caller, name: record.caller_name ?? record.caller } } : {}),
    });
  }

  /** Shutdown: cancel every running execution; their records end `cancelled`. */
  cancelAll(): void {
    for (const c of this.running) c.abort();
  }

  /** Runs `wf`, cancelled by the caller's cancellation or by cancelAll(). */
  async run(wf: CompiledWorkflow, input: JsonObject, caller: CallContext): Promise<CallToolResult> {
    const { cancellation, release } = caller.cancellation.child();
    this.running.add(cancellation);
    try {
      return await this.execute(wf, input, { ...caller, cancellation });
    } finally {
      release();
      this.running.delete(cancellation);
    }
  }

  private async execute(wf: CompiledWorkflow, input: JsonObject, call: CallContext): Promise<CallToolResult> {
    if (call.depth >= MAX_DEPTH)
      throw new SwitchboardError('WORKFLOW_FAILED', `workflow '${wf.def.name}' is nested ${call.depth} deep; at most ${MAX_DEPTH} levels are allowed`);
    const started = Date.now();
    const caller = this.callerOf?.(call);
    const record: ExecutionRecord = {
      execution_id: randomUUID(),
      workflow_name: wf.def.name,
      status: 'running',
      started_at: new Date(started).toISOString(),
      input,
      ...(caller ? { caller: caller.key, caller_name: caller.name } : {}),
      steps: wf.steps.map((s) => ({ id: s.id, tool: toolOf(s), status: 'pending' as const })),
    };
    scrubRecord(record, this.secrets);
    this.store.add(record);
    this.event(record, 'Normal', 'ExecutionStarted', 'started');
    const stepCall: CallContext = { ...call, depth: call.depth + 1 };
    delete stepCall.progress;
    const results: Record<string, unknown> = {};
    const scope: RunScope = {
      data: { input, results, context: results, vars: { execution_id: record.execution_id, workflow: wf.def.name } },
      outcomes: new Map(),
      outputs: {},
      call: stepCall,
    };
    const shown: ShownStep[] = [];
    const marked: ShownStep[] = [];
    let failure: StepError | undefined;
    let cancelled = false;
    const tops = [...record.steps];
    for (let i = 0; i < wf.steps.length; i++) {
      const step = wf.steps[i]!;
      const rec = tops[i]!;
      if (call.cancellation.aborted) {
        cancelled = true;
        break;
      }
      await call.progress?.(i, wf.steps.length, `step ${step.id}`);
      const children: StepRecord[] = [];
      const outcome = await this.runner.run(step, scope, rec, children);
      // Sub-step records follow their loop or group in the record.
      if (children.length) record.steps.splice(record.steps.indexOf(rec) + 1, 0, ...children);
      if (outcome.status === 'failed') this.event(record, 'Warning', 'StepFailed', `step '${step.id}' failed: ${outcome.error.message}`);
      else if (outcome.status !== 'cancelled')
        this.event(
          record,
          'Normal',
          outcome.status === 'skipped' ? 'StepSkipped' : 'StepCompleted',
          `step '${step.id}' ${outcome.status === 'tolerated' ? 'failed, tolerated (allowFailure)' : outcome.status}`,
        );
      if (this.store.shared) {
        // Other replicas read the stored copy, not this live record: each step's end is stored for them.
        scrubRecord(record, this.secrets);
        void this.store.save(record);
      }
      if (outcome.status === 'completed' || outcome.status === 'tolerated') {
        results[step.id] = outcome.value;
        // Conditions (fromStep) read loops and groups as they read tool steps.
        scope.outcomes.set(step.id, { success: outcome.status === 'completed', value: outcome.value });
        const entry: ShownStep = { id: step.id, tool: toolOf(step), status: outcome.status, result: outcome.value };
        shown.push(entry);
        if (step.output) marked.push(entry);
      } else if (outcome.status === 'cancelled') {
        cancelled = true;
        break;
      } else if (outcome.status === 'failed') {
        failure = outcome.error;
        for (const later of tops.slice(i + 1)) later.status = 'skipped';
        break;
      }
    }
    if (cancelled) for (const s of record.steps) if (s.status === 'pending' || s.status === 'running') s.status = 'cancelled';
    if (failure && !cancelled) await this.rollback(wf, scope, record, failure);
    await call.progress?.(wf.steps.length, wf.steps.length, 'done');
    record.completed_at = new Date().toISOString();
    record.duration_ms = Date.now() - started;
    let answer: CallToolResult;
    if (cancelled) {
      record.status = 'cancelled';
      record.error = 'cancelled by the client or by shutdown';
      answer = errorResult(new SwitchboardError('CANCELLED', `workflow '${wf.def.name}' was cancelled`, { execution_id: record.execution_id }));
    } else if (failure) {
      record.status = 'failed';
      record.error = `workflow '${wf.def.name}' failed at step '${failure.step}' (tool '${failure.tool}'): ${failure.message}`;
      record.failure = { step: failure.step, tool: failure.tool, message: failure.message };
      answer = errorResult(
        new SwitchboardError('WORKFLOW_FAILED', record.error, {
          execution_id: record.execution_id,
          step: failure.step,
          tool: failure.tool,
          message: failure.message,
          ...(failure.upstream !== undefined ? { upstream: failure.upstream } : {}),
        }),
      );
    } else {
      record.status = 'completed';
      if (this.turns.busy()) await this.turns.take();
      const budget = templateBudget(this.limits());
      const doc = resultDocument(wf, { executionId: record.execution_id, data: scope.data, steps: shown, marked, outputs: scope.outputs, budget });
      this.turns.spend(budget.elapsed());
      record.result = doc;
      answer = objectResult(doc);
    }
    scrubRecord(record, this.secrets);
    // Stored before the caller hears the answer, so any replica reading the history then has it.
    await this.store.save(record);
    if (record.status === 'completed') this.event(record, 'Normal', 'ExecutionCompleted', `completed in ${record.duration_ms} ms`);
    else this.event(record, 'Warning', record.status === 'failed' ? 'ExecutionFailed' : 'ExecutionCancelled', record.error ?? record.status);
    return answer;
  }

  /** onFailure steps, best-effort and in order, with `.error` bound; the run stays failed. */
  private async rollback(wf: CompiledWorkflow, scope: RunScope, record: ExecutionRecord, failure: StepError): Promise<void> {
    if (wf.onFailure.length === 0) return;
    record.rollback = [];
    const data = { ...scope.data, error: failure };
    for (const step of wf.onFailure) {
      const rec: StepRecord = { id: `onFailure.${step.id}`, tool: step.tool, status: 'pending' };
      record.rollback.push(rec);
      await this.runner.tool(step, data, scope, rec);
    }
  }
}
