/**
 * What the kernel's hooks say, as events: definitions created, changed and deleted (from
 * each configuration change), server lifecycle (from state changes, with recoveries told
 * apart from first starts), and tools discovered (from catalogue changes, per server).
 */
import type { ConfigSnapshot } from '../../kernel/config/snapshot.js';
import type { EventLog } from '../../kernel/contracts/events.js';
import type { KernelApi } from '../../kernel/kernel-api.js';

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

export function tapSources(kernel: KernelApi, log: EventLog): void {
  kernel.hooks.onConfigLoad.tap('events', (next: ConfigSnapshot, previous: ConfigSnapshot | undefined) => {
    const servers = diff(previous?.mcpServers, next.mcpServers);
    for (const name of servers.created)
      log.record({ type: 'Normal', reason: 'ServerCreated', resource: { type: 'MCPServer', name }, message: `MCP server '${name}' was registered` });
    for (const name of servers.updated)
      log.record({ type: 'Normal', reason: 'ServerUpdated', resource: { type: 'MCPServer', name }, message: `MCP server '${name}' was changed` });
    for (const name of servers.deleted)
      log.record({ type: 'Normal', reason: 'ServerDeleted', resource: { type: 'MCPServer', name }, message: `MCP server '${name}' was removed` });
    const workflows = diff(previous?.workflows, next.workflows);
    for (const name of workflows.created)
      log.record({ type: 'Normal', reason: 'WorkflowCreated', resource: { type: 'Workflow', name }, message: `workflow '${name}' was created` });
    for (const name of workflows.updated)
      log.record({ type: 'Normal', reason: 'WorkflowUpdated', resource: { type: 'Workflow', name }, message: `workflow '${name}' was changed` });
    for (const name of workflows.deleted)
      log.record({ type: 'Normal', reason: 'WorkflowDeleted', resource: { type: 'Workflow', name }, message: `workflow '${name}' was deleted` });
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
  kernel.hooks.onServiceStateChange.tap('events', (c) => {
    if (c.serviceType !== 'MCPServer') return;
    const resource = { type: 'MCPServer' as const, name: c.name };
    const detail = c.detail ? `: ${c.detail}` : '';
    switch (c.state) {
      case 'starting':
        log.record({ type: 'Normal', reason: down.has(c.name) ? 'ServerReconnecting' : 'ServerStarting', resource, message: `connecting to '${c.name}'` });
        break;
      case 'running': {
        const since = down.get(c.name);
        down.delete(c.name);
        if (since !== undefined)
          log.record({
            type: 'Normal',
            reason: 'ServerRecovered',
            resource,
            message: `'${c.name}' is back after ${Math.round((Date.now() - since) / 1000)} s down`,
          });
        else log.record({ type: 'Normal', reason: 'ServerStarted', resource, message: `'${c.name}' is connected` });
        break;
      }
      case 'stopped':
        down.delete(c.name);
        log.record({ type: 'Normal', reason: 'ServerStopped', resource, message: `'${c.name}' was stopped${detail}` });
        break;
      case 'failed':
      case 'unreachable':
        if (!down.has(c.name)) down.set(c.name, Date.now());
        log.record({
          type: 'Warning',
          reason: c.state === 'failed' ? 'ServerFailed' : 'ServerUnreachable',
          resource,
          message: `'${c.name}' ${c.state === 'failed' ? 'failed' : 'is unreachable'}${detail}`,
        });
        break;
      case 'auth_required':
        log.record({ type: 'Warning', reason: 'AuthRequired', resource, message: `'${c.name}' requires sign-in${detail}` });
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
        reason: 'ToolsDiscovered',
        resource: { type: 'MCPServer', name: server },
        message: `'${server}' offers ${count} tool${count === 1 ? '' : 's'}${was === undefined ? '' : ` (was ${was})`}`,
      });
    }
    toolCounts.clear();
    for (const [k, v] of now) toolCounts.set(k, v);
  });
}
