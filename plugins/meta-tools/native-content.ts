/**
 * Resources, prompts and completions as MCP itself offers them, next to the meta-tools:
 * resources/list (paged), resources/templates/list, resources/read, resources/subscribe
 * and unsubscribe (resource-subscriptions.ts), prompts/list and
 * prompts/get (named `x_<server>_<prompt>` as the meta-tools name them) and
 * completion/complete, each routed to the server that owns the resource or prompt. The
 * caller's toolset narrows them exactly as it narrows list_resources and list_prompts: a
 * server's resources and prompts are visible when one of its tools is.
 */
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '#mcp-sdk/types.js';
import { ownerOf as sessionOwner, protocolError, type CallContext, type CatalogueView, type KernelApi, type Owner, type Session } from '../../kernel/index.js';
import { serverVisible } from './content.js';
import { AUTH_STATUS_RESOURCE, AUTH_STATUS_URI, readAuthStatus } from './auth-status.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { templateMatches } from './uri-template-match.js';

const PAGE = 100;
/** Resources one session may watch at once: each is a line of its record in cluster mode and an upstream subscription. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 256;

function page<T>(items: T[], cursor: unknown): { items: T[]; nextCursor?: string } {
  let offset = 0;
  if (cursor !== undefined) {
    if (typeof cursor !== 'string') throw new McpError(ErrorCode.InvalidParams, 'cursor must be a string this server gave out');
    offset = Number.parseInt(Buffer.from(cursor, 'base64url').toString('utf8'), 10);
    if (!Number.isInteger(offset) || offset < 0) throw new McpError(ErrorCode.InvalidParams, `cursor '${cursor}' is not one this server gave out`);
  }
  const slice = items.slice(offset, offset + PAGE);
  return offset + PAGE < items.length ? { items: slice, nextCursor: Buffer.from(String(offset + PAGE)).toString('base64url') } : { items: slice };
}

export function nativeContent(kernel: KernelApi): void {
  if (!kernel.services.find('upstreams')) return; // no upstreams plugin: nothing to offer
  const upstreams = () => kernel.services.get('upstreams');
  const visible = (server: string, view: CatalogueView | undefined) => serverVisible(kernel, server, view);

  /** The one server that serves `uri` (a listed resource, else a matching template) for `who`, within the view. */
  const serverOf = (uri: string, who: Owner, view?: CatalogueView): string => {
    let owners = [
      ...new Set(
        upstreams()
          .resources(who)
          .filter((r) => r.uri === uri && visible(r.server, view))
          .map((r) => r.server),
      ),
    ];
    if (owners.length === 0)
      owners = [
        ...new Set(
          upstreams()
            .resourceTemplates(who)
            .filter((t) => templateMatches(t.uriTemplate, uri) && visible(t.server, view))
            .map((t) => t.server),
        ),
      ];
    // The URI in the error's data, as SEP-2164 asks (clients match the error to their read).
    if (owners.length === 0) throw new McpError(ErrorCode.InvalidParams, `Resource '${uri}' not found`, { uri });
    if (owners.length > 1)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Resource '${uri}' is served by several servers (${owners.join(', ')}); read it with the get_resource meta-tool, which takes 'server'`,
      );
    return owners[0]!;
  };
  const ownerOf = (uri: string, call: CallContext): string => serverOf(uri, sessionOwner(call.request.session), call.request.view);

  const subscriptions = new ResourceSubscriptions(kernel, serverOf, MAX_SUBSCRIPTIONS_PER_SESSION);
  // A 2026-07-28 client's subscriptions/listen names its resources: watched as a session's subscriptions are, for the listen's life.
  kernel.endpoint.setListenResources({
    watch: (uri, call) => subscriptions.add(call.request.session, uri, ownerOf(uri, call)),
    unwatch: (session, uri) => void subscriptions.remove(session, uri),
  });
  const changed = async (session: Session) => {
    if (kernel.hooks.onSessionChange.isUsed()) await kernel.hooks.onSessionChange.promise(session, 'here');
  };

  let listed = '';
  let timer: NodeJS.Timeout | undefined;
  upstreams().watch((change) => {
    if (change.type === 'updated') {
      subscriptions.updated(change.uri);
      return;
    }
    // Debounced, and only when what is offered really changed (tools coming and going do not count).
    clearTimeout(timer);
    timer = setTimeout(() => {
      const now = JSON.stringify([
        upstreams()
          .resources()
          .map((r) => r.server + r.uri),
        upstreams()
          .resourceTemplates()
          .map((t) => t.server + t.uriTemplate),
        upstreams()
          .prompts()
          .map((p) => p.name),
      ]);
      if (now === listed) return;
      listed = now;
      subscriptions.retry();
      kernel.endpoint.notifyListChanged('resources', kernel.sessions.all());
      kernel.endpoint.notifyListChanged('prompts', kernel.sessions.all());
    }, 100);
    timer.unref();
  });

  kernel.endpoint.addProtocol({ resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {} }, [
    {
      schema: ListResourcesRequestSchema,
      handle: async (req, call) => {
        const { items, nextCursor } = page(
          [
            { server: '', ...AUTH_STATUS_RESOURCE },
            ...upstreams()
              .resources(sessionOwner(call.request.session))
              .filter((r) => visible(r.server, call.request.view)),
          ],
          req.params?.cursor,
        );
        return { resources: items.map(({ server: _server, ...r }) => r), ...(nextCursor ? { nextCursor } : {}) };
      },
    },
    {
      schema: ListResourceTemplatesRequestSchema,
      handle: async (req, call) => {
        const { items, nextCursor } = page(
          upstreams()
            .resourceTemplates(sessionOwner(call.request.session))
            .filter((t) => visible(t.server, call.request.view)),
          req.params?.cursor,
        );
        return { resourceTemplates: items.map(({ server: _server, ...t }) => t), ...(nextCursor ? { nextCursor } : {}) };
      },
    },
    {
      schema: ReadResourceRequestSchema,
      handle: async (req, call) => {
        const uri = String(req.params?.uri);
        if (uri === AUTH_STATUS_URI) return readAuthStatus(kernel, call.request.session);
        // The server's own "not found" (-32602) stays the caller's error, naming the URI as Switchboard's own does.
        return upstreams()
          .readResource(ownerOf(uri, call), uri, sessionOwner(call.request.session))
          .catch((err: unknown) => {
            throw err instanceof McpError ? err : protocolError(err, { uri });
          });
      },
    },
    {
      schema: SubscribeRequestSchema,
      handle: async (req, call) => {
        const uri = String(req.params?.uri);
        const session = call.request.session;
        if (!session.subscriptions.has(uri) && session.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_SESSION)
          throw new McpError(
            ErrorCode.InvalidParams,
            `This session already watches ${MAX_SUBSCRIPTIONS_PER_SESSION} resources, the most one session may; unsubscribe from one before subscribing to '${uri}'`,
          );
        await subscriptions.add(session, uri, ownerOf(uri, call));
        if (!session.subscriptions.has(uri)) {
          session.subscriptions.add(uri);
          await changed(session);
        }
        return {};
      },
    },
    {
      schema: UnsubscribeRequestSchema,
      handle: async (req, call) => {
        const uri = String(req.params?.uri);
        const session = call.request.session;
        await subscriptions.remove(session, uri);
        if (session.subscriptions.delete(uri)) await changed(session);
        return {};
      },
    },
    {
      schema: ListPromptsRequestSchema,
      handle: async (req, call) => {
        const { items, nextCursor } = page(
          upstreams()
            .prompts(sessionOwner(call.request.session))
            .filter((p) => visible(p.server, call.request.view)),
          req.params?.cursor,
        );
        return {
          prompts: items.map((p) => ({
            name: p.name,
            ...(p.description ? { description: p.description } : {}),
            ...(p.arguments ? { arguments: p.arguments } : {}),
            ...(p.icons ? { icons: p.icons } : {}),
          })),
          ...(nextCursor ? { nextCursor } : {}),
        };
      },
    },
    {
      schema: GetPromptRequestSchema,
      handle: async (req, call) => {
        const name = String(req.params?.name);
        const p = upstreams()
          .prompts(sessionOwner(call.request.session))
          .find((x) => x.name === name && visible(x.server, call.request.view));
        if (!p) throw new McpError(ErrorCode.InvalidParams, `Prompt '${name}' not found`);
        return upstreams().getPrompt(name, (req.params?.arguments as Record<string, string> | undefined) ?? {}, sessionOwner(call.request.session));
      },
    },
    {
      schema: CompleteRequestSchema,
      handle: async (req, call) => {
        const params = req.params ?? {};
        const ref = params.ref as { type: string; name?: string; uri?: string };
        // Nothing to complete for an unknown prompt or resource: an empty list, as a client's
        // autocomplete expects, not an error.
        const none = { completion: { values: [], total: 0, hasMore: false } };
        if (ref.type === 'ref/prompt') {
          const p = upstreams()
            .prompts(sessionOwner(call.request.session))
            .find((x) => x.name === ref.name && visible(x.server, call.request.view));
          return p ? upstreams().complete(p.server, { ...params, ref: { ...ref, name: p.originalName } }, sessionOwner(call.request.session)) : none;
        }
        const uri = String(ref.uri);
        const owner = upstreams()
          .resourceTemplates(sessionOwner(call.request.session))
          .find((t) => t.uriTemplate === uri && visible(t.server, call.request.view))?.server;
        return owner ? upstreams().complete(owner, params, sessionOwner(call.request.session)) : none;
      },
    },
  ]);
}
