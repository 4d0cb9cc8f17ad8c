/**
 * Runs a compiled workflow: its steps in order (each a tool call, a loop or a group, see
 * step-runner.ts), conditions, allowFailure, rollback steps after a failure, the returned
 * document (result-document.ts), progress per step and cancellation with the caller's
 * call. Every tool call goes through the kernel's tool path, so the caller's toolset and
 * identity apply to each.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '#mcp-sdk/types.js';
import { formatDuration } from '#gotpl/duration';
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
import type { CompiledWorkflow } from './compile-workflow.js';
import { recordedDocument, scrubRecord, type ExecutionRecord } from './execution-record.js';
import { failureValue } from './failure-value.js';
import { completedDocument, failedDocument, type DocumentParts, type OutputRendering } from './result-document.js';
import type { EntrySink, StepEntry } from './step-entry.js';
import { StepRunner, type RunScope, type StepError, type StepOutcome } from './step-runner.js';
import { RenderTurns } from './render-turns.js';
import { RenderError, type CompiledValue } from './templates.js';

/** Nested workflows deeper than this are refused (cycles are caught at validation; this is the backstop). */
export const MAX_DEPTH = 8;

export interface RunOptions {
  /** `_debug`: the full document, every step's result shown. */
  debug?: boolean;
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
  private readonly turns = new RenderTurns();
  private readonly secrets: SecretsApi | undefined;
  private readonly maxRecordedResultBytes: number;

  constructor(
    tools: ToolCallsApi,
    private readonly store: ExecutionRecords,
    options: EngineOptions,
  ) {
    this.runner = new StepRunner(tools, options.maxRecordedResultBytes, options.limits, this.turns);
    this.events = options.events ?? (() => undefined);
    this.callerOf = options.callerOf;
    this.secrets = options.secrets;
    this.maxRecordedResultBytes = options.maxRecordedResultBytes;
  }

  /** Filed under the workflow, the run named by `execution_id` (reference-behaviour.md §10); `message` follows "Workflow <name> ". */
  private event(record: ExecutionRecord, type: EventType, reason: string, message: string): void {
    this.events()?.record({
      type,
      reason,
      resource: { type: 'Workflow', name: record.workflow_name },
      execution_id: record.execution_id,
      message: `Workflow ${record.workflow_name} ${message}`,
      ...(record.caller !== undefined ? { actor: { key: record.caller, name: record.caller_name ?? record.caller } } : {}),
    });
  }

  /** Shutdown: cancel every running execution; their records end `cancelled`. */
  cancelAll(): void {
    for (const c of this.running) c.abort();
  }

  /** Runs `wf`, cancelled by the caller's cancellation or by cancelAll(). */
  async run(wf: CompiledWorkflow, input: JsonObject, caller: CallContext, options: RunOptions = {}): Promise<CallToolResult> {
    const { cancellation, release } = caller.cancellation.child();
    this.running.add(cancellation);
    try {
      return await this.execute(wf, input, { ...caller, cancellation }, options.debug ?? false);
    } finally {
      release();
      this.running.delete(cancellation);
    }
  }

