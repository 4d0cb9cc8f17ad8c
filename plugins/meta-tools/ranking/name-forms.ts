/**
 * A tool's own name as written, before stemming: which of a request's words it holds in the
 * very form the request has them. Stemming makes "flags" and "flag", "requests" and
 * "request" one term, which is what finds a tool at all; but "which feature flags are on"
 * means list-feature-flags more than create-feature-flag, and "the open pull requests" more
 * list_pull_requests than get_pull_request_reviews. A tool gains a little per word its name
 * holds as the request wrote it (ranking.ts, NAME_FORM_BONUS), which orders the tools a
 * stemmed match found alike.
 *
 * Kept as posting lists (word -> the tools whose names hold it), not a set per tool: at
 * 10,000 tools a set each would cost more than the whole index.
 */
import type { CatalogueEntry } from '../../../kernel/index.js';
import { toolPart } from './standing.js';
import { words } from './words.js';

export class NameForms {
  private constructor(
    /** Word -> its number. */
    private readonly ids: ReadonlyMap<string, number>,
    /** Word number -> where its tools start in `docs` (one more entry than words, for the end). */
    private readonly starts: Uint32Array,
    /** Every word's tools, one run per word. */
    private readonly docs: Uint32Array,
  ) {}

  static of(entries: readonly CatalogueEntry[]): NameForms {
    const lists = new Map<string, number[]>();
    entries.forEach((e, doc) => {
      for (const w of new Set(words(toolPart(e)).map((x) => x.toLowerCase()))) {
        const list = lists.get(w);
        if (list) list.push(doc);
        else lists.set(w, [doc]);
      }
    });
    const ids = new Map<string, number>();
    const starts = new Uint32Array(lists.size + 1);
    const docs = new Uint32Array([...lists.values()].reduce((sum, l) => sum + l.length, 0));
    let at = 0;
    for (const [w, list] of lists) {
      ids.set(w, ids.size);
      docs.set(list, at);
      at += list.length;
      starts[ids.size] = at;
    }
    return new NameForms(ids, starts, docs);
  }

  /**
   * Adds to `counts[doc]`, per distinct word of `queryWords` (lower case), 1 for each tool whose
   * name holds it as written; returns the tools counted, for the caller to clear.
   */
  count(queryWords: readonly string[], counts: Uint8Array): number[] {
    const counted: number[] = [];
    for (const w of new Set(queryWords)) {
      const id = this.ids.get(w);
      if (id === undefined) continue;
      for (let p = this.starts[id]!, end = this.starts[id + 1]!; p < end; p++) {
        const doc = this.docs[p]!;
        if (counts[doc] === 0) counted.push(doc);
        if (counts[doc]! < 255) counts[doc]!++;
      }
    }
    return counted;
  }
}
