/**
 * One answer to an ExecutionListQuery over records held newest first, whatever keeps them
 * (files, Redis), so every store filters and pages alike.
 */
import type { ExecutionListQuery, ExecutionPage, ExecutionRecord } from '../../kernel/index.js';

/** `visible` is applied before paging, so `total` and the pages count only what the asker may read. */
export function pageOf(records: readonly ExecutionRecord[], q: ExecutionListQuery): ExecutionPage {
  const matching = records.filter(
    (r) => (!q.status || r.status === q.status) && (!q.workflow_name || r.workflow_name === q.workflow_name) && (!q.visible || q.visible(r)),
  );
  return { executions: matching.slice(q.offset, q.offset + q.limit), total: matching.length };
}
