/** The persisted record of one workflow run (decisions.md, "Workflows"). */
export type { ExecutionRecord, ExecutionStatus, StepRecord, StepStatus } from '../../kernel/contracts/executions.js';

/** A result as the record keeps it: whole, or truncated with a marker past `maxBytes`. */
export function recordedValue(value: unknown, maxBytes: number): unknown {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value) ?? '';
  if (json.length <= maxBytes) return value;
  return { truncated: true, original_bytes: Buffer.byteLength(json), preview: json.slice(0, Math.min(maxBytes, 1024)) };
}
