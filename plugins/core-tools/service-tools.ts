/**
 * core_service_*: the aggregator (a static service: it reports, it is not started or
 * stopped from inside) and one MCPServer service per definition. In file mode start and
 * stop are imperative: they act on the running server, not on its file.
 */
import {
  administer,
  ANNOTATIONS,
  ConflictError,
  coreTool,
  isActiveState,
  isStoppedState,
  NotFoundError,
  UnsupportedError,
  writeAs,
  type CallContext,
  type JsonObject,
  type KernelApi,
  type ServiceStatus,
  type ToolDefinition,
} from '../../kernel/index.js';
import { withoutDefaults } from './definition-checks.js';
import { serverResource } from './server-resource.js';

export const AGGREGATOR = 'aggregator';

const NAME = { name: { type: 'string', minLength: 1, description: "Service name: 'aggregator' or an MCP server's name." } };

function memoryFigures(): Record<string, number> {
  const m = process.memoryUsage();
  return { rssBytes: m.rss, heapUsedBytes: m.heapUsed, heapTotalBytes: m.heapTotal, externalBytes: m.external };
}

export function aggregatorStatus(kernel: KernelApi): ServiceStatus {
  const settings = kernel.settings().aggregator;
  const bound = kernel.services.find('http')?.address();
  return {
    name: AGGREGATOR,
    service_type: 'Aggregator',
    state: 'running',
    health: 'healthy',
    metadata: {
      port: bound?.port ?? settings.port,
      host: settings.host,
      transport: settings.transport,
      tools: kernel.catalogue.all().length,
      servers_connected: kernel.services.get('upstreams').connectedCount(),
      sessions: kernel.sessions.size,
      // For operators and the soak benchmark: growth here over hours is a leak.
      memory: memoryFigures(),
      activeResources: process.getActiveResourcesInfo().length,
    },
  };
}

export function serviceTools(kernel: KernelApi, prefix: string): ToolDefinition[] {
  const upstreams = () => kernel.services.get('upstreams');
  const status = (name: string): ServiceStatus => {
    if (name === AGGREGATOR) return aggregatorStatus(kernel);
    const s = upstreams().status(name);
    if (!s) throw new NotFoundError('service', name);
    return s;
  };
  const operate =
    (operation: 'start' | 'stop' | 'restart', run: (name: string) => Promise<ServiceStatus>) =>
    async (args: JsonObject, call: CallContext): Promise<JsonObject> => {
      const name = args.name as string;
      if (name === AGGREGATOR)
        throw new UnsupportedError(
          `the aggregator is a static service: ${operation} it from outside (signals, your process manager), not through ${operation === 'start' ? 'core_service_start' : `core_service_${operation}`}`,
        );
      const located = kernel.config.snapshot.mcpServers.get(name);
      if (!located) throw new NotFoundError('service', name);
      return administer(kernel, call, serverResource(located.value), operation, () => operateOn(operation, run, name, call));
    };
  const operateOn = async (
    operation: 'start' | 'stop' | 'restart',
    run: (name: string) => Promise<ServiceStatus>,
    name: string,
    call: CallContext,
  ): Promise<JsonObject> => {
    const before = status(name);
    // Asking for the state a service is already in changes nothing and says so.
    // A remote server says connected and disconnected where a stdio one says running and stopped.
    if ((operation === 'start' && isActiveState(before.state)) || (operation === 'stop' && isStoppedState(before.state))) {
      const already = `already ${before.state}`;
      return {
        name,
        operation,
        status: 'ok',
        message: `Server '${name}' is ${already}`,
        state: before.state,
        health: before.health,
        service: before as unknown as JsonObject,
      };
    }
    const def = kernel.config.snapshot.mcpServers.get(name)?.value;
    if (kernel.services.get('store').lifecycle === 'declarative') return declare(operation, name, before, call);
    if (operation !== 'stop' && def?.suspended) {
      throw new ConflictError(
        `Server '${name}' is suspended in its definition (suspended: true); resume it with core_mcpserver_update {name: '${name}', suspended: false}`,
        { name },
      );
    }
    const after = await run(name);
    return { name, operation, status: 'ok', state: after.state, health: after.health, service: after as unknown as JsonObject };
  };
  /**
   * The orchestrator's way: the operation is written into the definition and the reconciler
   * acts (interface, "States and transitions"): stop sets suspended; start clears it, and
   * when the server is down also requests a restart; restart requests one.
   */
  const declare = (operation: 'start' | 'stop' | 'restart', name: string, before: ServiceStatus, call: CallContext): Promise<JsonObject> =>
    kernel.config.exclusive(async (edits) => {
      const located = kernel.config.snapshot.mcpServers.get(name)!;
      const body = withoutDefaults(located.value);
      const now = new Date().toISOString();
      const written: JsonObject = {};
      if (operation === 'stop') written.suspended = true;
      if (operation === 'start') {
        written.suspended = false;
        if (!isStoppedState(before.state) || !located.value.suspended) written.restartRequestedAt = now;
      }
      if (operation === 'restart') written.restartRequestedAt = now;
      Object.assign(body, written);
      if (body.suspended === false) delete body.suspended;
      const raw = await kernel.services.get('store').write('mcpserver', name, body, located.origin.file, await writeAs(kernel, call));
      await edits.apply(raw);
      const after = status(name);
      return { name, operation, status: 'ok', written, state: after.state, health: after.health, service: after as unknown as JsonObject };
    });

  return [
    coreTool(prefix, {
      name: 'core_service_list',
      description: 'List services: the aggregator and every registered MCP server, with state, health and metadata.',
      annotations: ANNOTATIONS.read,
      run: async () => {
        const services = [aggregatorStatus(kernel), ...upstreams().list()];
        return { services: services as unknown as JsonObject[], total: services.length };
      },
    }),
    coreTool(prefix, {
      name: 'core_service_status',
      description: "One service's state, health and runtime information (errors, next reconnect attempt).",
      annotations: ANNOTATIONS.read,
      properties: NAME,
      required: ['name'],
      run: async (args) => status(args.name as string) as unknown as JsonObject,
    }),
    coreTool(prefix, {
      name: 'core_service_start',
      description: 'Start (connect) an MCP server that is stopped or down.',
      annotations: ANNOTATIONS.start,
      operation: { resource: 'server', operation: 'start' },
      properties: NAME,
      required: ['name'],
      run: operate('start', (n) => upstreams().start(n)),
    }),
    coreTool(prefix, {
      name: 'core_service_stop',
      description: 'Stop an MCP server and keep it stopped; its tools leave the catalogue.',
      annotations: ANNOTATIONS.stop,
      operation: { resource: 'server', operation: 'stop' },
      properties: NAME,
      required: ['name'],
      run: operate('stop', (n) => upstreams().stop(n)),
    }),
    coreTool(prefix, {
      name: 'core_service_restart',
      description: 'Restart an MCP server once (stop, then start).',
      annotations: ANNOTATIONS.restart,
      operation: { resource: 'server', operation: 'restart' },
      properties: NAME,
      required: ['name'],
      run: operate('restart', (n) => upstreams().restart(n)),
    }),
  ];
}
