/**
 * Whether a request accounts for every word of a tool's own name: "list the pull requests"
 * explains `list_pull_requests` whole, and `get_pull_request_reviews` only in part. Such a tool
 * gains a little (ranking.ts, NAME_COVER_BONUS): among the tools of one server, which share
 * most words, the one whose whole name the request says is likelier the one meant. A word
 * counts when the request has it, or an intent word or WordNet relative of one of its words
 * is it (a request says "show", a name "get"). The server's own name in a tool's name
 * ("asana_create_task") is not asked for.
 *
 * Kept as term numbers, a run per tool, built with the index: a query checks only the tools it
 * touched, a few numbers each.
 */
import type { CatalogueEntry } from '../../../kernel/index.js';
import { stem } from '../stem.js';
import { toolPart } from './standing.js';
import { words } from './words.js';

export class NameCover {
  private constructor(
    /** Tool -> where its name's terms start in `terms` (one more entry than tools, for the end). */
    private readonly starts: Uint32Array,
    private readonly terms: Uint32Array,
  ) {}

  /** `termOf`: a stemmed word's number in the index, or undefined when it holds none. */
  static of(entries: readonly CatalogueEntry[], termOf: (stemmed: string) => number | undefined): NameCover {
    const starts = new Uint32Array(entries.length + 1);
    const terms: number[] = [];
    entries.forEach((e, doc) => {
      const server = new Set(words(e.server ?? '').map(stem));
      const own = new Set<number>();
      for (const w of words(toolPart(e))) {
        const s = stem(w);
        const id = server.has(s) ? undefined : termOf(s);
        if (id !== undefined) own.add(id);
      }
      terms.push(...own);
      starts[doc + 1] = terms.length;
    });
    return new NameCover(starts, Uint32Array.from(terms));
  }

  /** Whether every term of tool `doc`'s own name is among `asked` (it has at least one). */
  covered(doc: number, asked: ReadonlySet<number>): boolean {
    const end = this.starts[doc + 1]!;
    let p = this.starts[doc]!;
    if (p === end) return false;
    for (; p < end; p++) if (!asked.has(this.terms[p]!)) return false;
    return true;
  }
}
