/**
 * What a `subscriptions/listen` request (MCP 2026-07-28) asks for, read from its params, and
 * the notifications of a listen stream. No SDK: the v1 SDK the endpoint is built on stops at
 * 2025-11-25.
 */
import type { JSONRPCMessage, JSONRPCNotification, ServerCapabilities } from '#mcp-sdk/types.js';
import { SERVER_INFO } from '../shared/implementation.js';
import { SERVER_INFO_META_KEY } from '../shared/modern-protocol.js';

export const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';

/** The lists a listen may hear about, by the name `notifications/<list>/list_changed` gives them. */
export type ListKind = 'tools' | 'prompts' | 'resources';

export const LIST_KINDS: readonly ListKind[] = ['tools', 'prompts', 'resources'];

/** `params.notifications` of subscriptions/listen (SubscriptionFilter). */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

const FLAG: Record<ListKind, 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged'> = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
};

export function wantsList(filter: ListenFilter, list: ListKind): boolean {
  return filter[FLAG[list]] === true;
}

/**
 * The filter of a listen request, or what is wrong with it (a -32602 message naming the
 * field). `maxResources` bounds `resourceSubscriptions`: each is an upstream subscription
 * while the stream lasts.
 */
export function readListenFilter(params: Record<string, unknown>, maxResources: number): ListenFilter | string {
  const raw = params.notifications;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return "Invalid params for subscriptions/listen: 'notifications' is required and must be an object (SubscriptionFilter)";
  const n = raw as Record<string, unknown>;
  const filter: ListenFilter = {};
  for (const list of LIST_KINDS) {
    const v = n[FLAG[list]];
    if (v === undefined) continue;
    if (typeof v !== 'boolean') return `Invalid params for subscriptions/listen: 'notifications.${FLAG[list]}' must be a boolean`;
    if (v) filter[FLAG[list]] = true;
  }
  const uris = n.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris)) return "Invalid params for subscriptions/listen: 'notifications.resourceSubscriptions' must be an array of URIs";
    if (uris.length > maxResources)
      return `Invalid params for subscriptions/listen: 'notifications.resourceSubscriptions' lists ${uris.length} URIs, more than the ${maxResources} one listen may watch`;
    const at = uris.findIndex((u) => typeof u !== 'string' || u.length === 0);
    if (at >= 0) return `Invalid params for subscriptions/listen: 'notifications.resourceSubscriptions[${at}]' must be a non-empty string`;
    if (uris.length > 0) filter.resourceSubscriptions = [...new Set(uris as string[])];
  }
  return filter;
}

/** The lists of `filter` the endpoint announces changes of (`listChanged` in its capabilities). */
export function honoredLists(filter: ListenFilter, capabilities: ServerCapabilities): ListenFilter {
  const honored: ListenFilter = {};
  for (const list of LIST_KINDS) if (wantsList(filter, list) && capabilities[list]?.listChanged === true) honored[FLAG[list]] = true;
  return honored;
}

export function isEmptyFilter(filter: ListenFilter): boolean {
  return !LIST_KINDS.some((l) => wantsList(filter, l)) && (filter.resourceSubscriptions?.length ?? 0) === 0;
}

/** A notification of the stream `id`, tagged with it so a client tells its listens apart. */
export function stamped(id: string | number, method: string, params: Record<string, unknown> = {}): JSONRPCNotification {
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  return { jsonrpc: '2.0', method, params: { ...params, _meta: { ...meta, [SUBSCRIPTION_ID_META_KEY]: id } } };
}

/** The listen's result: the stream ends gracefully (the server shuts down, or nothing was left to hear). */
export function closingResult(id: string | number): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    result: {
      resultType: 'complete',
      _meta: { [SUBSCRIPTION_ID_META_KEY]: id, [SERVER_INFO_META_KEY]: { name: SERVER_INFO.name, version: SERVER_INFO.version } },
    },
  };
}
