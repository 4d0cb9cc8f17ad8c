/**
 * A workflow never does more than its author may. A workflow written through a core tool
 * (`spec.registeredBy`) runs each step, and each condition's tool, with the rights of its
 * caller AND of its author: the caller's view of the catalogue, narrowed by what the
 * authorizer lets the author call. Without that, a person's workflow is a confused deputy: an
 * administrator who runs it lends it rights its author never had. An administrator's approval
 * (`approvedBy`, cleared by every later update) puts the approver in the author's place.
 * Operator-written workflows (files without `registeredBy`) keep the caller's rights.
 *
 * The author is usually not signed in when the workflow runs: they are decided on as recorded
 * when they last wrote it (`registeredAs`: email and groups), with the admins list in force
 * (kernel recordedPrincipal). Their decision context never says `writesAsCaller`: the step's
 * write reaches the orchestrator with the caller's identity, so its RBAC cannot judge the author.
 */
import {
  audit,
  authorizerOf,
  describePrincipal,
  ForbiddenError,
  OutsideToolsetError,
  recordedPrincipal,
  resourceLabel,
  toolResource,
  type AuthorizationSettings,
  type Authorizer,
  type CallContext,
  type CatalogueEntry,
  type CatalogueView,
  type Decision,
  type KernelApi,
  type Principal,
  type TransportKind,
  type WorkflowResource,
} from '../../kernel/index.js';

/** Whose rights bound a workflow's steps besides the caller's. */
export interface Authority {
  role: 'author' | 'approver';
  principal: Principal;
}

/** The author (or, once approved, the approver) of a workflow written through a tool; undefined for the operator's. */
export function authorityOf(spec: WorkflowResource['spec'], settings: AuthorizationSettings): Authority | undefined {
  const approved = spec.approvedBy !== undefined;
  const key = approved ? spec.approvedBy : spec.registeredBy;
  if (key === undefined) return undefined;
  const recorded = approved ? spec.approvedAs : spec.registeredAs;
  // A key of no known form (hand-edited) is decided on as an anonymous caller: never an administrator.
  const principal = recordedPrincipal(key, recorded, settings) ?? { kind: 'anonymous', key, admin: false, address: key };
  return { role: approved ? 'approver' : 'author', principal };
}

/** What a step the author may not run answers: the author lacks the right; the policy stays in the audit trail. */
export function authorityForbidden(workflow: string, authority: Authority, entry: CatalogueEntry): ForbiddenError {
  const resource = toolResource(entry);
  return new ForbiddenError(
    `Forbidden: workflow '${workflow}' runs with the rights of its ${authority.role} ${describePrincipal(authority.principal)}, who may not call ${resourceLabel(resource)}`,
    { action: 'call', resource: resourceLabel(resource), workflow, [authority.role]: authority.principal.key },
  );
}

/** Stands in for "no view" as a WeakMap key. */
const NO_VIEW: CatalogueView = { selectors: [], includes: () => true };

interface Bound {
  settings: AuthorizationSettings;
  authority: Authority | undefined;
  authorizer?: Authorizer;
  version: number;
  /** Decisions for the authority, per transport (the decision context's only part). */
  decisions: Map<TransportKind, WeakMap<CatalogueEntry, Decision>>;
  views: WeakMap<CatalogueView, CatalogueView>;
}

/**
 * The step calls of workflows, narrowed by their authority. Everything is made once per
 * definition (the resource object is new after every change) and settings; a run pays two
 * WeakMap lookups, a step one decision lookup.
 */
export class Authorship {
  private readonly bound = new WeakMap<WorkflowResource, Bound>();

  constructor(private readonly kernel: KernelApi) {}

  /** Who bounds `resource`'s steps now (undefined: the caller alone). */
  authority(resource: WorkflowResource): Authority | undefined {
    return this.boundOf(resource).authority;
  }

  /** The call a workflow's steps run with: the caller's, narrowed by the authority's rights (unchanged for the operator's workflows). */
  stepCall(resource: WorkflowResource, call: CallContext): CallContext {
    const b = this.boundOf(resource);
    if (!b.authority) return call;
    const authorizer = authorizerOf(this.kernel);
    if (authorizer !== b.authorizer || authorizer.version !== b.version) {
      b.authorizer = authorizer;
      b.version = authorizer.version;
      b.decisions.clear();
      b.views = new WeakMap();
    }
    const inner = call.request.view ?? NO_VIEW;
    let view = b.views.get(inner);
    if (!view) {
      view = this.narrowed(resource.metadata.name, b.authority, authorizer, inner, call.request.session.transport, b);
      b.views.set(inner, view);
    }
    return { ...call, request: { ...call.request, view } };
  }

  private boundOf(resource: WorkflowResource): Bound {
    const settings = this.kernel.settings().authorization;
    let b = this.bound.get(resource);
    if (!b || b.settings !== settings) {
      b = { settings, authority: authorityOf(resource.spec, settings), version: -1, decisions: new Map(), views: new WeakMap() };
      this.bound.set(resource, b);
    }
    return b;
  }

  private narrowed(workflow: string, authority: Authority, authorizer: Authorizer, inner: CatalogueView, transport: TransportKind, b: Bound): CatalogueView {
    let decisions = b.decisions.get(transport);
    if (!decisions) b.decisions.set(transport, (decisions = new WeakMap()));
    const kept = decisions;
    const decide = (e: CatalogueEntry): Decision => {
      let d = kept.get(e);
      if (!d) {
        d = authorizer.decide(authority.principal, 'call', toolResource(e), { transport });
        kept.set(e, d);
      }
      return d;
    };
    const view: CatalogueView = {
      selectors: inner.selectors,
      includes: (e) => inner.includes(e) && decide(e).allowed,
      refusal: (e) => {
        // The caller's own refusal first: what the caller may not see stays unknown to them.
        if (!inner.includes(e)) return inner.refusal?.(e) ?? new OutsideToolsetError(e.name, inner.selectors);
        const d = decide(e);
        if (d.allowed) return undefined;
        audit(this.kernel, {
          outcome: 'denied',
          principal: authority.principal,
          action: 'call',
          resource: toolResource(e),
          rule: d.rule,
          reason: `${d.reason} (deciding as the ${authority.role} of workflow '${workflow}')`,
        });
        return authorityForbidden(workflow, authority, e);
      },
    };
    // The caller's permission alone (workflow availability) is the caller's, not the author's.
    if (inner.permits) view.permits = (e) => inner.permits!(e);
    if (inner.hidesServer) view.hidesServer = (s) => inner.hidesServer!(s);
    return view;
  }
}
