/**
 * How a late result is told, the same on a run and on its task (docs/decisions.md, "A paused
 * replica's late result"): the end the other replicas recorded when they declared the
 * replica dead stands (a client may already have acted on it, say retried a tool with side
 * effects); the replica's own end is kept beside it as a LateEnd, and the task's status
 * message says it in words, since tasks/get shows no other field.
 */
import type { LateEnd } from '../../kernel/index.js';

/** The reason the survivors give (and the fenced replica gives, when it takes its own record over first). */
export const endedDuringRun = (replica: string): string => `replica ${replica} ended during the run`;
export const endedDuringTask = (replica: string): string => `replica ${replica} ended during the task`;

export function lateEnd(status: LateEnd['status'], replica: string, at: string = new Date().toISOString()): LateEnd {
  return { status, completed_at: at, replica };
}

/** Appended to the status message the task ended with: the client polling tasks/get learns the work did run. */
export function lateNote(kept: string | undefined, late: LateEnd): string {
  const note = `the work went on and ended ${late.status} at ${late.completed_at} on replica ${late.replica} after this end was recorded (its effects may have taken place); this end stands`;
  return kept ? `${kept}; ${note}` : note;
}
