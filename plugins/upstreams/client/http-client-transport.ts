/**
 * An MCP client transport for streamable HTTP on node:http with a keep-alive agent.
 * The SDK's goes through fetch and web streams, which costs more CPU per call than the
 * whole rest of a forwarded call; this one parses a JSON answer straight from the socket
 * and an SSE answer incrementally. Session id and protocol version are carried as the
 * transport specification says. Streams are taken up again when they end early: a request's
 * answer (answer-streams.ts) and the session's notification stream (notification-stream.ts).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import type { Transport, TransportSendOptions } from '#mcp-sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '#mcp-sdk/types.js';
import { mcpNameSource, MODERN_PROTOCOL_VERSIONS } from '../../../kernel/index.js';
import { deliver } from './deliver.js';
import { AnswerStreams } from './answer-streams.js';
import { Exchange, HttpStatusError, readAll, type RequestHow } from './http-answer.js';
import { NotificationStream } from './notification-stream.js';
import { headerValue } from './param-headers.js';

/**
 * Where a signed-in connection gets its bearer token, per request: the current one, or
 * (`renew`) a fresh one after the server refused it. undefined: there is none to send.
 */
export type BearerSource = (renew: boolean) => Promise<string | undefined>;

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
  private readonly secure: boolean;
  private readonly agent: HttpAgent;
  /**
   * Where every request goes, as node:http options, worked out once: handed the URL itself,
   * node:http converts it to these again on every request (a call's largest single allocation here).
   */
  private readonly target: RequestOptions;

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string>,
    private readonly maxMessageBytes: number = Number.POSITIVE_INFINITY,
    private readonly bearer?: BearerSource,
    /**
     * Pins where sockets connect (the outbound policy's checked address). Such a transport
     * keeps its own sockets: a shared pool would hand it one opened for the same host:port
     * by a connection that was not checked.
     */
    private readonly lookup?: LookupFunction,
  ) {
    this.secure = url.protocol === 'https:';
    const Agent = this.secure ? HttpsAgent : HttpAgent;
    this.agent = lookup ? new Agent({ keepAlive: true, maxSockets: 256, lookup }) : this.secure ? httpsAgent : httpAgent;
    this.target = { ...urlToHttpOptions(url), agent: this.agent, ...(lookup ? { lookup } : {}) };
    this.answers = new AnswerStreams({
      get: (extra, how) => this.get(extra, how),
      message: (m) => deliver(this.onmessage, m),
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

  private requestHeaders(extra: Record<string, string>): Record<string, string> {
    const h: Record<string, string> = { ...this.headers, ...extra };
    if (this.sessionId) h['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion) h['mcp-protocol-version'] = this.protocolVersion;
    return h;
  }

  private request(method: string, headers: Record<string, string>, body?: string, how: RequestHow = {}): Promise<IncomingMessage> {
    return this.bearer ? this.withBearer(this.bearer, method, headers, body, how) : this.plain(method, headers, body, how);
  }

  /**
   * A signed-in connection's request carries its bearer token; when the server answers 401
   * the token is renewed once (refreshed at its authorization server) and the request sent
   * again, so an expired or rotated token costs the call nothing.
   */
  private async withBearer(
    bearer: BearerSource,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    how: RequestHow,
  ): Promise<IncomingMessage> {
    const token = await bearer(false);
    const first = await this.plain(method, token ? { ...headers, authorization: `Bearer ${token}` } : headers, body, how);
    if (first.statusCode !== 401) return first;
    const renewed = await bearer(true);
    if (!renewed || renewed === token) return first;
    first.resume();
    return this.plain(method, { ...headers, authorization: `Bearer ${renewed}` }, body, how);
  }

  /**
   * `signal`: aborting it gives the request up until its answer begins (a cancelled 2026-07-28
   * request); the answer's stream is then the sender's to end (`endsWith`), quietly.
   * `answerWithinMs`: no answer begun by then gives the request up (a stream opened again, whose
   * path may be as dead as the stream it replaces).
   *
   * A request reset on a kept-alive socket before any answer is sent once more, on a socket of
   * its own: the server closed that idle socket as the request went out (the keep-alive race;
   * a loaded machine fires the agent's own close late), and the request never reached it.
   * Without this, the call failed and the whole connection was taken for lost (docs/decisions.md,
   * "A request reset on a kept-alive socket").
   */
  private plain(method: string, headers: Record<string, string>, body: string | undefined, how: RequestHow): Promise<IncomingMessage> {
    const { signal, exchange, ownSocket = false, answerWithinMs } = how;
    return new Promise((resolve, reject) => {
      if (exchange?.givenUp) return reject(new Error('given up by its sender'));
      // node:http never follows a redirect: a 3xx is an HttpStatusError, so no answer can send us elsewhere.
      // The options made once, with this request's method and headers.
      // On a socket of its own (agent: false), not another of the pool's idle ones.
      const options: RequestOptions = ownSocket ? { ...this.target, agent: false, method, headers } : { ...this.target, method, headers };
      const req = (this.secure ? httpsRequest : httpRequest)(options, (res) => {
        signal?.removeEventListener('abort', giveUp);
        clearTimeout(deadline);
        resolve(res);
      });
      if (exchange) exchange.request = req;
      const giveUp = () => void req.destroy(new Error('cancelled by its caller'));
      if (signal?.aborted) giveUp();
      else signal?.addEventListener('abort', giveUp, { once: true });
      const deadline =
        answerWithinMs === undefined
          ? undefined
          : setTimeout(() => void req.destroy(new Error(`no answer began within ${answerWithinMs} ms`)), answerWithinMs).unref();
      req.once('error', (err: NodeJS.ErrnoException) => {
        signal?.removeEventListener('abort', giveUp);
        clearTimeout(deadline);
        if (!ownSocket && req.reusedSocket && err.code === 'ECONNRESET' && !signal?.aborted && !exchange?.givenUp)
          resolve(this.plain(method, headers, body, { ...how, ownSocket: true }));
        else reject(err);
      });
      req.end(body);
    });
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
      streaming = await this.post(message, options, exchange, answered);
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

  /**
   * Sends `message` as a POST and takes its answer; true when that answer goes on as an event
   * stream (`answered` is called when it ends).
   */
  private async post(
    message: JSONRPCMessage,
    options: StreamSendOptions | undefined,
    exchange: Exchange | undefined,
    answered: (() => void) | undefined,
  ): Promise<boolean> {
    const cancel = options?.requestSignal;
    const body = JSON.stringify(message);
    let res: IncomingMessage;
    try {
      const headers = this.requestHeaders({
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': String(Buffer.byteLength(body)),
      });
      if (this.modern && 'method' in message) {
        modernHeaders(headers, message.method, message.params);
        // SEP-2243's Mcp-Param-* headers of a tools/call (modern-upstream.ts makes them).
        if (options?.headers) Object.assign(headers, options.headers);
      }
      res = await this.request('POST', headers, body, { signal: cancel, exchange });
    } catch (err) {
      // Given up by its caller (cancelled): the server is not gone, and the caller expects no answer.
      if (cancel?.aborted || exchange?.givenUp) return false;
      // The server is gone (refused, reset): the connection is over; the owner reconnects.
      // Said with the address (no query: it may hold a key) and the socket's own words.
      const unreachable = new Error(`cannot reach ${this.where()}: ${(err as Error).message}`, { cause: err });
      this.lost(unreachable, false);
      throw unreachable;
    }
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
    if (!text) return false;
    const parsed = JSON.parse(text) as JSONRPCMessage | JSONRPCMessage[];
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) deliver(this.onmessage, m);
    return false;
  }

  /** A GET of the endpoint for an event stream: the notification stream, or an answer resumed. */
  private get(extra: Record<string, string>, how: RequestHow): Promise<IncomingMessage> {
    return this.request('GET', this.requestHeaders({ accept: 'text/event-stream', ...extra }), undefined, how);
  }

  private notificationStream(): NotificationStream {
    this.notifications = new NotificationStream({
      get: (extra, how) => this.get(extra, how),
      message: (m) => deliver(this.onmessage, m),
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
    // Named as node:http names a request's pool: by its hostname (the options' `host` is unset).
    const name = this.agent.getName({ ...this.target, host: this.target.hostname ?? null });
    for (const socket of this.agent.freeSockets[name] ?? []) socket.destroy();
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
        this.request('DELETE', this.requestHeaders({})).then(
          (r) => r.resume(),
          () => undefined,
        ),
        new Promise((r) => setTimeout(r, 1000).unref()),
      ]);
    }
    if (this.lookup) this.agent.destroy();
    this.onclose?.();
  }
}

/** A response stream its request's signal ends; `ended` hears when it ended any other way. */
function endsWith(res: IncomingMessage, signal: AbortSignal | undefined, ended: (() => void) | undefined): void {
  const abort = () => void res.destroy();
  if (signal?.aborted) return abort();
  signal?.addEventListener('abort', abort, { once: true });
  res.once('close', () => {
    signal?.removeEventListener('abort', abort);
    if (!signal?.aborted) ended?.();
  });
}

/** `Mcp-Method`, and `Mcp-Name` for the methods that name something, Base64-sentinel encoded when not plain ASCII. */
function modernHeaders(headers: Record<string, string>, method: string, params: unknown): void {
  headers['mcp-method'] = method;
  const name = mcpNameSource(method, params)?.value;
  if (typeof name !== 'string') return;
  headers['mcp-name'] = headerValue(name);
}
