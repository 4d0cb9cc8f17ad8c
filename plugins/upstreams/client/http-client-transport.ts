/**
 * An MCP client transport for streamable HTTP on node:http with a keep-alive agent.
 * The SDK's goes through fetch and web streams, which costs more CPU per call than the
 * whole rest of a forwarded call; this one parses a JSON answer straight from the socket
 * and an SSE answer incrementally. Session id and protocol version are carried as the
 * transport specification says. Streams are taken up again when they end early: a request's
 * answer (answer-streams.ts) and the session's notification stream (notification-stream.ts).
 */
import { Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import type { Transport, TransportSendOptions } from '#mcp-sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '#mcp-sdk/types.js';
import { MODERN_PROTOCOL_VERSIONS } from '../../../kernel/index.js';
import { deliver } from './deliver.js';
import { AnswerStreams } from './answer-streams.js';
import { Exchange, HttpStatusError, isQuickAnswer, rawHeader, readAll, readBody, type HttpAnswer, type RequestHow } from './http-answer.js';
import { NotificationStream } from './notification-stream.js';
import { appendHeaders, ConnectionHeaders, modernHeaders, serverNameOf, type HeaderList } from './request-headers.js';
import { QuickPoster } from './quick-post.js';
import { RequestSender, type BearerSource } from './request-sender.js';

export type { BearerSource } from './request-sender.js';

/**
 * What the v2 SDK client (2026-07-28 upstreams) adds to a send: a signal that ends this POST's
 * response stream (how a subscriptions/listen is closed, and in 2026-07-28 how a request is
 * cancelled), a callback for when that stream ended otherwise (the server ended it), and
 * headers of this request's own (a tools/call's SEP-2243 `Mcp-Param-*`).
 */
export type StreamSendOptions = TransportSendOptions & {
  requestSignal?: AbortSignal;
  onRequestStreamEnd?: () => void;
  headers?: Readonly<Record<string, string>>;
};

const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });

