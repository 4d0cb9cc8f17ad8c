/** The persisted record of one workflow run (decisions.md, "Workflows"). */
import type { ExecutionRecord, SecretsApi } from '../../kernel/index.js';

export type { ExecutionRecord, ExecutionStatus, StepRecord, StepStatus } from '../../kernel/index.js';

/** A result as the record keeps it: whole, or truncated with a marker past `maxBytes`. */
export function recordedValue(value: unknown, maxBytes: number): unknown {
  if (value === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify answers undefined for undefined, a function or a symbol, whatever its type says
  const json = JSON.stringify(value) ?? '';
  if (json.length <= maxBytes) return value;
  return { truncated: true, original_bytes: Buffer.byteLength(json), preview: json.slice(0, Math.min(maxBytes, 1024)) };
}

/**
 * The record without known secrets, changed in place (the store and the engine hold the
 * same object), before the store keeps or writes it: input, arguments, results, errors and
 * the returned document all end up on disk, in core_workflow_execution_* results and on the
 * admin pages. Step results are scrubbed already (kernel/invoke.ts); what a template made of
 * them, a caller's input and a failure's words may not be. One JSON pass when a secret is
 * known, none otherwise; call it only while no step is running (its step objects may be
 * replaced).
 */
export function scrubRecord(record: ExecutionRecord, secrets: SecretsApi | undefined): void {
  if (!secrets || secrets.size === 0) return;
  const scrubbed = secrets.scrubValue(record);
  if (scrubbed !== record) Object.assign(record, scrubbed);
}
