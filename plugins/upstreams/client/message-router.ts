/**
 * The one place an upstream connection's incoming messages are dispatched. Installed once,
 * right after the SDK Client connected (the SDK has then set the transport's handlers, which
 * this takes over), it hands each message to exactly one receiver, asked in this order:
 *
 * 1. answers to our direct tools/call (direct-calls.ts), recognised by their own ids: the
 *    hot path, settled without the SDK;
 * 2. what belongs to the calling client (client-relay.ts): the upstream's sampling,
 *    elicitation and roots requests, its log messages, its elicitation completions, and its
 *    cancellations of a request being relayed; these must not reach the SDK, which would
 *    answer them itself;
 * 3. everything else, to the SDK's own Protocol method for its kind, classified by shape
 *    (kernel/mcp/shared/message-shape.ts) rather than by the SDK's zod parses;
 * 4. what is not plainly one kind, to the SDK's own onmessage, so it is judged as before.
 *
 * The transport's close fails the direct calls still waiting before the SDK hears of it (and
 * tells `closed`, for the calls following an upstream task between requests), and
 * its word on which request's response stream carried a message goes to the relay.
 */
import type { Client } from '#mcp-sdk/client/index.js';
import type { Transport } from '#mcp-sdk/shared/transport.js';
import { messageKind, protocolDispatch } from '../../../kernel/index.js';
import type { ClientRelay, RelatingTransport } from './client-relay.js';
import type { DirectCalls } from './direct-calls.js';

export function routeMessages(client: Client, transport: Transport & RelatingTransport, direct: DirectCalls, relay: ClientRelay, closed: () => void): void {
  const sdkOnMessage = transport.onmessage;
  const sdkOnClose = transport.onclose;
  // An SDK whose internals moved keeps its own dispatch (step 3 skipped), only slower.
  const sdk = protocolDispatch(client);
  const send: Transport['send'] = (message, options) => transport.send(message, options);
  transport.onmessage = (message, extra) => {
    if (direct.take(message)) return;
    if (relay.take(message, send)) return;
    switch (sdk && messageKind(message)) {
      case 'response':
        return sdk!.response(message);
      case 'notification':
        return sdk!.notification(message);
      case 'request':
        return sdk!.request(message, extra);
      default:
        sdkOnMessage?.(message, extra);
    }
  };
  transport.onclose = () => {
    direct.closed();
    closed();
    sdkOnClose?.();
  };
  transport.onrelated = (message, id) => relay.related(message, id);
  transport.onanswer = (message) => direct.take(message);
}
