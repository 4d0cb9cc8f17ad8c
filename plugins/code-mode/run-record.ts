/**
 * A run_code script's execution record, kept by the workflows' execution history (service
 * `executions`: files, Redis or whatever the deployment configured), so a run is read with
 * core_workflow_execution_get / _list under the same ownership rules as a workflow's run (its
 * caller and administrators). It is told apart by `kind: code` and `workflow_name: run_code`
 * (docs/decisions.md): `input` holds the script's arguments (its code), `steps` its calls as
 * the answer summarises them (name, timing, ok or the error code; not their arguments or
 * results, which the script consumed), `result` what it returned, `logs` what it logged.
 *
 * The record is added when the script starts (`running`) and saved once when it ends; calls
 * are appended to it as they end, so a reader of this process sees them while it runs.
 */
import type { ExecutionRecord, ExecutionRecords, ExecutionStatus, JsonObject, SecretsApi, StepRecord } from '../../kernel/index.js';
import type { HostOp, RunOutcome } from './messages.js';

/** One entry of the summary returned with the result (and a step of the record). */
export interface CallSummary {
  op: HostOp;
  name: string;
  /** When it started, in ms from the script's start. */
  at: number;
  ms: number;
  ok: boolean;
  error?: string;
}

/** The name a code run is filed under (`workflow_name`), which core_workflow_execution_list filters on. */
export const RUN_CODE = 'run_code';

export class RunRecord {
  private readonly record: ExecutionRecord;
  private readonly startedMs = Date.now();
  private done = false;

  constructor(
    private readonly store: ExecutionRecords,
    executionId: string,
    input: JsonObject,
    caller: { key: string; name: string },
  ) {
    this.record = {
      execution_id: executionId,
      kind: 'code',
      workflow_name: RUN_CODE,
      status: 'running',
      started_at: new Date(this.startedMs).toISOString(),
      input,
      caller: caller.key,
      caller_name: caller.name,
      steps: [],
    };
    store.add(this.record);
  }

  /** A call the script made, as it ended. */
  called(c: CallSummary): void {
    // A call cancelled as the script ended answers after the record was stored: it is not in the answer either.
    if (this.done) return;
    const step: StepRecord = {
      step_id: String(this.record.steps.length + 1),
      id: String(this.record.steps.length + 1),
      tool: c.op === 'call' ? c.name : `tools.${c.op}`,
      status: c.ok ? 'completed' : 'failed',
      started_at: new Date(this.startedMs + c.at).toISOString(),
      completed_at: new Date(this.startedMs + c.at + c.ms).toISOString(),
      duration_ms: c.ms,
    };
    // A search's query or a description's tool: what the script asked (a call's arguments stay out).
    if (c.op !== 'call') step.input = c.op === 'search' ? { query: c.name } : { name: c.name };
    if (c.error !== undefined) step.error = c.error;
    this.record.steps.push(step);
  }

  /**
   * The run ended: its status, result or error, logs; stored without the operator's secrets.
   * Resolves once stored when the history is shared by replicas (a reader elsewhere sees
   * the end the answer reports), at once otherwise (this process reads the live record).
   */
  async ended(outcome: RunOutcome, result: unknown, logs: readonly string[], secrets: SecretsApi): Promise<void> {
    if (this.done) return;
    this.done = true;
    const r = this.record;
    const now = Date.now();
    r.status = statusOf(outcome);
    r.completed_at = new Date(now).toISOString();
    r.duration_ms = now - this.startedMs;
    if (outcome.ok) r.result = result;
    else r.error = outcome.message;
    r.logs = [...logs];
    if (secrets.size > 0) {
      const scrubbed = secrets.scrubValue(r);
      if (scrubbed !== r) Object.assign(r, scrubbed);
    }
    if (this.store.shared) await this.store.save(r);
    else void this.store.save(r);
  }
}

function statusOf(outcome: RunOutcome): ExecutionStatus {
  if (outcome.ok) return 'completed';
  return outcome.kind === 'cancelled' ? 'cancelled' : 'failed';
}