export class StreamableHttpClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** See client-relay.ts: which of our requests' streams carried a message. */
  onrelated?: (message: JSONRPCMessage, relatedRequestId: RequestId) => void;
  /** See client-relay.ts: an answer taken as it is read. */
  onanswer?: (message: JSONRPCMessage) => boolean;
  /**
   * The notification stream was down and came back without resuming (the server gave no event
   * ids, or no longer knew them): notifications may have been missed, so the lists are read again.
   */
  onresync?: () => void;
  sessionId?: string;
  private protocolVersion: string | undefined;
  /** Set for a 2026-07-28 server (era-probe.ts): each POST says its method and name in headers. */
  private modern = false;
  /** The notification stream (GET) of a session, once initialized. */
  private notifications: NotificationStream | undefined;
  /** Requests answered as a stream (answer-streams.ts). */
  private readonly answers: AnswerStreams;
  /**
   * Our requests not yet answered, by id, each with what gives its POST up. A request given up
   * (its `notifications/cancelled` sent: the call timed out or its caller cancelled it) ends its
   * POST: the server may never answer (a hung tool), or, as the SDK's server does, drop the
   * answer and leave its stream open; either way the socket was held for good, and with 256 so
   * held (the pool's cap) every request to that server waited behind them.
   */
  private readonly unanswered = new Map<RequestId, Exchange>();
  private closed = false;
  private readonly agent: HttpAgent;
  /** How each request goes out: headers, token, the retry of a reset socket (request-sender.ts). */
  private readonly sender: RequestSender;
  /**
   * The hot path's POST on undici (quick-post.ts); none when the connection signs in (its
   * token renewal lives in the sender) or its URL carries a user and password.
   */
  private readonly quick: QuickPoster | undefined;
  /** The agent's name for this server's sockets. */
  private readonly poolName: string;

  constructor(
    private readonly url: URL,
    headers: Record<string, string>,
    private readonly maxMessageBytes: number = Number.POSITIVE_INFINITY,
    bearer?: BearerSource,
    /**
     * Pins where sockets connect (the outbound policy's checked address). Such a transport
     * keeps its own sockets: a shared pool would hand it one opened for the same host:port
     * by a connection that was not checked.
     */
    private readonly lookup?: LookupFunction,
  ) {
    const secure = url.protocol === 'https:';
    const Agent = secure ? HttpsAgent : HttpAgent;
    this.agent = lookup ? new Agent({ keepAlive: true, maxSockets: 256, lookup }) : secure ? httpsAgent : httpAgent;
    // Where every request goes, as node:http options made once: handed the URL itself, node:http
    // converts it again on every request, and each option more is copied twice per request.
    const { hostname, port, path, auth } = urlToHttpOptions(url);
    const fixed = new ConnectionHeaders(headers, url.host);
    const virtualHost = secure ? fixed.virtualHost : undefined;
    const target = {
      host: hostname,
      port,
      path,
      agent: this.agent,
      ...(auth ? { auth } : {}),
      ...(lookup ? { lookup } : {}),
      ...(virtualHost ? { servername: serverNameOf(virtualHost) } : {}),
    };
    this.sender = new RequestSender(target, secure, fixed, bearer);
    this.quick =
      bearer || auth
        ? undefined
        : new QuickPoster({ origin: url.origin, path: path ?? '/', lookup, servername: target.servername, maxAnswerBytes: maxMessageBytes });
    // Named as node:http names a request's pool: by the options' host and port.
    this.poolName = this.agent.getName(target);
    this.answers = new AnswerStreams({
      get: (extra, how) => this.get(extra, how),
      message: (m) => deliver(this.onmessage, m, this.onanswer),
      related: (m, id) => this.onrelated?.(m, id),
      error: (err) => this.onerror?.(err),
      lost: (err) => this.lost(err, false),
      maxEventChars: maxMessageBytes,
    });
  }

  async start(): Promise<void> {}

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /**
   * Speaks 2026-07-28 (on) or the legacy era (off) from the next request: the version the
   * modern era names, and `Mcp-Method` / `Mcp-Name` on every POST (the server checks them
   * against the body). Off forgets the version, so initialize goes out as it always did.
   */
  speakModern(on: boolean): void {
    this.modern = on;
    this.protocolVersion = on ? MODERN_PROTOCOL_VERSIONS[0] : undefined;
  }

  /**
   * Read by the v2 client on each request: true, it cancels a 2026-07-28 request by aborting its
   * `requestSignal` (this POST is then given up), the way that revision cancels over HTTP; a
   * stateless server cannot tie a `notifications/cancelled` on another POST to the request.
   */
  get hasPerRequestStream(): boolean {
    return this.modern;
  }

  /** `own` with the session's headers added. */
  private requestHeaders(own: HeaderList): HeaderList {
    if (this.sessionId) own.push('mcp-session-id', this.sessionId);
    if (this.protocolVersion) own.push('mcp-protocol-version', this.protocolVersion);
    return own;
  }

  async send(message: JSONRPCMessage, options?: StreamSendOptions): Promise<void> {
    if (this.closed) throw new Error('Not connected');
    let exchange: Exchange | undefined;
    let answered: (() => void) | undefined;
    if ('method' in message) {
      if (message.method === 'notifications/cancelled') {
        this.givenUp(message.params?.requestId as RequestId);
        // 2026-07-28 over HTTP: a request is cancelled by ending its POST, just done; a stateless
        // server could not tie a notification on another POST to it, so none is sent.
        if (this.modern) return;
      }
      // A 2026-07-28 request of the v2 client comes with its own signal (it cancels by aborting it).
      else if (options?.requestSignal === undefined && 'id' in message) {
        const id = message.id;
        const ours = (exchange = new Exchange());
        this.unanswered.set(id, ours);
        answered = () => void (this.unanswered.get(id) === ours && this.unanswered.delete(id));
      }
    }
    let streaming = false;
    try {
      const body = JSON.stringify(message);
      const headers = this.postHeaders(message, body, options);
      // A request that awaits one answer and has no token to fetch first (every direct
      // tools/call without sign-in): taken the quick way.
      streaming =
        exchange && !this.sender.bearer && options?.onRequestStreamEnd === undefined
          ? await this.postQuick(message, body, headers, exchange, answered)
          : await this.post(message, body, headers, options, exchange, answered);
    } finally {
      // An answer still coming on an event stream is done when that stream ends.
      if (!streaming) answered?.();
    }
  }

  /** Our request `id` was given up: its answer is neither awaited nor resumed, and its exchange ends. */
  private givenUp(id: RequestId): void {
    this.answers.cancelled(id);
    this.unanswered.get(id)?.giveUp();
    this.unanswered.delete(id);
  }

  private postHeaders(message: JSONRPCMessage, body: string, options: StreamSendOptions | undefined): HeaderList {
    const headers = this.requestHeaders([
      'content-type',
      'application/json',
      'accept',
      'application/json, text/event-stream',
      'content-length',
      String(Buffer.byteLength(body)),
    ]);
    if (this.modern && 'method' in message) {
      modernHeaders(headers, message.method, message.params);
      // SEP-2243's Mcp-Param-* headers of a tools/call (modern-upstream.ts makes them).
      if (options?.headers) appendHeaders(headers, options.headers);
    }
    return headers;
  }

  /**
   * Sends `message` as a POST and takes its answer; true when that answer goes on as an event
   * stream (`answered` is called when it ends).
   */
  private async post(
    message: JSONRPCMessage,
    body: string,
    headers: HeaderList,
    options: StreamSendOptions | undefined,
    exchange: Exchange | undefined,
    answered: (() => void) | undefined,
  ): Promise<boolean> {
    const cancel = options?.requestSignal;
    let res: HttpAnswer;
    try {
      res = await this.sender.request('POST', headers, body, { signal: cancel, exchange });
    } catch (err) {
      // Given up by its caller (cancelled): the server is not gone, and the caller expects no answer.
      if (cancel?.aborted || exchange?.givenUp) return false;
      throw this.unreachable(err as Error);
    }
    return this.answer(res, message, options, exchange, answered);
  }

  /**
   * The hot path of a request awaiting one answer: a JSON answer of a success status, in the
   * session the connection already has, is read and delivered from the HTTP client's own
   * callbacks, with no promise between the socket and the receiver (the general way's awaits
   * cost about 0.01 ms of CPU a forwarded call: bench/README.md, "The upstream leg"). It goes
   * on undici (quick-post.ts) unless the URL carries a user and password. Any other answer (an
   * event stream, a failure, a new session) goes the general way.
   */
  private postQuick(message: JSONRPCMessage, body: string, headers: HeaderList, exchange: Exchange, answered: (() => void) | undefined): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const failed = (err: Error) => (exchange.givenUp ? resolve(false) : reject(this.unreachable(err)));
      const general = (res: HttpAnswer) => void this.answer(res, message, undefined, exchange, answered).then(resolve, reject);
      const json = (text: string) => {
        try {
          this.deliverText(text);
          resolve(false);
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      };
      if (this.quick) {
        this.quick.post(this.sender.headersOf(headers), body, exchange, this.sessionId, (outcome) => {
          if (outcome.kind === 'json') return json(outcome.text);
          if (outcome.kind === 'other') return general(outcome.res);
          if (outcome.kind === 'too-large') return exchange.givenUp ? resolve(false) : reject(outcome.err);
          // Reset on a kept-alive socket before any answer: sent once more, on a socket of its own.
          if (outcome.reset && !exchange.givenUp) return this.sender.open('POST', headers, body, { exchange, ownSocket: true }, general, failed);
          failed(outcome.err);
        });
        return;
      }
      const taken = (res: HttpAnswer) => {
        if (!isQuickAnswer(res.statusCode ?? 0, rawHeader(res, 'mcp-session-id'), this.sessionId, rawHeader(res, 'content-type'))) return general(res);
        readBody(res, this.maxMessageBytes, json, (err) => (exchange.givenUp ? resolve(false) : reject(err)));
      };
      this.sender.open('POST', headers, body, { exchange }, taken, failed);
    });
  }

  /** The server is gone (refused, reset): the connection is over, and the owner reconnects. */
  private unreachable(err: Error): Error {
    // Said with the address (no query: it may hold a key) and the socket's own words.
    const unreachable = new Error(`cannot reach ${this.where()}: ${err.message}`, { cause: err });
    this.lost(unreachable, false);
    return unreachable;
  }

  /** What the answer to a POST says; true when it goes on as an event stream (see post). */
  private async answer(
    res: HttpAnswer,
    message: JSONRPCMessage,
    options: StreamSendOptions | undefined,
    exchange: Exchange | undefined,
    answered: (() => void) | undefined,
  ): Promise<boolean> {
    const cancel = options?.requestSignal;
    const sid = res.headers['mcp-session-id'];
    if (typeof sid === 'string' && sid) {
      const first = this.sessionId === undefined;
      this.sessionId = sid;
      if (first && 'method' in message && message.method === 'initialize') {
        // Open the notification stream once initialized; its absence (405) is allowed.
        const notifications = this.notificationStream();
        setImmediate(() => void notifications.open());
      }
    }
    const status = res.statusCode ?? 0;
    if (status === 202) {
      res.resume();
      return false;
    }
    if (status < 200 || status >= 300) {
      const text = await readAll(res);
      const error = new HttpStatusError(status, text, res.headers['www-authenticate']);
      // 404 is the specification's "session expired"; servers restarted without our session
      // often answer 400 instead. Either way this session is over and a new one is needed.
      if (this.sessionId && (status === 404 || (status === 400 && /session/i.test(text)))) this.lost(error, false);
      throw error;
    }
    const type = res.headers['content-type'] ?? '';
    if (type.includes('text/event-stream')) {
      this.answers.read(res, 'method' in message && 'id' in message ? message.id : undefined, !this.modern);
      const streamEnd = options?.onRequestStreamEnd;
      if (cancel || streamEnd) endsWith(res, cancel, streamEnd);
      if (answered) res.once('close', answered);
      return answered !== undefined;
    }
    // The answer to this POST is this request's result: too large fails this call only.
    let text: string;
    try {
      if (cancel) endsWith(res, cancel, undefined);
      text = await readAll(res, this.maxMessageBytes);
    } catch (err) {
      if (cancel?.aborted || exchange?.givenUp) return false;
      throw err;
    }
    this.deliverText(text);
    return false;
  }

  /** A JSON answer's message, or batch of them, to the receiver; an empty answer has none. */
  private deliverText(text: string): void {
    if (!text) return;
    const parsed = JSON.parse(text) as JSONRPCMessage | JSONRPCMessage[];
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) deliver(this.onmessage, m, this.onanswer);
  }

  /** A GET of the endpoint for an event stream: the notification stream, or an answer resumed. */
  private get(extra: Record<string, string>, how: RequestHow): Promise<IncomingMessage> {
    return this.sender.request('GET', this.requestHeaders(appendHeaders(['accept', 'text/event-stream'], extra)), undefined, how);
  }

  private notificationStream(): NotificationStream {
    this.notifications = new NotificationStream({
      get: (extra, how) => this.get(extra, how),
      message: (m) => deliver(this.onmessage, m, this.onanswer),
      error: (err) => this.onerror?.(err),
      lost: (err) => this.lost(err, false),
      resync: () => this.onresync?.(),
      dropIdleSockets: () => this.dropIdleSockets(),
      where: this.where(),
      maxEventChars: this.maxMessageBytes,
    });
    return this.notifications;
  }

  private dropIdleSockets(): void {
    for (const socket of this.agent.freeSockets[this.poolName] ?? []) socket.destroy();
    this.quick?.renew();
  }

  /** The server's address as said in messages (no query: it may hold a key). */
  private where(): string {
    return `${this.url.origin}${this.url.pathname}`;
  }

  private lost(error: Error, polite: boolean): void {
    if (this.closed) return;
    this.onerror?.(error);
    void this.shutdown(polite);
  }

  close(): Promise<void> {
    return this.shutdown(true);
  }

  private async shutdown(polite: boolean): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.notifications?.close();
    this.answers.close();
    // The session is over: no answer to a request of it is awaited any more.
    for (const exchange of this.unanswered.values()) exchange.giveUp();
    this.unanswered.clear();
    if (polite && this.sessionId) {
      // Be polite: end the session on the server. Best effort, never blocks long.
      await Promise.race([
        this.sender.request('DELETE', this.requestHeaders([])).then(
          (r) => r.resume(),
          () => undefined,
        ),
        new Promise((r) => setTimeout(r, 1000).unref()),
      ]);
    }
    this.quick?.close();
    if (this.lookup) this.agent.destroy();
    this.onclose?.();
  }
}

/** A response stream its request's signal ends; `ended` hears when it ended any other way. */
function endsWith(res: HttpAnswer, signal: AbortSignal | undefined, ended: (() => void) | undefined): void {
  const abort = () => void res.destroy();
  if (signal?.aborted) return abort();
  signal?.addEventListener('abort', abort, { once: true });
  res.once('close', () => {
    signal?.removeEventListener('abort', abort);
    if (!signal?.aborted) ended?.();
  });
}
