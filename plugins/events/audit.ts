/**
 * The audit trail as events: every admin operation done and every denial (kernel onAudit),
 * naming the actor, the action, the resource and, for a denial, the rule.
 */
import { describePrincipal, resourceLabel, type AuditEntry, type EventLog, type EventResourceType, type KernelApi, type Resource } from '../../kernel/index.js';

const RESOURCE_TYPE: Record<Resource['type'], EventResourceType> = {
  tool: 'Tool',
  server: 'MCPServer',
  workflow: 'Workflow',
  execution: 'WorkflowExecution',
  config: 'Aggregator',
  events: 'Aggregator',
  'admin-ui': 'Aggregator',
};

/** What was done, as an event reason: Created, Stopped, ConfigSaved... */
const DONE: Record<string, string> = {
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  start: 'Started',
  stop: 'Stopped',
  restart: 'Restarted',
  save: 'Saved',
  reload: 'Reloaded',
  approve: 'Approved',
};

function resourceName(r: Resource): string {
  return r.type === 'execution' ? r.id : r.name;
}

function reasonOf(entry: AuditEntry): string {
  if (entry.outcome === 'denied') return 'Denied';
  const done = DONE[entry.operation ?? ''] ?? 'Administered';
  return entry.resource.type === 'config' ? `Config${done}` : done;
}

export function tapAudit(kernel: KernelApi, log: EventLog): void {
  kernel.hooks.onAudit.tap('events', (entry) => {
    const name = describePrincipal(entry.principal);
    const what = entry.operation ? `${entry.action} (${entry.operation})` : entry.action;
    const message =
      entry.outcome === 'denied'
        ? `${name} was denied ${what} on ${resourceLabel(entry.resource)} by rule ${entry.rule}${entry.reason ? `: ${entry.reason}` : ''}`
        : `${name} did ${what} on ${resourceLabel(entry.resource)}`;
    log.record({
      type: entry.outcome === 'denied' ? 'Warning' : 'Normal',
      reason: reasonOf(entry),
      resource: { type: RESOURCE_TYPE[entry.resource.type], name: resourceName(entry.resource) },
      message,
      actor: { key: entry.principal.key, name },
    });
  });
}
