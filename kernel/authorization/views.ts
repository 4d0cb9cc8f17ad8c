/**
 * Visibility follows permission: what a principal may not `call` is absent from its catalogue,
 * exactly as a toolset narrows it, and call_tool (describe_tool, call_tools, a workflow step)
 * on it answers exactly as on a name that does not exist: TOOL_NOT_FOUND, with a did-you-mean
 * drawn from what the caller may call. The answer must not be an existence oracle (a policy's
 * id, or FORBIDDEN instead of not-found, would confirm a hidden tool); the audit trail keeps
 * the real reason, with the rule.
 * Decisions are kept per principal and per catalogue entry (entries are new objects after every
 * catalogue change, so a WeakMap keyed on them is per catalogue version by construction), and
 * dropped when the authorizer's policies or the configuration change: call_tool pays a lookup.
 */
import type { CatalogueEntry } from '../catalogue.js';
import type { Authorizer, Decision, DecisionContext, Principal, Resource } from '../contracts/authorization.js';
import type { CatalogueView, RequestContext } from '../request-context.js';
import { ToolNotFoundError } from '../errors.js';
import { suggestTool } from '../tool-suggestion.js';
import type { AuditEntry } from './authorize.js';

/** Stands in for "no toolset" as a WeakMap key. */
const WHOLE: CatalogueView = { selectors: [], includes: () => true };
/** Principals whose decisions are kept at once; beyond it the cache starts over. */
const MAX_PRINCIPALS = 1024;

/**
 * Whether the request's caller may call `entry`, by permission alone (its toolset aside): what
 * a caller may not call is reported as missing wherever tools are listed as present or absent
 * (workflow availability, core_workflow_validate). True for a request the kernel did not
 * narrow (no authorization tap ran: an internal call).
 */
export function mayCall(request: RequestContext, entry: CatalogueEntry): boolean {
  return request.view?.permits?.(entry) ?? true;
}
const fingerprints = new WeakMap<Principal, string>();

/**
 * What a principal's decisions depend on: everything but the raw claims (a person's email and
 * groups are taken from them), and the transport. Made once per principal object: one per
 * session and configuration (principal.ts), so the session's transport is part of it for good.
 */
function fingerprint(principal: Principal, transport: string): string {
  let f = fingerprints.get(principal);
  if (f === undefined) {
    const { claims: _claims, ...decisive } = principal as Principal & { claims?: unknown };
    f = `${JSON.stringify(decisive)}|${transport}`;
    fingerprints.set(principal, f);
  }
  return f;
}

/**
 * The catalogue entry as the authorizer sees it. Made when asked, not kept per entry: a
 * decision is made once per principal and entry and then kept (below), so a kept copy saved
 * nothing a call pays, and cost 80 bytes and a WeakMap slot a tool for the catalogue's life
 * (1 MiB at 10,000 tools, found in a heap snapshot: bench/README.md, "footprint").
 */
export function toolResource(entry: CatalogueEntry): Resource {
  return {
    type: 'tool',
    name: entry.name,
    kind: entry.kind,
    ...(entry.server !== undefined ? { server: entry.server } : {}),
    ...(entry.annotations ? { annotations: entry.annotations } : {}),
    ...(entry.labels ? { labels: entry.labels } : {}),
    ...(entry.operation ? { operation: entry.operation } : {}),
  };
}

interface PrincipalCache {
  principal: Principal;
  decisions: WeakMap<CatalogueEntry, Decision>;
  views: WeakMap<CatalogueView, CatalogueView>;
}

export class PermissionViews {
  constructor(
    private readonly all: () => readonly CatalogueEntry[],
    private readonly toolsOf: (server: string) => readonly CatalogueEntry[],
    /** A call refused by permission: the audit trail keeps it. */
    private readonly denied: (entry: AuditEntry) => void,
  ) {}

  private readonly byPrincipal = new Map<string, PrincipalCache>();
  private authorizerVersion = -1;
  private authorizer: Authorizer | undefined;

  /** Policies or settings changed: every kept decision may be stale. */
  changed(): void {
    this.byPrincipal.clear();
  }

  /** `context` is the principal's decision context (it depends on the principal and settings only, so kept decisions stay right). */
  narrow(request: RequestContext, principal: Principal, authorizer: Authorizer, context: (principal: Principal) => DecisionContext): void {
    if (authorizer !== this.authorizer || authorizer.version !== this.authorizerVersion) {
      this.byPrincipal.clear();
      this.authorizer = authorizer;
      this.authorizerVersion = authorizer.version;
    }
    // Keyed by what decisions depend on, so every session of one person shares one cache.
    const key = fingerprint(principal, request.session.transport);
    let mine = this.byPrincipal.get(key);
    if (!mine) {
      if (this.byPrincipal.size >= MAX_PRINCIPALS) this.byPrincipal.clear();
      mine = { principal, decisions: new WeakMap(), views: new WeakMap() };
      this.byPrincipal.set(key, mine);
    }
    const inner = request.view ?? WHOLE;
    let view = mine.views.get(inner);
    if (!view) {
      view = this.viewFor(mine, inner, authorizer, context(principal));
      mine.views.set(inner, view);
    }
    request.view = view;
  }

  private decide(mine: PrincipalCache, e: CatalogueEntry, authorizer: Authorizer, context: DecisionContext): Decision {
    let d = mine.decisions.get(e);
    if (!d) {
      d = authorizer.decide(mine.principal, 'call', toolResource(e), context);
      mine.decisions.set(e, d);
    }
    return d;
  }

  private viewFor(mine: PrincipalCache, inner: CatalogueView, authorizer: Authorizer, context: DecisionContext): CatalogueView {
    const decide = (e: CatalogueEntry): Decision => this.decide(mine, e, authorizer, context);
    const view: CatalogueView = {
      selectors: inner.selectors,
      // Resources and prompts of a server whose every tool the caller may not call are hidden too.
      hidesServer: (server) => {
        const tools = this.toolsOf(server);
        return tools.length > 0 && !tools.some((e) => decide(e).allowed);
      },
      permits: (e) => decide(e).allowed,
      includes: inner === WHOLE ? (e) => decide(e).allowed : (e) => decide(e).allowed && inner.includes(e),
      refusal: (e) => {
        const d = decide(e);
        if (d.allowed) return inner.refusal?.(e);
        this.denied({ outcome: 'denied', principal: mine.principal, action: 'call', resource: toolResource(e), rule: d.rule, reason: d.reason });
        // Word for word what invoke.ts answers for a name nobody has (the suggestion from this same view).
        return new ToolNotFoundError(e.name, suggestTool(e.name, this.all(), view));
      },
    };
    return view;
  }
}
