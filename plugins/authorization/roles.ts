/**
 * Built-in roles, the default authorizer. Two roles: administrators (named in
 * `authorization.admins`, or the local caller without OAuth) may do everything; everyone else
 * may discover and call every tool but the core tools of admin operations, read definitions,
 * sign in to remote servers, write workflows of their own (a signed-in person: a workflow runs
 * only tools its runner may call), and read their own executions. Every rule has a name: a
 * denial names it. In orchestrator mode, where a person's writes of servers and workflows go
 * to the orchestrator with their own identity, its access control decides those
 * (`built-in:orchestrator-rbac`): RBAC there is the operator's statement of who may.
 */
import type { Action, Authorizer, Decision, Principal, Resource } from '../../kernel/index.js';

/**
 * One frozen decision per allowing rule, shared: a principal's view keeps a decision per
 * catalogue entry, so a fresh object each time was 10,000 objects per principal at 10,000
 * tools (0.4 MiB) saying the same thing.
 */
const allowing = new Map<string, Decision>();
const allow = (rule: string): Decision => {
  let d = allowing.get(rule);
  if (!d) allowing.set(rule, (d = Object.freeze({ allowed: true, rule })));
  return d;
};
const deny = (rule: string, reason: string): Decision => ({ allowed: false, rule, reason });

const ADMINS_ONLY = 'built-in:admins-only';
const adminsOnly = (what: string) => deny(ADMINS_ONLY, `only administrators may ${what} (authorization.admins)`);

/** What an admin operation is on, in words. */
const ON: Record<Resource['type'], string> = {
  tool: 'tools',
  server: 'MCP servers',
  workflow: 'workflows',
  config: 'the configuration',
  execution: 'executions',
  events: 'the event log',
  'admin-ui': 'the admin UI',
};

function owns(principal: Principal, resource: { owner?: string }): boolean {
  return resource.owner !== undefined && resource.owner === principal.key;
}

const ORCHESTRATOR = allow('built-in:orchestrator-rbac');

function decideAdmin(principal: Principal, resource: Resource, operation: string | undefined, writesAsCaller: boolean): Decision {
  // Approving vouches for a workflow with the approver's rights: an administrator's act, even
  // where the orchestrator judges writes (its RBAC lets people edit workflows, not vouch for them).
  if (resource.type === 'workflow' && operation === 'approve') return adminsOnly('approve workflows');
  if (writesAsCaller && (resource.type === 'server' || resource.type === 'workflow')) return ORCHESTRATOR;
  if (resource.type === 'workflow') {
    if (principal.kind !== 'person') return deny('built-in:workflow-authors', 'only signed-in people and administrators may write workflows');
    if (operation === 'create') return allow('built-in:workflow-authors');
    return owns(principal, resource)
      ? allow('built-in:owner')
      : deny('built-in:owner-or-admin', `only the workflow's owner (${resource.owner ?? 'the operator'}) or an administrator may ${operation ?? 'change'} it`);
  }
  return adminsOnly(`${operation ?? 'administer'} ${ON[resource.type]}`);
}

export const builtInRoles: Authorizer = {
  name: 'built-in roles',
  version: 0,
  decide(principal: Principal, action: Action, resource: Resource, context): Decision {
    if (principal.admin) return allow('built-in:admin');
    switch (action) {
      case 'call': {
        if (resource.type !== 'tool' || !resource.operation) return allow('built-in:call');
        // A core tool of an admin operation: shown to those who may perform it on something.
        const op = resource.operation;
        if (context.writesAsCaller && op.resource !== 'config') return ORCHESTRATOR;
        if (op.resource === 'workflow' && principal.kind === 'person') return allow('built-in:workflow-authors');
        return adminsOnly(`${op.operation} ${ON[op.resource]}`);
      }
      case 'admin':
        return decideAdmin(principal, resource, context.operation, context.writesAsCaller === true);
      case 'read':
        if (resource.type === 'server' || resource.type === 'workflow') return allow('built-in:read-definitions');
        if (resource.type === 'execution')
          return owns(principal, resource)
            ? allow('built-in:own-executions')
            : deny('built-in:owner-or-admin', 'an execution is readable by its caller and administrators');
        return adminsOnly(`read ${ON[resource.type]}`);
      case 'signIn':
        return allow('built-in:sign-in');
    }
  },
};