  private async execute(wf: CompiledWorkflow, input: JsonObject, call: CallContext, debug: boolean): Promise<CallToolResult> {
    if (call.depth >= MAX_DEPTH)
      throw new SwitchboardError('WORKFLOW_FAILED', `workflow '${wf.def.name}' is nested ${call.depth} deep; at most ${MAX_DEPTH} levels are allowed`);
    const started = Date.now();
    const caller = this.callerOf?.(call);
    const record: ExecutionRecord = {
      // A run the caller asked for as a task is that task: one id, so core_workflow_execution_get
      // answers for the task and tasks/get for the run (its steps run as plain calls).
      execution_id: call.task?.id ?? randomUUID(),
      workflow_name: wf.def.name,
      status: 'running',
      started_at: new Date(started).toISOString(),
      input,
      ...(caller ? { caller: caller.key, caller_name: caller.name } : {}),
      steps: [],
    };
    scrubRecord(record, this.secrets);
    this.store.add(record);
    this.event(record, 'Normal', 'WorkflowExecutionStarted', 'execution started');
    const stepCall: CallContext = { ...call, depth: call.depth + 1 };
    delete stepCall.progress;
    delete stepCall.task;
    const results: Record<string, unknown> = {};
    const scope: RunScope = {
      data: { input, results, context: results, vars: { execution_id: record.execution_id, workflow: wf.def.name } },
      outputs: {},
      call: stepCall,
      inputs: new Set(),
    };
    const entries: StepEntry[] = [];
    // The record's entries are the document's, there as soon as they start (a loop's and a
    // group's once they end, in their canonical order), so a running record shows progress.
    const sink: EntrySink = {
      push: (...added: StepEntry[]) => {
        for (const e of added) record.steps.push(e.record);
        return entries.push(...added);
      },
    };
    let failure: StepError | undefined;
    let cancelled = false;
    for (let i = 0; i < wf.steps.length; i++) {
      const step = wf.steps[i]!;
      if (call.cancellation.aborted) {
        cancelled = true;
        break;
      }
      await call.progress?.(i, wf.steps.length, `step ${step.id}`);
      this.event(record, 'Normal', 'WorkflowStepStarted', `step ${step.id} started (tool: ${step.kind === 'tool' ? step.tool : step.kind})`);
      const outcome = await this.runner.run(step, scope, sink);
      this.stepEvent(record, step.id, outcome);
      if (this.store.shared) {
        // Other replicas read the stored copy, not this live record: each step's end is stored for them.
        scrubRecord(record, this.secrets);
        void this.store.save(record);
      }
      if (outcome.status === 'completed' || outcome.status === 'tolerated') {
        results[step.id] = outcome.value;
      } else if (outcome.status === 'cancelled') {
        cancelled = true;
        break;
      } else if (outcome.status === 'failed') {
        failure = outcome.error;
        // A failed step has a result too, for onFailure templates and conditions (§2).
        results[step.id] = failureValue(failure.step, failure.tool, failure.message);
        break;
      }
    }
    if (cancelled) for (const s of record.steps) if (s.status === 'pending' || s.status === 'running') s.status = 'cancelled';
    if (failure && !cancelled) await this.rollback(wf, scope, failure, sink);
    await call.progress?.(wf.steps.length, wf.steps.length, 'done');
    record.completed_at = new Date().toISOString();
    record.duration_ms = Date.now() - started;
    // Known secrets leave the document before it becomes the text content: JSON inside a text
    // content is escaped twice, past what the kernel's scrubbing of the result looks for.
    const safe = (doc: JsonObject): JsonObject => (this.secrets ? this.secrets.scrubValue(doc) : doc);
    const parts: DocumentParts = { executionId: record.execution_id, data: scope.data, entries, inputs: scope.inputs, outputs: scope.outputs, debug };
    let answer: CallToolResult;
    if (cancelled) {
      record.status = 'cancelled';
      record.error = 'cancelled by the client or by shutdown';
      const message = `workflow '${wf.def.name}' was cancelled`;
      answer = documentError(
        safe(failedDocument(wf, parts, 'cancelled', message)),
        new SwitchboardError('CANCELLED', message, { execution_id: record.execution_id }),
      );
    } else if (failure) {
      record.status = 'failed';
      record.error = `workflow '${wf.def.name}' failed at step '${failure.step}' (tool '${failure.tool}'): ${failure.message}`;
      record.failure = { step: failure.step, tool: failure.tool, message: failure.message };
      answer = documentError(
        safe(failedDocument(wf, parts, 'failed', record.error)),
        new SwitchboardError('WORKFLOW_FAILED', record.error, {
          execution_id: record.execution_id,
          step: failure.step,
          tool: failure.tool,
          message: failure.message,
          ...(failure.upstream !== undefined ? { upstream: failure.upstream } : {}),
        }),
      );
    } else {
      const output = wf.output ? await this.renderOutput(wf.output, { ...parts.data, execution_id: parts.executionId }) : undefined;
      const done = completedDocument(wf, parts, output);
      if (done.ok) {
        record.status = 'completed';
        record.result = recordedDocument(done.doc, this.maxRecordedResultBytes);
        answer = objectResult(safe(done.doc));
        // _debug changes what the text shows, not the typed result the output schema promises.
        if (done.shaped && wf.outputSchema) answer.structuredContent = safe(done.shaped);
      } else {
        // The output template did not render: a failure, whose document still holds every result.
        record.status = 'failed';
        record.error = done.error;
        answer = documentError(safe(done.doc), new SwitchboardError('WORKFLOW_FAILED', done.error, { execution_id: record.execution_id }));
      }
    }
    scrubRecord(record, this.secrets);
    // Shared: stored before the caller hears the answer, so any replica reading the history
    // then has it. One process answers history from memory; its file write need not hold up
    // the answer (it was most of a short workflow's cost: about 1 ms of a 10-step run).
    if (this.store.shared) await this.store.save(record);
    else void this.store.save(record);
    if (record.status === 'completed')
      this.event(
        record,
        'Normal',
        'WorkflowExecutionCompleted',
        `execution completed successfully (${wf.steps.length} steps) in ${formatDuration(BigInt(record.duration_ms) * 1_000_000n)}`,
      );
    else if (record.status === 'failed') this.event(record, 'Warning', 'WorkflowExecutionFailed', `execution failed: ${record.error ?? 'failed'}`);
    else this.event(record, 'Warning', 'WorkflowExecutionCancelled', `execution cancelled: ${record.error ?? 'cancelled'}`);
    return answer;
  }

