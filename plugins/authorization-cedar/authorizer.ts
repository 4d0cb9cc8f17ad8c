/**
 * The Cedar authorizer: decides with the policy set last installed. The set is parsed once,
 * when installed (preparsePolicySet keeps it inside the Cedar engine under this authorizer's
 * id), so a decision sends only the request and its two entities. Cedar's semantics hold:
 * default deny, a satisfied forbid overrides every permit. A policy whose evaluation fails is
 * skipped by Cedar; here a failing forbid denies (it may have been meant to), and a denial
 * says which policy failed and why. Decisions are remembered by request content until the
 * policies change (decision-memo.ts).
 */
import './v8-workaround.js';
import { preparsePolicySet, statefulIsAuthorized, type AuthorizationError, type Response } from '@cedar-policy/cedar-wasm/nodejs';
import type { Action, Authorizer, Decision, DecisionContext, Principal, Resource } from '../../kernel/contracts/authorization.js';
import type { CompiledPolicy, CompiledPolicySet } from './compile.js';
import { DecisionMemo, requestKey } from './decision-memo.js';
import { cedarRequest, type CedarRequestParts } from './entities.js';

export const DEFAULT_DENY = 'cedar:default-deny';
export const EVALUATION_FAILED = 'cedar:error';

/** Each authorizer's own slot in the engine's cache of preparsed sets. */
let instances = 0;

export class PolicySetRejectedError extends Error {}

const allow = (rule: string): Decision => ({ allowed: true, rule });
const deny = (rule: string, reason: string): Decision => ({ allowed: false, rule, reason });

export class CedarAuthorizer implements Authorizer {
  readonly name = 'cedar';
  private readonly setId = `switchboard-authorizer-${++instances}`;
  private byId = new Map<string, CompiledPolicy>();
  private installed: CompiledPolicySet | undefined;
  private versionValue = 0;
  private readonly memo = new DecisionMemo();

  get version(): number {
    return this.versionValue;
  }

  /** The set in force (undefined before the first install). */
  get current(): CompiledPolicySet | undefined {
    return this.installed;
  }

  /** Makes `set` the one decisions use (it replaces the previous one at once) and bumps the version. */
  install(set: CompiledPolicySet): void {
    // As one text: Cedar numbers its policies policy0, policy1... in order, as compile did.
    const answer = preparsePolicySet(this.setId, { staticPolicies: set.text });
    // The set was parsed and validated already; Cedar refusing it now would be a bug, and the previous set stays.
    if (answer.type === 'failure') throw new PolicySetRejectedError(`Cedar refused a validated policy set: ${answer.errors.map((e) => e.message).join('; ')}`);
    this.byId = new Map(set.policies.map((p) => [p.cedarId, p]));
    this.installed = set;
    this.memo.clear();
    this.versionValue++;
  }

  decide(principal: Principal, action: Action, resource: Resource, context: DecisionContext): Decision {
    if (!this.installed) return deny(DEFAULT_DENY, 'no policies are loaded yet');
    const request = cedarRequest(principal, action, resource, context);
    const key = requestKey(request);
    let decision = this.memo.get(key);
    if (!decision) {
      decision = this.evaluate(request);
      this.memo.set(key, decision);
    }
    return decision;
  }

  private evaluate(request: CedarRequestParts): Decision {
    let response: Response;
    try {
      const answer = statefulIsAuthorized({ ...request, preparsedPolicySetId: this.setId, validateRequest: false });
      if (answer.type === 'failure') return deny(EVALUATION_FAILED, `the request could not be evaluated: ${answer.errors.map((e) => e.message).join('; ')}`);
      response = answer.response;
    } catch (err) {
      return deny(EVALUATION_FAILED, `the request could not be evaluated: ${(err as Error).message}`);
    }
    return this.decisionOf(response);
  }

  private order(id: string): number {
    return Number(id.slice('policy'.length));
  }

  private policy(id: string): CompiledPolicy | undefined {
    return this.byId.get(id);
  }

  private ruleOf(id: string): string {
    return this.policy(id)?.rule ?? id;
  }

  private failures(errors: readonly AuthorizationError[]): string {
    return errors.map((e) => `policy ${this.ruleOf(e.policyId)} failed: ${e.error.message}`).join('; ');
  }

  private decisionOf(response: Response): Decision {
    const { errors } = response.diagnostics;
    // Cedar reports the determining policies in no particular order: name them in load order (the baseline first).
    const reason = [...response.diagnostics.reason].sort((a, b) => this.order(a) - this.order(b));
    const failedForbids = errors.filter((e) => this.policy(e.policyId)?.effect === 'forbid');
    if (failedForbids.length > 0) {
      return deny(
        failedForbids.map((e) => this.ruleOf(e.policyId)).join(', '),
        `a forbid policy could not be evaluated, which denies: ${this.failures(failedForbids)}`,
      );
    }
    if (response.decision === 'allow') return allow(reason[0] !== undefined ? this.ruleOf(reason[0]) : 'cedar:allow');
    if (reason.length > 0) {
      const rules = reason.map((id) => this.ruleOf(id));
      return deny(rules.join(', '), `forbidden by ${rules.length === 1 ? 'policy' : 'policies'} ${rules.join(', ')}`);
    }
    if (errors.length > 0) return deny(errors.map((e) => this.ruleOf(e.policyId)).join(', '), `no policy permits it; ${this.failures(errors)}`);
    return deny(DEFAULT_DENY, 'no policy permits it');
  }
}
