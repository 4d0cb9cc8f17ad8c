/**
 * The SDK Transport for one streamable-HTTP session, implemented straight on node:http:
 * no web Request/Response conversion per message. It routes each outgoing message to the
 * POST exchange it belongs to, or to the session's GET stream. In cluster mode the stream
 * may be held by another replica: a message with neither here is relayed (cluster.ts).
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { TransportSendOptions } from '#mcp-sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCNotification, MessageExtraInfo, RequestId } from '#mcp-sdk/types.js';
import type { SharedSessionTransport } from '../../kernel/index.js';
import { batchesRefused } from './messages.js';
import { KEEP_ALIVE_COMMENT, type KeptAlive, type StreamKeepAlive } from '../../lib/http/stream-keep-alive.js';
import { PostExchange } from './post-exchange.js';

/** What leaves for an initialize in cluster mode: its answer, or a refusal that hands out no session. */
export type InitializeOutcome =
  { kind: 'answer'; message: JSONRPCMessage } | { kind: 'refuse'; status: 503; message: JSONRPCMessage; headers: Record<string, string> };

export class HttpSessionTransport implements SharedSessionTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private readonly exchanges = new Map<RequestId, PostExchange>();
  private stream: ServerResponse | undefined;
  private closed = false;
  /** Whether close() ended the session for everyone (DELETE, the admin UI, idle) rather than dropped this replica's copy. */
  ended = false;
  lastActivity = Date.now();
  /** Cluster mode: where a message goes that has no POST exchange and no GET stream here. */
  relay?: (message: JSONRPCMessage) => void;
  /** Cluster mode: where a cancellation goes whose request has no POST exchange here. */
  cancelElsewhere?: (id: string | number, reason: string | undefined) => void;
  /**
   * Cluster mode: runs before the initialize answer leaves, so another replica knows the
   * session when the client's next request reaches it; a session that cannot be recorded is
   * refused with an HTTP status and no session id (cluster.ts).
   */
  beforeInitializeAnswer?: (answer: JSONRPCMessage) => Promise<InitializeOutcome>;
  private initializeId: RequestId | undefined;
  private version: string | undefined;
  /** Why this session may not batch, worked out once its revision is known (never per POST). */
  batchesRefused: string | undefined = batchesRefused(undefined);

  constructor(
    readonly sessionId: string,
    private readonly keptAlive: StreamKeepAlive,
  ) {}

  /** The protocol revision the session negotiated (its initialize answer; a cluster record). */
  get protocolVersion(): string | undefined {
    return this.version;
  }

  set protocolVersion(version: string | undefined) {
    this.version = version;
    this.batchesRefused = batchesRefused(version);
  }

  async start(): Promise<void> {}

  /** Feeds one POST's messages in; `requestIds` are the ids the POST awaits answers for. */
  receive(messages: readonly JSONRPCMessage[], batch: boolean, res: ServerResponse, headers: IncomingHttpHeaders): void {
    this.lastActivity = Date.now();
    const ids: RequestId[] = [];
    for (const m of messages) if ('method' in m && 'id' in m) ids.push(m.id);
    if (messages.length === 1 && 'method' in messages[0]! && messages[0].method === 'initialize') this.initializeId = ids[0];
    if (ids.length === 0) {
      res.writeHead(202, { 'mcp-session-id': this.sessionId });
      res.end();
    } else {
      const exchange = new PostExchange(
        res,
        ids,
        batch,
        { 'mcp-session-id': this.sessionId },
        () => {
          for (const id of ids) if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
        },
        this.keptAlive,
      );
      for (const id of ids) this.exchanges.set(id, exchange);
    }
    const extra: MessageExtraInfo = { requestInfo: { headers } };
    for (const m of messages) {
      // The SDK drops a cancelled request's answer; its exchange must not wait for it.
      if ('method' in m && m.method === 'notifications/cancelled' && !('id' in m)) this.cancelled(m.params?.requestId, m.params?.reason);
      this.onmessage?.(m, extra);
    }
  }

  private cancelled(id: unknown, reason: unknown): void {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const exchange = this.exchanges.get(id);
    if (exchange) exchange.cancel(id);
    // Cluster mode: the request may run on another replica, whose SDK alone can cancel it.
    else this.cancelElsewhere?.(id, typeof reason === 'string' ? reason : undefined);
  }

  /**
   * Cluster mode: the client cancelled `id` through another replica. If it runs here, it is
   * cancelled as if the notification had come here (the handler aborted, the POST ended).
   */
  cancelledElsewhere(id: string | number, reason: string | undefined): void {
    const exchange = this.exchanges.get(id);
    if (!exchange || this.closed) return;
    exchange.cancel(id);
    this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, ...(reason === undefined ? {} : { reason }) } });
  }

  /** The GET stream for messages not tied to a request (list_changed and the like). */
  openStream(res: ServerResponse): boolean {
    if (this.stream && !this.stream.writableEnded) return false;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'mcp-session-id': this.sessionId });
    res.flushHeaders();
    this.stream = res;
    // A comment each interval while the client reads: a proxy's idle timeout must not cut it.
    const kept: KeptAlive = { keepAlive: () => void (res.writableNeedDrain || res.write(KEEP_ALIVE_COMMENT)) };
    this.keptAlive.add(kept);
    res.once('close', () => {
      this.keptAlive.delete(kept);
      if (this.stream === res) this.stream = undefined;
    });
    return true;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) return;
    const isResponse = 'result' in message || 'error' in message;
    const id = isResponse ? (message as { id: RequestId }).id : options?.relatedRequestId;
    const exchange = id === undefined ? undefined : this.exchanges.get(id);
    if (isResponse && this.initializeId !== undefined && id === this.initializeId) {
      this.initializeId = undefined;
      if ('result' in message) this.protocolVersion = String(message.result.protocolVersion);
      if (this.beforeInitializeAnswer) {
        const outcome = await this.beforeInitializeAnswer(message);
        if (outcome.kind === 'refuse') {
          exchange?.refuse(outcome.status, outcome.message, outcome.headers);
          return;
        }
        message = outcome.message;
      }
    }
    if (exchange) {
      if (isResponse) exchange.respond(message);
      else exchange.notify(message);
      return;
    }
    // Unrelated (or its POST is gone): the GET stream carries it when there is one; in
    // cluster mode, the replica that holds the stream does.
    if (isResponse) return;
    if (!this.writeToStream(message)) this.relay?.(message);
  }

  /** For what every replica sends by itself (endpoint.ts): the stream here, or nothing. */
  async sendHere(message: JSONRPCNotification): Promise<void> {
    if (!this.closed) this.writeToStream(message);
  }

  /** A message relayed from another replica (cluster mode): written when this replica holds the stream. */
  deliver(message: JSONRPCMessage): void {
    if (!this.closed) this.writeToStream(message);
  }

  private writeToStream(message: JSONRPCMessage): boolean {
    if (!this.stream || this.stream.writableEnded) return false;
    this.stream.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    return true;
  }

  /** Ends the session (DELETE, the admin UI, idle): in cluster mode, on every replica. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.ended = true;
    this.shut();
  }

  /** Drops this replica's copy only (cluster mode: shutdown, the session ended elsewhere, idle here). */
  drop(): void {
    if (!this.closed) this.shut();
  }

  private shut(): void {
    this.closed = true;
    for (const exchange of new Set(this.exchanges.values())) exchange.abandon(this.sessionId);
    this.stream?.end();
    this.stream = undefined;
    this.onclose?.();
  }
}