  /** A step's end, in the reference's words; a cancelled step says nothing (the run's cancellation does). */
  /**
   * The output template renders like a step's templates: in the template worker when it can
   * loop or build, else in-process taking its turn with I/O. Rendered in-process always, a
   * `range` in an output held the event loop for the whole budget (50 ms) and the garbage
   * after it: /health waited up to 100 ms while a few callers ran such a workflow.
   */
  private async renderOutput(cv: CompiledValue, data: unknown): Promise<OutputRendering> {
    try {
      return { rendered: await this.runner.render(cv, data) };
    } catch (err) {
      if (err instanceof RenderError) return { error: err };
      throw err;
    }
  }

  private stepEvent(record: ExecutionRecord, id: string, outcome: StepOutcome): void {
    switch (outcome.status) {
      case 'completed':
        return this.event(record, 'Normal', 'WorkflowStepCompleted', `step ${id} completed successfully`);
      case 'tolerated':
        return this.event(record, 'Warning', 'WorkflowStepFailed', `step ${id} failed (allow_failure=true, continuing): ${outcome.value.error}`);
      case 'failed':
        return this.event(record, 'Warning', 'WorkflowStepFailed', `step ${id} failed: ${outcome.error.message}`);
      case 'skipped':
        return this.event(record, 'Normal', 'WorkflowStepSkipped', `step ${id} skipped: condition evaluation returned false`);
      case 'cancelled':
        return;
    }
  }

  /**
   * onFailure steps, best-effort and in order, with `.error` bound; the run stays failed.
   * Their entries follow the failed step's, under their plain ids (`path: onFailure.<id>`).
   */
  private async rollback(wf: CompiledWorkflow, scope: RunScope, failure: StepError, sink: EntrySink): Promise<void> {
    const data = { ...scope.data, error: failure };
    for (const step of wf.onFailure) await this.runner.tool(step, data, scope, sink, `onFailure.${step.id}`, true);
  }
}

/**
 * A failure as clients read it: isError, and one text content that is the run's JSON
 * document (reference-behaviour.md §1.3); `structuredContent.error` as for every error.
 */
function documentError(doc: JsonObject, err: SwitchboardError): CallToolResult {
  const result = errorResult(err);
  result.content = [{ type: 'text', text: JSON.stringify(doc) }];
  return result;
}
