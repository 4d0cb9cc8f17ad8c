/**
 * The search index is built once per catalogue version; built lazily, the first filter_tools
 * query after a change would pay for it (about 170 ms at 10k tools since descriptions are
 * indexed and names split). Built shortly after the change instead, off any request; the
 * short wait coalesces a burst of changes (servers connecting at startup, a hot reload of
 * several) into one build. A query that comes first still builds it itself, as before.
 */
import type { KernelApi } from '../../kernel/index.js';
import { indexFor } from './ranking.js';

const COALESCE_MS = 250;

export function warmSearchIndex(kernel: KernelApi): void {
  let pending: NodeJS.Timeout | undefined;
  kernel.hooks.onCatalogueChange.tap('meta-tools', () => {
    if (pending) return;
    pending = setTimeout(() => {
      pending = undefined;
      indexFor(kernel.catalogue);
    }, COALESCE_MS);
    pending.unref();
  });
}
