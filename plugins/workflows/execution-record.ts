/** The persisted record of one workflow run (decisions.md, "Workflows"). */
import type { ExecutionRecord, JsonObject, SecretsApi } from '../../kernel/index.js';

export type { ExecutionRecord, ExecutionStatus, StepRecord, StepStatus } from '../../kernel/index.js';

/** A result as the record keeps it: whole, or truncated with a marker past `maxBytes`. */
export function recordedValue(value: unknown, maxBytes: number): unknown {
  if (value === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify answers undefined for undefined, a function or a symbol, whatever its type says
  const json = JSON.stringify(value) ?? '';
  if (json.length <= maxBytes) return value;
  return { truncated: true, original_bytes: Buffer.byteLength(json), preview: json.slice(0, Math.min(maxBytes, 1024)) };
}

/** Fields of the document that name the run: kept as they are. */
const IDENTITY = new Set(['execution_id', 'workflow', 'status']);

/**
 * The run's document as its record keeps it (`result`): each step entry's result and every
 * other value (the last step's keys, an output template's rendering, `outputs`) cut as a step
 * result is, so the record stays within a few times `maxBytes` per step whatever the tools
 * answered (a store such as etcd refuses large objects). The caller's answer is the whole
 * document; the steps' whole results were never kept twice.
 */
export function recordedDocument(doc: JsonObject, maxBytes: number): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(doc)) {
    if (IDENTITY.has(key)) out[key] = value;
    else if (key === 'steps' && Array.isArray(value))
      out.steps = value.map((entry: unknown) =>
        entry && typeof entry === 'object' && 'result' in entry ? { ...entry, result: recordedValue(entry.result, maxBytes) } : entry,
      );
    else out[key] = recordedValue(value, maxBytes);
  }
  return out;
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
