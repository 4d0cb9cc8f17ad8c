/**
 * What one owner may see while servers wait for sign-in: the request's view (a toolset, or
 * the whole catalogue) without the tools of the gated servers the owner has not signed in
 * to. A call to one of those is AUTH_REQUIRED, not OUTSIDE_TOOLSET. Views are kept per owner
 * and inner view, and all dropped when a gate or a grant changes, so the discovery memo
 * keyed on the view object (meta-tools' visible.ts) keeps working between changes.
 */
import { AuthRequiredError, type CatalogueEntry, type CatalogueView, type Owner, type SwitchboardError } from '../../kernel/index.js';
import type { SignInGate } from './sign-in-gate.js';

/** Stands in for "no toolset" as a WeakMap key. */
const WHOLE: CatalogueView = { selectors: [], includes: () => true };
/** Owners whose views are kept at once; beyond it the cache starts over. */
const MAX_OWNERS = 1024;

function narrowed(inner: CatalogueView, hidden: ReadonlySet<string>, refusal: (server: string) => SwitchboardError): CatalogueView {
  const shown = (e: CatalogueEntry) => !(e.server !== undefined && hidden.has(e.server));
  return {
    selectors: inner.selectors,
    includes: inner === WHOLE ? shown : (e) => shown(e) && inner.includes(e),
    refusal: (e) => (shown(e) ? inner.refusal?.(e) : refusal(e.server!)),
  };
}

export class SignInView {
  private readonly byOwner = new Map<Owner, { hidden: ReadonlySet<string>; views: WeakMap<CatalogueView, CatalogueView> }>();

  constructor(
    private readonly gates: ReadonlyMap<string, SignInGate>,
    private readonly authTool: () => string,
  ) {}

  /** A gate opened or closed, or a grant came or went. */
  changed(): void {
    this.byOwner.clear();
  }

  /** The owner's view, or undefined when every gated server is open to it (the request's view stands). */
  viewFor(owner: Owner, inner: CatalogueView | undefined): CatalogueView | undefined {
    let mine = this.byOwner.get(owner);
    if (!mine) {
      const hidden = new Set<string>();
      for (const [name, gate] of this.gates) if (!gate.signedIn(owner)) hidden.add(name);
      if (this.byOwner.size >= MAX_OWNERS) this.byOwner.clear();
      mine = { hidden, views: new WeakMap() };
      this.byOwner.set(owner, mine);
    }
    if (mine.hidden.size === 0) return undefined;
    const key = inner ?? WHOLE;
    let view = mine.views.get(key);
    if (!view) {
      const authTool = this.authTool();
      view = narrowed(
        key,
        mine.hidden,
        (server) => this.gates.get(server)?.notSignedIn(owner) ?? new AuthRequiredError(server, 'you have not signed in to it', authTool),
      );
      mine.views.set(key, view);
    }
    return view;
  }
}
