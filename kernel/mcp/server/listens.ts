/**
 * `subscriptions/listen` (MCP 2026-07-28): a modern client's long-lived stream of change
 * notifications, the stateless era's replacement of the GET stream and resources/subscribe.
 * This process holds the streams opened here and nothing else: no record, nothing in Redis.
 * In cluster mode every replica hears every catalogue change by itself (the store it
 * watches, the upstreams it connects to, the grant broadcast), so each serves the streams it
 * holds from its own changes and a listen on any replica hears a change made through another.
 *
 * What a listen hears:
 * - `notifications/tools/list_changed` when what the caller's meta-tools show changed: the
 *   catalogue as the caller's view (toolset header, sign-in, authorization, the `onRequest`
 *   taps a tools/list runs) sees it. A change outside that view is not sent. Compared by a
 *   fingerprint of the visible entries, worked out once per distinct view per change.
 * - prompts and resources `list_changed` whenever what the upstreams offer changed (not
 *   narrowed to the caller's view: the plugin that serves them says when, not what).
 * - `notifications/resources/updated` for the URIs the request named that some server the
 *   caller sees serves (the acknowledgement names those; the others are left out).
 *
 * Bounded: listens per caller and per process; a stream the client does not read keeps at
 * most one pending notification per kind (they coalesce), never a queue.
 */
import type { JSONRPCMessage, JSONRPCNotification, ServerCapabilities } from '#mcp-sdk/types.js';
import { ErrorCode, McpError } from '#mcp-sdk/types.js';
import { Cancellation } from '../../cancellation.js';
import type { CatalogueEntry } from '../../catalogue.js';
import { ownerOf, type Owner } from '../../contracts/sign-in.js';
import { ListenLimitError } from '../../errors.js';
import type { KernelHooks } from '../../hooks.js';
import type { CatalogueView, RequestContext } from '../../request-context.js';
import type { Session } from '../../sessions.js';
import type { CallContext } from '../../tools.js';
import type { RequestEnvelope } from '../shared/modern-protocol.js';
import { closingResult, honoredLists, isEmptyFilter, readListenFilter, stamped, wantsList, type ListenFilter, type ListKind } from './listen-filter.js';
import type { StatelessCaller, StatelessRequest } from './stateless.js';

/** Resource URIs one listen may name: each is an upstream subscription while the stream lasts. */
export const MAX_LISTEN_RESOURCES = 256;

/** The transport's side of one listen: a response that stays open (SSE over streamable HTTP). */
export interface ListenStream {
  /** Writes one message; false when the client is not reading and the write waits in a buffer (then `drained` follows). */
  write(message: JSONRPCMessage): boolean;
  /** Ends the response, after the last write. */
  end(): void;
}

export interface ListenLimits {
  /** Open listens one caller (a person, or a client address when anonymous) may hold in this process. */
  perCaller: number;
  /** Open listens this process holds, all callers together. */
  total: number;
}

/** What the plugin serving resources does for a listen's `resourceSubscriptions`. */
export interface ListenResources {
  /** Watches `uri` for the listen whose request is `call` (its session, view and owner); rejects when no server the caller sees serves it. */
  watch(uri: string, call: CallContext): Promise<void>;
  /** The listen ended: `uri` is no longer watched for `session`. */
  unwatch(session: Session, uri: string): void;
}

export interface ListenHandle {
  /** The client reads again: what waited is written. */
  drained(): void;
  /** The response closed (the client went away, or the transport dropped a stalled stream). */
  closed(): void;
  /** Ends the stream gracefully (shutdown): the listen's result, then the end. */
  end(): void;
}

export type ListenOutcome = { kind: 'refused'; message: JSONRPCMessage } | { kind: 'open'; handle: ListenHandle };

export interface ListenHost {
  readonly hooks: KernelHooks;
  catalogue(): readonly CatalogueEntry[];
  capabilities(): ServerCapabilities;
  resources(): ListenResources | undefined;
  /** A session for the listen's life (in no registry), as a stateless request's. */
  sessionFor(caller: StatelessCaller, envelope: RequestEnvelope): Session;
}

interface Listen {
  readonly id: string | number;
  readonly who: string;
  readonly session: Session;
  readonly caller: StatelessCaller;
  readonly filter: ListenFilter;
  readonly stream: ListenStream;
  /** The fingerprint of the tools the caller's view showed at the last change. */
  toolsPrint: number;
  /** Kinds (and `uri:` keys) that changed while the client was not reading: sent, once each, when it reads again. */
  readonly pending: Map<string, JSONRPCNotification>;
  behind: boolean;
  ended: boolean;
}

