/**
 * What a 2026-07-28 upstream logs during a call goes to the client whose call it is, as a
 * legacy upstream's log lines do (client-relay.ts finds the call and applies its level). The
 * relay matches a message to a call by the JSON-RPC id of the call's request: over HTTP the
 * transport says which request's response stream carried it, over stdio the calls in flight
 * decide. A direct call (direct-calls.ts, every call without progress) picks its id itself and
 * tracks it. A call with progress goes through the v2 client, which picks the id and does not
 * say it, so that request is tagged with a `_meta` key of ours on its way in and the tag taken
 * off (and the id read) on its way out to the transport: the key never reaches the upstream.
 * Every round of an input_required call is a new request, each tracked alike.
 *
 * Taken from the v2 client's stream here: the answers to direct calls (by their own ids) and
 * `notifications/message`; everything else (other answers, list changes, resource updates,
 * listen acknowledgements) is its own to handle.
 */
import type { Transport } from '#mcp-sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '#mcp-sdk/types.js';
import type { CallContext } from '../../../kernel/index.js';
import type { ClientRelay, RelatingTransport } from './client-relay.js';
import type { DirectCalls } from './direct-calls.js';

/** The `_meta` key a call's request carries between the v2 client and the transport; removed before sending. */
export const CALL_TAG = 'switchboard.internal/call';

interface Tagged {
  call: CallContext;
  /** The ids the call's requests went out under (one per round). */
  ids: RequestId[];
}

export class ModernCallRoutes {
  private next = 0;
  private readonly calls = new Map<string, Tagged>();

  constructor(
    transport: Transport & RelatingTransport,
    private readonly relay: ClientRelay,
    direct: DirectCalls,
  ) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(this.untag(message), options);
    // Installed after the v2 client connected: its handler is the one wrapped.
    const inner = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (direct.take(message)) return;
      if ((message as { method?: unknown }).method === 'notifications/message' && !('id' in message) && relay.take(message, send)) return;
      inner?.(message, extra);
    };
    transport.onrelated = (message, id) => relay.related(message, id);
    transport.onanswer = (message) => direct.take(message);
    // The direct calls still waiting fail as the v2 client's would, before it hears of the close.
    const innerClose = transport.onclose;
    transport.onclose = () => {
      direct.closed();
      innerClose?.();
    };
  }

  /** A tag for `call`'s request `_meta`; `done` when the call ended, whatever the outcome. */
  open(call: CallContext): { tag: string; done(): void } {
    const tag = String(++this.next);
    const entry: Tagged = { call, ids: [] };
    this.calls.set(tag, entry);
    return {
      tag,
      done: () => {
        this.calls.delete(tag);
        for (const id of entry.ids) this.relay.untrack(id);
      },
    };
  }

  /** The message as the upstream gets it: a tagged request loses the tag, and its id is tracked for the call. */
  private untag(message: JSONRPCMessage): JSONRPCMessage {
    const m = message as { id?: RequestId; params?: { _meta?: Record<string, unknown> } };
    const meta = m.params?._meta;
    if (m.id === undefined || !meta || !(CALL_TAG in meta)) return message;
    const { [CALL_TAG]: tag, ...rest } = meta;
    const entry = typeof tag === 'string' ? this.calls.get(tag) : undefined;
    if (entry) {
      entry.ids.push(m.id);
      this.relay.track(m.id, entry.call);
    }
    return { ...message, params: { ...m.params, _meta: rest } };
  }
}
