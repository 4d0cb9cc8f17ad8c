/** list_servers: the caller's view of every registered server (decisions.md). */
import {
  coreToolName,
  isActiveState,
  mayCall,
  objectResult,
  ownerOf,
  resumeAdvice,
  type JsonObject,
  type KernelApi,
  type MetaToolDefinition,
  type ServiceStatus,
} from '../../kernel/index.js';

/**
 * Why a server is not up, in words that say what to do: suspended and how to resume it, the
 * reason it failed (a lasting one says what to change), or that it starts when asked.
 */
function reasonOf(s: ServiceStatus, suspended: boolean, prefix: string): string | undefined {
  if (isActiveState(s.state)) return undefined;
  if (suspended) return `suspended (${resumeAdvice(prefix, s.name)})`;
  if (s.error) return s.error;
  if (s.state === 'stopped' || s.state === 'disconnected')
    return `not started (start it with ${coreToolName(prefix, 'core_service_start')} ${JSON.stringify({ name: s.name })})`;
  return undefined;
}

export function serverTools(kernel: KernelApi): MetaToolDefinition[] {
  return [
    {
      name: 'list_servers',
      description:
        'List the registered MCP servers with their state, health, how many of their tools you can see, their sign-in status and, for one that is down, why (to callers who may call core_service_status).',
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
        const prefix = kernel.settings().aggregator.servicePrefix;
        // A reason quotes commands, paths and URLs of the definition: only for a caller who may
        // read them anyway (core_service_status gives the same `error`).
        const status = kernel.catalogue.get(coreToolName(prefix, 'core_service_status'));
        const mayReadReasons = status !== undefined && mayCall(call.request, status);
        for (const s of upstreams.list()) {
          const def = snapshot.mcpServers.get(s.name)?.value;
          const tools = counts.get(s.name) ?? 0;
          // With a toolset, a server none of whose tools is visible is not part of the caller's view.
          if (view && view.selectors.length > 0 && tools === 0) continue;
          // Nor is a server whose every tool the caller may not call.
          if (view?.hidesServer?.(s.name)) continue;
          const auth: JsonObject = { status: upstreams.statusFor(s.name, owner) };
          if (auth.status === 'auth_required') auth.auth_tool = coreToolName(prefix, 'core_auth_login');
          const suspended = def?.suspended ?? false;
          const reason = mayReadReasons ? reasonOf(s, suspended, prefix) : undefined;
          servers.push({
            name: s.name,
            type: def?.type ?? s.metadata.type,
            state: s.state,
            health: s.health,
            tools,
            auth,
            suspended,
            ...(typeof s.metadata.protocolVersion === 'string' ? { protocolVersion: s.metadata.protocolVersion } : {}),
            ...(reason ? { reason } : {}),
          });
        }
        return objectResult({ servers, total: servers.length });
      },
    },
  ];
}
