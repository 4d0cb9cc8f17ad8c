/**
 * What the kernel's hooks say, as events: definitions created, changed and deleted (from
 * each configuration change), server lifecycle (from state changes, with recoveries and
 * restarts told apart from first starts), and tools discovered (from catalogue changes, per
 * server). Reasons and wording are the reference's (reference-behaviour.md §10, docs/events.md).
 */
import type { ConfigSnapshot, EventLog, KernelApi } from '../../kernel/index.js';

function diff<T>(
  before: ReadonlyMap<string, { value: T }> | undefined,
  after: ReadonlyMap<string, { value: T }>,
): { created: string[]; updated: string[]; deleted: string[] } {
  const out = { created: [] as string[], updated: [] as string[], deleted: [] as string[] };
  if (!before) return out;
  for (const [name, { value }] of after) {
    const was = before.get(name);
    if (!was) out.created.push(name);
    else if (JSON.stringify(was.value) !== JSON.stringify(value)) out.updated.push(name);
  }
  for (const name of before.keys()) if (!after.has(name)) out.deleted.push(name);
  return out;
}

const steps = (k: number) => `${k} steps`;

export function tapSources(kernel: KernelApi, log: EventLog): void {
  kernel.hooks.onConfigLoad.tap('events', (next: ConfigSnapshot, previous: ConfigSnapshot | undefined) => {
    const servers = diff(previous?.mcpServers, next.mcpServers);
    for (const [names, done] of [
      [servers.created, 'Created'],
      [servers.updated, 'Updated'],
      [servers.deleted, 'Deleted'],
    ] as const)
      for (const name of names)
        log.record({
          type: 'Normal',
          reason: `MCPServer${done}`,
          resource: { type: 'MCPServer', name },
          message: `MCPServer ${name} successfully ${done.toLowerCase()}`,
        });
    const workflows = diff(previous?.workflows, next.workflows);
    // A definition in force passed the configuration check: that is its validation (a refused one is ConfigRejected).
    for (const [names, done] of [
      [workflows.created, 'Created'],
      [workflows.updated, 'Updated'],
    ] as const)
      for (const name of names) {
        const resource = { type: 'Workflow' as const, name };
        log.record({ type: 'Normal', reason: 'WorkflowValidationSucceeded', resource, message: `Workflow ${name} validation completed successfully` });
        const k = next.workflows.get(name)?.value.spec.steps.length ?? 0;
        log.record({ type: 'Normal', reason: `Workflow${done}`, resource, message: `Workflow ${name} successfully ${done.toLowerCase()} with ${steps(k)}` });
      }
    for (const name of workflows.deleted)
      log.record({ type: 'Normal', reason: 'WorkflowDeleted', resource: { type: 'Workflow', name }, message: `Workflow ${name} successfully deleted` });
  });
  kernel.hooks.onConfigRejected.tap('events', (problems) => {
    for (const p of problems)
      log.record({
        type: 'Warning',
        reason: 'ConfigRejected',
        resource: { type: 'Aggregator', name: 'switchboard' },
        message: `${p.file}:${p.line}: ${p.field ? `${p.field}: ` : ''}${p.message} (the last good configuration stays)`,
      });
  });

  /** Servers that were down since they last ran, and since when: their next start is a recovery. */
  const down = new Map<string, number>();
  /** Servers already said to be unreachable in their current outage. */
  const unreachable = new Set<string>();
  kernel.hooks.onServiceStateChange.tap('events', (c) => {
    if (c.serviceType !== 'MCPServer') return;
    const resource = { type: 'MCPServer' as const, name: c.name };
    const n = `MCPServer ${c.name}`;
    const detail = c.detail ? `: ${c.detail}` : '';
    switch (c.state) {
      case 'starting':
        if (c.restart) log.record({ type: 'Normal', reason: 'MCPServerRestarting', resource, message: `${n} restarting` });
        else if (down.has(c.name)) log.record({ type: 'Normal', reason: 'MCPServerRecoveryStarted', resource, message: `${n} recovery started` });
        else log.record({ type: 'Normal', reason: 'MCPServerStarting', resource, message: `${n} starting` });
        break;
      case 'running': {
        const since = down.get(c.name);
        down.delete(c.name);
        unreachable.delete(c.name);
        if (since !== undefined)
          log.record({
            type: 'Normal',
            reason: 'MCPServerRecoverySucceeded',
            resource,
            message: `${n} recovered successfully after ${Math.round((Date.now() - since) / 1000)} s down`,
          });
        else log.record({ type: 'Normal', reason: 'MCPServerStarted', resource, message: `${n} started successfully` });
        break;
      }
      case 'stopped':
        down.delete(c.name);
        unreachable.delete(c.name);
        log.record({ type: 'Normal', reason: 'MCPServerStopped', resource, message: `${n} stopped${detail}` });
        break;
      case 'failed':
      case 'unreachable': {
        const recovering = down.has(c.name);
        if (!recovering) down.set(c.name, Date.now());
        // The first failure is the server's; later ones are its recoveries' (each attempt after a backoff).
        // Unreachable is said once, when the attempts have gone on long enough to call it that.
        const newlyUnreachable = c.state === 'unreachable' && !unreachable.has(c.name);
        if (newlyUnreachable) unreachable.add(c.name);
        const [reason, message] = newlyUnreachable
          ? ['MCPServerUnreachable', `${n} is unreachable${detail}`]
          : recovering
            ? ['MCPServerRecoveryFailed', `${n} recovery failed${detail}`]
            : ['MCPServerFailed', `${n} failed${detail}`];
        log.record({ type: 'Warning', reason, resource, message });
        break;
      }
      case 'auth_required':
        log.record({ type: 'Normal', reason: 'MCPServerAuthRequired', resource, message: `${n} requires authentication${detail}` });
        break;
    }
  });

  const toolCounts = new Map<string, number>();
  kernel.hooks.onCatalogueChange.tap('events', (catalogue) => {
    const now = new Map<string, number>();
    for (const e of catalogue.all()) if (e.server) now.set(e.server, (now.get(e.server) ?? 0) + 1);
    for (const [server, count] of now) {
      const was = toolCounts.get(server);
      if (was === count) continue;
      log.record({
        type: 'Normal',
        reason: 'MCPServerToolsDiscovered',
        resource: { type: 'MCPServer', name: server },
        message: `MCPServer ${server} discovered ${count} tool${count === 1 ? '' : 's'}${was === undefined ? '' : ` (was ${was})`}`,
      });
    }
    toolCounts.clear();
    for (const [k, v] of now) toolCounts.set(k, v);
  });
}
