/**
 * Asking the authorizer from a tool: `authorize` decides for the call's principal and, on a
 * denial, records it (the audit trail) and throws FORBIDDEN naming the action and the rule.
 * `audited` records an admin operation that was done. Both log a line at info level and fire
 * `onAudit`, which the events plugin turns into events.
 */
import type { Action, Authorizer, Decision, DecisionContext, Principal, Resource } from '../contracts/authorization.js';
import { ForbiddenError } from '../errors.js';
import type { KernelApi } from '../kernel-api.js';
import type { CallContext } from '../tools.js';
import type { TransportKind } from '../sessions.js';
import { describePrincipal, principalOf } from './principal.js';

export interface AuditEntry {
  outcome: 'done' | 'denied';
  principal: Principal;
  action: Action;
  resource: Resource;
  operation?: string;
  /** The rule that decided (denials). */
  rule?: string;
  reason?: string;
}

/** Without any authorizer plugin: administrators may do everything, others all but admin operations. */
const FALLBACK: Authorizer = {
  name: 'fallback',
  version: 0,
  decide: (principal, action) =>
    action !== 'admin' || principal.admin
      ? { allowed: true, rule: 'fallback' }
      : { allowed: false, rule: 'fallback', reason: 'no authorizer plugin is enabled, and only administrators may perform admin operations' },
};

export function authorizerOf(kernel: KernelApi): Authorizer {
  return kernel.services.find('authorizer') ?? FALLBACK;
}

export function callerOf(kernel: KernelApi, call: CallContext): Principal {
  return principalOf(call.request.session, kernel.settings());
}

export function resourceLabel(r: Resource): string {
  switch (r.type) {
    case 'tool':
      return `tool '${r.name}'`;
    case 'server':
      return `MCP server '${r.name}'`;
    case 'workflow':
      return `workflow '${r.name}'`;
    case 'execution':
      return `execution '${r.id}'`;
    case 'config':
      return 'the aggregator configuration';
    case 'events':
      return 'the event log';
    case 'admin-ui':
      return 'the admin UI';
  }
}

/** The words of a FORBIDDEN: who, what, on what, and the rule that said no. */
export function forbidden(
  principal: Principal,
  action: Action,
  resource: Resource,
  decision: Extract<Decision, { allowed: false }>,
  operation?: string,
): ForbiddenError {
  const what = operation ? `${action} (${operation})` : action;
  return new ForbiddenError(
    `Forbidden: ${describePrincipal(principal)} may not ${what} ${resourceLabel(resource)}: ${decision.reason} [rule: ${decision.rule}]`,
    {
      action,
      ...(operation ? { operation } : {}),
      resource: resourceLabel(resource),
      rule: decision.rule,
    },
  );
}

export function audit(kernel: KernelApi, entry: AuditEntry): void {
  const who = describePrincipal(entry.principal);
  const what = entry.operation ? `${entry.action} (${entry.operation})` : entry.action;
  if (entry.outcome === 'denied') kernel.log.info(`audit: denied ${who} ${what} on ${resourceLabel(entry.resource)} [rule: ${entry.rule}]`);
  else kernel.log.info(`audit: ${who} did ${what} on ${resourceLabel(entry.resource)}`);
  if (kernel.hooks.onAudit.isUsed()) kernel.hooks.onAudit.call(entry);
}

/** The context of a decision for `principal` over `transport`. */
export function decisionContext(kernel: KernelApi, principal: Principal, transport: TransportKind, operation?: string): DecisionContext {
  const writesAsCaller = principal.kind === 'person' && kernel.services.find('store')?.lifecycle === 'declarative';
  return { transport, ...(operation ? { operation } : {}), ...(writesAsCaller ? { writesAsCaller } : {}) };
}

/** Decides for the call's caller; a denial is audited and thrown as FORBIDDEN. */
export function authorize(kernel: KernelApi, call: CallContext, action: Action, resource: Resource, operation?: string): Principal {
  const principal = callerOf(kernel, call);
  return decided(kernel, principal, action, resource, decisionContext(kernel, principal, call.request.session.transport, operation), operation);
}

/**
 * As authorize, decided by Switchboard's authorizer alone even where writes go to the
 * orchestrator as the caller: for an operation whose effect no write carries there (probing a
 * URL before creating a server), so the orchestrator's RBAC never sees it and cannot judge it.
 */
export function authorizeHere(kernel: KernelApi, call: CallContext, action: Action, resource: Resource, operation?: string): Principal {
  const principal = callerOf(kernel, call);
  return decided(kernel, principal, action, resource, { transport: call.request.session.transport, ...(operation ? { operation } : {}) }, operation);
}

function decided(
  kernel: KernelApi,
  principal: Principal,
  action: Action,
  resource: Resource,
  context: DecisionContext,
  operation: string | undefined,
): Principal {
  const decision = authorizerOf(kernel).decide(principal, action, resource, context);
  if (decision.allowed) return principal;
  audit(kernel, { outcome: 'denied', principal, action, resource, rule: decision.rule, reason: decision.reason, ...(operation ? { operation } : {}) });
  throw forbidden(principal, action, resource, decision, operation);
}

/** An admin operation: authorized first, audited once done. `run` gets the caller. */
export async function administer<T>(
  kernel: KernelApi,
  call: CallContext,
  resource: Resource,
  operation: string,
  run: (principal: Principal) => Promise<T>,
): Promise<T> {
  const principal = authorize(kernel, call, 'admin', resource, operation);
  const result = await run(principal);
  audit(kernel, { outcome: 'done', principal, action: 'admin', resource, operation });
  return result;
}

/** Whether the call's caller may (no audit, no throw): for filtering what a caller is shown. */
export function permits(kernel: KernelApi, call: CallContext, action: Action, resource: Resource): boolean {
  const principal = callerOf(kernel, call);
  return authorizerOf(kernel).decide(principal, action, resource, decisionContext(kernel, principal, call.request.session.transport)).allowed;
}
