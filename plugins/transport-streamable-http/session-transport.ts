/**
 * The SDK Transport for one streamable-HTTP session, implemented straight on node:http:
 * no web Request/Response conversion per message. It routes each outgoing message to the
 * POST exchange it belongs to, or to the session's GET stream.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { PostExchange } from './post-exchange.js';

export class HttpSessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private readonly exchanges = new Map<RequestId, PostExchange>();
  private stream: ServerResponse | undefined;
  private closed = false;
  lastActivity = Date.now();

  constructor(readonly sessionId: string) {}

  async start(): Promise<void> {}

  /** Feeds one POST's messages in; `requestIds` are the ids the POST awaits answers for. */
  receive(messages: readonly JSONRPCMessage[], batch: boolean, res: ServerResponse, headers: IncomingHttpHeaders): void {
    this.lastActivity = Date.now();
    const ids: RequestId[] = [];
    for (const m of messages) if ('method' in m && 'id' in m) ids.push(m.id);
    if (ids.length === 0) {
      res.writeHead(202, { 'mcp-session-id': this.sessionId });
      res.end();
    } else {
      const exchange = new PostExchange(res, ids, batch, { 'mcp-session-id': this.sessionId }, () => {
        for (const id of ids) if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
      });
      for (const id of ids) this.exchanges.set(id, exchange);
    }
    const extra: MessageExtraInfo = { requestInfo: { headers } };
    for (const m of messages) this.onmessage?.(m, extra);
  }

  /** The GET stream for messages not tied to a request (list_changed and the like). */
  openStream(res: ServerResponse): boolean {
    if (this.stream && !this.stream.writableEnded) return false;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'mcp-session-id': this.sessionId });
    res.flushHeaders();
    this.stream = res;
    res.once('close', () => {
      if (this.stream === res) this.stream = undefined;
    });
    return true;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) return;
    const isResponse = 'result' in message || 'error' in message;
    const id = isResponse ? (message as { id: RequestId }).id : options?.relatedRequestId;
    const exchange = id === undefined ? undefined : this.exchanges.get(id);
    if (exchange) {
      if (isResponse) exchange.respond(message);
      else exchange.notify(message);
      return;
    }
    // Unrelated (or its POST is gone): the GET stream carries it when there is one.
    if (!isResponse && this.stream && !this.stream.writableEnded) {
      this.stream.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stream?.end();
    this.stream = undefined;
    this.onclose?.();
  }
}
