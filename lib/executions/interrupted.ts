/**
 * A run that will never finish (its process stopped, or the replica running it died) is
 * marked failed the same way wherever that is found: the run, its running steps with the
 * reason, its pending steps cancelled.
 */
import type { ExecutionRecord } from '../../kernel/index.js';

export function markInterrupted(record: ExecutionRecord, reason: string, now: Date = new Date()): void {
  record.status = 'failed';
  record.error = reason;
  record.completed_at ??= now.toISOString();
  for (const s of record.steps) {
    if (s.status === 'running') Object.assign(s, { status: 'failed', error: reason });
    else if (s.status === 'pending') s.status = 'cancelled';
  }
}
