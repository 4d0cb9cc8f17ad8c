/** list_servers: the caller's view of every registered server (decisions.md). */
import type { KernelApi } from '../../kernel/kernel-api.js';
import type { MetaToolDefinition } from '../../kernel/mcp/server/endpoint.js';
import { objectResult } from '../../kernel/mcp/shared/results.js';
import { coreToolName, type JsonObject } from '../../kernel/tools.js';
import { ownerOf } from '../../kernel/contracts/sign-in.js';

export function serverTools(kernel: KernelApi): MetaToolDefinition[] {
  return [
    {
      name: 'list_servers',
      description: 'List the registered MCP servers with their state, health, how many of their tools you can see and their sign-in status.',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      inputSchema: { type: 'object', additionalProperties: false, properties: {} },
      async handler(_args, call) {
        const view = call.request.view;
        const counts = new Map<string, number>();
        for (const e of kernel.catalogue.all()) {
          if (!e.server || (view && !view.includes(e))) continue;
          // A family's tool counts for each member that has it.
          for (const s of e.servers ?? [e.server]) counts.set(s, (counts.get(s) ?? 0) + 1);
        }
        const snapshot = kernel.config.snapshot;
        const servers: JsonObject[] = [];
        const upstreams = kernel.services.get('upstreams');
        const owner = ownerOf(call.request.session);
        for (const s of upstreams.list()) {
          const def = snapshot.mcpServers.get(s.name)?.value;
          const tools = counts.get(s.name) ?? 0;
          // With a toolset, a server none of whose tools is visible is not part of the caller's view.
          if (view && view.selectors.length > 0 && tools === 0) continue;
          // Nor is a server whose every tool the caller may not call.
          if (view?.hidesServer?.(s.name)) continue;
          const auth: JsonObject = { status: upstreams.statusFor(s.name, owner) };
          if (auth.status === 'auth_required') auth.auth_tool = coreToolName(kernel.settings().aggregator.servicePrefix, 'core_auth_login');
          servers.push({ name: s.name, type: def?.type ?? s.metadata.type, state: s.state, health: s.health, tools, auth, suspended: def?.suspended ?? false });
        }
        return objectResult({ servers, total: servers.length });
      },
    },
  ];
}
