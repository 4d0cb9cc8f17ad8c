/** Resources and prompts aggregated from the upstreams. */
import type { UpstreamResource } from '../../kernel/contracts/lifecycle.js';
import { NotFoundError, SwitchboardError } from '../../kernel/errors.js';
import type { KernelApi } from '../../kernel/kernel-api.js';
import type { MetaToolDefinition } from '../../kernel/mcp/server/endpoint.js';
import { objectResult } from '../../kernel/mcp/shared/results.js';
import { servedBy, type CallContext, type JsonObject } from '../../kernel/tools.js';
import type { CatalogueView } from '../../kernel/request-context.js';
import { ownerOf } from '../../kernel/contracts/sign-in.js';
import { AUTH_STATUS_RESOURCE, AUTH_STATUS_URI, readAuthStatus } from './auth-status.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const uriArgs = {
  type: 'object',
  additionalProperties: false,
  required: ['uri'],
  properties: {
    uri: { type: 'string', minLength: 1 },
    server: { type: 'string', description: 'Which server, when several serve the same URI.' },
  },
};

export function contentTools(kernel: KernelApi): MetaToolDefinition[] {
  const upstreams = () => kernel.services.get('upstreams');
  const visibleServer = (server: string, view: CatalogueView | undefined) => serverVisible(kernel, server, view);

  const findResource = (args: JsonObject, call: CallContext): UpstreamResource => {
    const uri = args.uri as string;
    const server = args.server as string | undefined;
    const view = call.request.view;
    const matches = upstreams()
      .resources(ownerOf(call.request.session))
      .filter((r) => r.uri === uri && (!server || r.server === server) && visibleServer(r.server, view));
    if (matches.length === 0) throw new NotFoundError('resource', server ? `${uri}' on server '${server}` : uri);
    if (matches.length > 1) {
      throw new SwitchboardError(
        'CONFLICT',
        `resource '${uri}' is served by several servers (${matches.map((m) => m.server).join(', ')}); pass 'server' to choose`,
        {
          candidates: matches.map((m) => m.server),
        },
      );
    }
    return matches[0]!;
  };

  return [
    {
      name: 'list_resources',
      description: 'List the MCP resources the registered servers offer (uri, name, server, mimeType).',
      annotations: READ_ONLY,
      inputSchema: { type: 'object', additionalProperties: false, properties: {} },
      async handler(_args, call) {
        const resources = [
          AUTH_STATUS_RESOURCE,
          ...upstreams()
            .resources(ownerOf(call.request.session))
            .filter((r) => visibleServer(r.server, call.request.view)),
        ];
        return objectResult({ resources: resources as unknown as JsonObject[], total: resources.length });
      },
    },
    {
      name: 'describe_resource',
      description: 'Describe one resource: its metadata and the server it comes from.',
      annotations: READ_ONLY,
      inputSchema: uriArgs,
      async handler(args, call) {
        if (args.uri === AUTH_STATUS_URI) return objectResult({ ...AUTH_STATUS_RESOURCE });
        return objectResult({ ...findResource(args, call) });
      },
    },
    {
      name: 'get_resource',
      description: "Read one resource's contents.",
      annotations: READ_ONLY,
      inputSchema: uriArgs,
      async handler(args, call) {
        if (args.uri === AUTH_STATUS_URI) return objectResult(readAuthStatus(kernel, call.request.session));
        const r = findResource(args, call);
        return objectResult({ server: r.server, ...(await upstreams().readResource(r.server, r.uri, ownerOf(call.request.session))) });
      },
    },
    {
      name: 'list_prompts',
      description: 'List the prompts the registered servers offer, named x_<server>_<prompt>.',
      annotations: READ_ONLY,
      inputSchema: { type: 'object', additionalProperties: false, properties: {} },
      async handler(_args, call) {
        const prompts = upstreams()
          .prompts(ownerOf(call.request.session))
          .filter((p) => visibleServer(p.server, call.request.view));
        return objectResult({ prompts: prompts as unknown as JsonObject[], total: prompts.length });
      },
    },
    {
      name: 'describe_prompt',
      description: 'Describe one prompt: description and arguments.',
      annotations: READ_ONLY,
      inputSchema: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
      async handler(args, call) {
        const p = upstreams()
          .prompts(ownerOf(call.request.session))
          .find((x) => x.name === args.name && visibleServer(x.server, call.request.view));
        if (!p) throw new NotFoundError('prompt', args.name as string);
        return objectResult({ ...p });
      },
    },
    {
      name: 'get_prompt',
      description: 'Run a prompt with its arguments and return its messages.',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1 }, arguments: { type: 'object', additionalProperties: { type: 'string' }, default: {} } },
      },
      async handler(args, call) {
        const name = args.name as string;
        const p = upstreams()
          .prompts(ownerOf(call.request.session))
          .find((x) => x.name === name && visibleServer(x.server, call.request.view));
        if (!p) throw new NotFoundError('prompt', name);
        return objectResult(await upstreams().getPrompt(name, args.arguments as Record<string, string>, ownerOf(call.request.session)));
      },
    },
  ];
}

/** A server's resources and prompts are visible when any of its tools is (or there is no toolset), unless the caller may call none of them. */
export function serverVisible(kernel: KernelApi, server: string, view: CatalogueView | undefined): boolean {
  if (!view) return true;
  if (view.hidesServer?.(server)) return false;
  if (view.selectors.length === 0) return true;
  return kernel.catalogue.all().some((e) => servedBy(e, server) && view.includes(e));
}
