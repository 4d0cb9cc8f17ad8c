/**
 * Paging and id checks every task store shares, so tasks/list pages and refuses the same way
 * whichever store keeps the tasks.
 */
import { SwitchboardError, type TaskPage, type TaskRecord } from '../../kernel/index.js';

/** Task ids are random UUIDs (crypto.randomUUID: 122 random bits), nothing else: a store never looks up, or builds a path or key from, anything else. */
const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isTaskId(id: string): boolean {
  return TASK_ID.test(id);
}

/** Tasks per tasks/list page. */
export const TASK_PAGE_SIZE = 50;

/** A cursor is the offset of the page's first task, opaque to clients. */
export function cursorOffset(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const offset = /^o:(\d{1,9})$/.exec(text)?.[1];
  if (offset === undefined)
    throw new SwitchboardError('INVALID_ARGUMENTS', `invalid tasks/list cursor '${cursor.slice(0, 64)}': pass back a nextCursor exactly as received`);
  return Number(offset);
}

export function cursorAt(offset: number): string {
  return Buffer.from(`o:${offset}`, 'utf8').toString('base64url');
}

/** One page of `tasks` (newest first already). */
export function pageOfTasks(tasks: readonly TaskRecord[], limit: number, cursor: string | undefined): TaskPage {
  const offset = cursorOffset(cursor);
  const page = tasks.slice(offset, offset + limit);
  return offset + limit < tasks.length ? { tasks: page, nextCursor: cursorAt(offset + limit) } : { tasks: page };
}

/** Newest first; ties by id so pages are stable. */
export function newestFirst(a: TaskRecord, b: TaskRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.taskId < b.taskId ? 1 : a.taskId > b.taskId ? -1 : 0;
}