export class Listens {
  private readonly open = new Set<Listen>();
  private readonly byCaller = new Map<string, number>();
  private readonly bySession = new WeakMap<Session, Listen>();
  /** A number per catalogue entry, for fingerprints (entries are replaced, never changed, when a source changes). */
  private readonly entryIds = new WeakMap<CatalogueEntry, number>();
  private nextEntryId = 1;

  constructor(private readonly host: ListenHost) {}

  get size(): number {
    return this.open.size;
  }

  /** Opens a listen: refused (in band) when the caller or the process holds the most, when params are wrong, or when a tap refuses. */
  async listen(
    request: StatelessRequest,
    envelope: RequestEnvelope,
    caller: StatelessCaller,
    stream: ListenStream,
    limits: ListenLimits,
  ): Promise<ListenOutcome> {
    const { id } = request;
    const refuse = (code: number, message: string, data?: unknown): ListenOutcome => ({
      kind: 'refused',
      message: { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } },
    });
    const who = caller.identity ? `sub:${caller.identity.subject}` : `addr:${caller.clientAddress ?? caller.peer ?? ''}`;
    const limited =
      (this.byCaller.get(who) ?? 0) >= limits.perCaller
        ? new ListenLimitError(limits.perCaller, 'caller')
        : this.open.size >= limits.total
          ? new ListenLimitError(limits.total)
          : undefined;
    if (limited) return refuse(LISTEN_LIMIT_CODE, limited.message, { code: limited.code, ...limited.details });
    const filter = readListenFilter(request.params ?? {}, MAX_LISTEN_RESOURCES);
    if (typeof filter === 'string') return refuse(ErrorCode.InvalidParams, filter);
    // Counted from here, so a flood of slow opens cannot pass the limit while the taps run.
    this.byCaller.set(who, (this.byCaller.get(who) ?? 0) + 1);
    const session = this.host.sessionFor(caller, envelope);
    const listen: Listen = {
      id,
      who,
      session,
      caller,
      filter: honoredLists(filter, this.host.capabilities()),
      stream,
      toolsPrint: 0,
      pending: new Map(),
      behind: false,
      ended: false,
    };
    this.open.add(listen);
    this.bySession.set(session, listen);
    let call: CallContext;
    try {
      // The taps a tools/list runs (toolset, sign-in view, authorization): a refusal refuses the listen.
      call = await this.context(listen);
      if (wantsList(listen.filter, 'tools')) listen.toolsPrint = this.fingerprint(call.request.view);
      const uris = await this.watch(listen, filter.resourceSubscriptions ?? [], call);
      if (uris.length > 0) listen.filter.resourceSubscriptions = uris;
    } catch (err) {
      this.drop(listen);
      const e = err instanceof McpError ? err : new McpError(ErrorCode.InvalidRequest, (err as Error).message);
      return refuse(e.code, e.message.replace(/^MCP error -?\d+: /, ''), e.data);
    }
    if (listen.ended) return refuse(ErrorCode.InvalidRequest, 'the client closed the listen before it was acknowledged');
    this.write(listen, stamped(id, 'notifications/subscriptions/acknowledged', { notifications: listen.filter }));
    // Nothing left to hear (none of it is announced, or no URI is served): acknowledged, then ended.
    if (isEmptyFilter(listen.filter)) this.finish(listen, true);
    return {
      kind: 'open',
      handle: {
        drained: () => this.flush(listen),
        closed: () => this.drop(listen),
        end: () => this.finish(listen, true),
      },
    };
  }

  /**
   * A list changed: for everyone (`owner` undefined), or for one owner only (a sign-in that
   * opens or closes servers for that person). Tools: only listens whose view of the
   * catalogue changed hear it (an owner's change always changes that owner's view).
   */
  async listChanged(list: ListKind, owner?: Owner): Promise<void> {
    const prints = new Map<CatalogueView | undefined, number>();
    for (const listen of [...this.open]) {
      if (listen.ended || !wantsList(listen.filter, list)) continue;
      if (owner !== undefined && ownerOf(listen.session) !== owner) continue;
      if (list === 'tools') {
        let view: CatalogueView | undefined;
        try {
          view = (await this.context(listen)).request.view;
        } catch {
          // The caller may no longer see anything (its permission was withdrawn): the stream ends.
          this.finish(listen, false);
          continue;
        }
        let print = prints.get(view);
        if (print === undefined) prints.set(view, (print = this.fingerprint(view)));
        if (owner === undefined && print === listen.toolsPrint) continue;
        listen.toolsPrint = print;
      }
      this.send(listen, list, stamped(listen.id, `notifications/${list}/list_changed`));
    }
  }

  /** Whether `session` is a listen's (resources/updated for it is sent on the stream, `send`). */
  holds(session: Session): boolean {
    return this.bySession.has(session);
  }

  /** A notification for the listen of `session` (a resource it watches was updated). */
  notify(session: Session, notification: { method: string; params?: Record<string, unknown> }): void {
    const listen = this.bySession.get(session);
    if (!listen || listen.ended) return;
    const uri = notification.params?.uri;
    this.send(listen, typeof uri === 'string' ? `uri:${uri}` : notification.method, stamped(listen.id, notification.method, notification.params));
  }

  /** Ends every stream gracefully (shutdown). */
  endAll(): void {
    for (const listen of [...this.open]) this.finish(listen, true);
  }

  private async context(listen: Listen): Promise<CallContext> {
    const { session, caller } = listen;
    const request: RequestContext = { session, headers: caller.headers, slots: new Map(), ...(caller.identity ? { identity: caller.identity } : {}) };
    if (this.host.hooks.onRequest.isUsed()) await this.host.hooks.onRequest.promise(request);
    return { request, cancellation: new Cancellation(), depth: 0 };
  }

  /** The URIs of `uris` watched for the listen, in order; one no server the caller sees serves is left out. */
  private async watch(listen: Listen, uris: readonly string[], call: CallContext): Promise<string[]> {
    const resources = this.host.resources();
    if (!resources || uris.length === 0 || this.host.capabilities().resources?.subscribe !== true) return [];
    const watched: string[] = [];
    for (const uri of uris) {
      if (listen.ended) break;
      try {
        await resources.watch(uri, call);
        watched.push(uri);
      } catch {
        // Served by no server the caller sees (or by several): left out of the acknowledgement.
      }
    }
    // Watched before the client went away: let go of them now.
    if (listen.ended) for (const uri of watched) resources.unwatch(listen.session, uri);
    return watched;
  }

  /**
   * The visible entries of the catalogue, as one number: each entry's own number mixed in
   * catalogue order (FNV-1a over 32 bits), with the count. A source that lists its tools again
   * replaces its entries, so that counts as a change: a false alarm costs a client one
   * re-list, a missed change costs it a stale list.
   */
  private fingerprint(view: CatalogueView | undefined): number {
    let hash = 0x811c9dc5;
    let count = 0;
    for (const entry of this.host.catalogue()) {
      if (view && !view.includes(entry)) continue;
      let n = this.entryIds.get(entry);
      if (n === undefined) this.entryIds.set(entry, (n = this.nextEntryId++));
      hash = Math.imul(hash ^ n, 0x01000193) >>> 0;
      count++;
    }
    return Math.imul(hash ^ count, 0x01000193) >>> 0;
  }

  /** Writes now, or keeps the latest of its kind while the client is not reading. */
  private send(listen: Listen, key: string, message: JSONRPCNotification): void {
    if (listen.behind) {
      listen.pending.delete(key);
      listen.pending.set(key, message);
      return;
    }
    this.write(listen, message);
  }

  /** Writes `message`; false when the client stopped reading (what follows waits in `pending`). */
  private write(listen: Listen, message: JSONRPCMessage): boolean {
    if (listen.stream.write(message)) return true;
    listen.behind = true;
    return false;
  }

  private flush(listen: Listen): void {
    if (listen.ended) return;
    listen.behind = false;
    for (const [key, message] of listen.pending) {
      listen.pending.delete(key);
      if (!this.write(listen, message)) return;
    }
  }

  /** Ends the stream: with the listen's result when graceful, then the end. */
  private finish(listen: Listen, graceful: boolean): void {
    if (listen.ended) return;
    if (graceful) listen.stream.write(closingResult(listen.id));
    this.drop(listen);
    listen.stream.end();
  }

  private drop(listen: Listen): void {
    if (!this.open.delete(listen)) {
      listen.ended = true;
      return;
    }
    listen.ended = true;
    listen.pending.clear();
    const left = (this.byCaller.get(listen.who) ?? 1) - 1;
    if (left > 0) this.byCaller.set(listen.who, left);
    else this.byCaller.delete(listen.who);
    const resources = this.host.resources();
    for (const uri of listen.filter.resourceSubscriptions ?? []) resources?.unwatch(listen.session, uri);
  }
}

/** The JSON-RPC code of a listen refused by a limit (server error range; `data.code` is LISTEN_LIMIT). */
export const LISTEN_LIMIT_CODE = -32000;
