/**
 * What a 2026-07-28 upstream logs during a call goes to the client whose call it is, as a
 * legacy upstream's log lines do (client-relay.ts finds the call and applies its level). The
 * relay matches a message to a call by the JSON-RPC id of the call's request: over HTTP the
 * transport says which request's response stream carried it, over stdio the calls in flight
 * decide. The v2 client picks that id itself and does not say it, so the call's request is
 * tagged with a `_meta` key of ours on its way in and the tag taken off (and the id read) on
 * its way out to the transport: the key never reaches the upstream. Every round of an
 * input_required call is a new request, each tagged and tracked alike.
 *
 * Only `notifications/message` is taken from the v2 client's stream; everything else
 * (answers, list changes, resource updates, listen acknowledgements) is its own to handle.
 */
import type { Transport } from '#mcp-sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '#mcp-sdk/types.js';
import type { CallContext } from '../../../kernel/index.js';
import type { ClientRelay, RelatingTransport } from './client-relay.js';

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
  ) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(this.untag(message), options);
    // Installed after the v2 client connected: its handler is the one wrapped.
    const inner = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ((message as { method?: unknown }).method === 'notifications/message' && !('id' in message) && relay.take(message, send)) return;
      inner?.(message, extra);
    };
    transport.onrelated = (message, id) => relay.related(message, id);
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
