/**
 * Families in the catalogue: each family's surface (family.ts) published as the source
 * `family:<name>`, the fallbacks each member had (for its status and a log line once), and
 * why a stopped member's own fallback names are gone.
 */
import type { CatalogueApi, Logger, ServerUnavailableError } from '../../kernel/index.js';
import type { UpstreamConnection } from './connection.js';
import { familySurface, type FamilyRefusal } from './family.js';

export interface FamilyCatalogueDeps {
  catalogue: CatalogueApi;
  log: Logger;
  /** Tool names each server listed last (shared with the registry's servers outside families). */
  lastKnown: Map<string, string[]>;
  unavailable(conn: UpstreamConnection): ServerUnavailableError;
}

export class FamilyCatalogue {
  /** Per family, the member tools that fell back to member names. */
  private readonly refusals = new Map<string, FamilyRefusal[]>();

  constructor(private readonly deps: FamilyCatalogueDeps) {}

  /** Publishes `family`'s tools; `members` are every connection naming it, in name order. */
  publish(family: string, members: readonly UpstreamConnection[]): void {
    const { catalogue, log, lastKnown } = this.deps;
    const { tools, refused } = familySurface(family, members);
    const before = new Set((this.refusals.get(family) ?? []).map((r) => `${r.member}/${r.tool}`));
    for (const r of refused)
      if (!before.has(`${r.member}/${r.tool}`))
        log.child(r.member).warn(`not joining family '${family}': ${r.reason}; listed under the member's own name instead`);
    this.refusals.set(family, refused);
    for (const m of members) {
      // Tools that fell back to the member's own names are its own: once it stops, a call to
      // one hears why (as for a server outside a family), not that it never existed.
      const source = `server:${m.name}`;
      if (m.state !== 'stopped' && m.state !== 'stopping') {
        const own = tools.filter((t) => t.server === m.name).map((t) => t.name);
        if (own.length) lastKnown.set(m.name, own);
        else lastKnown.delete(m.name);
        catalogue.explainAbsence(source, [], () => this.deps.unavailable(m));
      } else catalogue.explainAbsence(source, lastKnown.get(m.name) ?? [], () => this.deps.unavailable(m));
    }
    catalogue.replaceSource(`family:${family}`, tools);
  }

  /** What of `member`'s tools fell back in its family, and why (its status's `metadata.family.refused`). */
  refusedOf(family: string, member: string): { tool: string; reason: string }[] {
    return (this.refusals.get(family) ?? []).filter((r) => r.member === member).map(({ tool, reason }) => ({ tool, reason }));
  }
}
