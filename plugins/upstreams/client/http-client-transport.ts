/**
 * An MCP client transport for streamable HTTP on node:http with a keep-alive agent.
 * The SDK's goes through fetch and web streams, which costs more CPU per call than the
 * whole rest of a forwarded call; this one parses a JSON answer straight from the socket
 * and an SSE answer incrementally. Session id and protocol version are carried as the
 * transport specification says; the GET stream carries server-initiated notifications.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import type { Transport, TransportSendOptions } from '#mcp-sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '#mcp-sdk/types.js';
import { mcpNameSource, MODERN_PROTOCOL_VERSIONS, TooLargeError } from '../../../kernel/index.js';
import { deliver } from './deliver.js';
import { EventStreamReading, type StreamEnd } from './event-stream.js';
import { headerValue } from './param-headers.js';

export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly wwwAuthenticate: string | undefined,
  ) {
    super(`HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ''}`);
  }
}

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

/** How a request goes out: given up when `signal` aborts; on a socket of its own; failed when no answer begins in time. */
interface RequestOptionsOf {
  signal?: AbortSignal | undefined;
  ownSocket?: boolean;
  answerWithinMs?: number;
}

/** A stream opened again (the notification stream, or a request's answer resumed) must begin answering within this. */
const REOPEN_ANSWER_MS = 10_000;
/** A request's answer is resumed at most this many times in a row without an event coming through. */
const MAX_ANSWER_RESUMES = 5;

/**
 * The wait before a stream is opened again: the server's `retry` if it sent one (bounded: a
 * hostile 0 must not become a storm, nor an hour a stream never reopened), else a backoff.
 */
function reopenDelay(retryMs: number | undefined, failures: number): number {
  if (retryMs !== undefined) return Math.min(Math.max(retryMs, 250), 60_000);
  return Math.min(1_000 * 2 ** Math.min(failures, 5), 30_000);
}

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
  /** The notification stream (GET), while open. */
  private stream: EventStreamReading | undefined;
  /** Where the notification stream resumes: the last event id it carried, across reopenings. */
  private streamFrom: string | undefined;
  /** The keep-alive rhythm the last notification stream showed, which the next one is judged by (event-stream.ts). */
  private streamRhythmMs: number | undefined;
  /** Reopenings of the notification stream that failed in a row. */
  private streamFailures = 0;
  private reopenTimer: NodeJS.Timeout | undefined;
  /** Our requests whose answer comes as a stream not yet ended with it (a 2025-11-25 server's): resumed if it ends early. */
  private readonly answering = new Set<RequestId>();
  /** The server's reconnection time (`retry:`), kept across streams as an event source keeps it. */
  private retryMs: number | undefined;
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

  private request(method: string, headers: Record<string, string>, body?: string, how: RequestOptionsOf = {}): Promise<IncomingMessage> {
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
    how: RequestOptionsOf,
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
  private plain(method: string, headers: Record<string, string>, body: string | undefined, how: RequestOptionsOf): Promise<IncomingMessage> {
    const { signal, ownSocket = false, answerWithinMs } = how;
    return new Promise((resolve, reject) => {
      // node:http never follows a redirect: a 3xx is an HttpStatusError, so no answer can send us elsewhere.
      // The options made once, with this request's method and headers.
      // On a socket of its own (agent: false), not another of the pool's idle ones.
      const options: RequestOptions = ownSocket ? { ...this.target, agent: false, method, headers } : { ...this.target, method, headers };
      const req = (this.secure ? httpsRequest : httpRequest)(options, (res) => {
        signal?.removeEventListener('abort', giveUp);
        clearTimeout(deadline);
        resolve(res);
      });
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
        if (!ownSocket && req.reusedSocket && err.code === 'ECONNRESET' && !signal?.aborted)
          resolve(this.plain(method, headers, body, { ...how, ownSocket: true }));
        else reject(err);
      });
      req.end(body);
    });
  }

  async send(message: JSONRPCMessage, options?: StreamSendOptions): Promise<void> {
    if (this.closed) throw new Error('Not connected');
    // A cancelled request's stream may end without its answer: it is not resumed.
    if (this.answering.size > 0 && 'method' in message && message.method === 'notifications/cancelled')
      this.answering.delete(message.params?.requestId as RequestId);
    const body = JSON.stringify(message);
    const cancel = options?.requestSignal;
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
      res = await this.request('POST', headers, body, { signal: cancel });
    } catch (err) {
      // Given up by its caller (cancelled): the server is not gone, and the caller expects no answer.
      if (cancel?.aborted) return;
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
        setImmediate(() => void this.openStream());
      }
    }
    const status = res.statusCode ?? 0;
    if (status === 202) {
      res.resume();
      return;
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
      this.readAnswer(res, 'method' in message && 'id' in message ? message.id : undefined, undefined);
      if (options?.requestSignal || options?.onRequestStreamEnd) endsWith(res, options.requestSignal, options.onRequestStreamEnd);
      return;
    }
    // The answer to this POST is this request's result: too large fails this call only.
    let text: string;
    try {
      if (cancel) endsWith(res, cancel, undefined);
      text = await readAll(res, this.maxMessageBytes);
    } catch (err) {
      if (cancel?.aborted) return;
      throw err;
    }
    if (!text) return;
    const parsed = JSON.parse(text) as JSONRPCMessage | JSONRPCMessage[];
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) deliver(this.onmessage, m);
  }

  /**
   * A POST's answer as a stream. `id`: our request it answers; what arrives before the answer
   * belongs to that call (onrelated). From a 2025-11-25 server, a stream that ends before the
   * answer is resumed over GET from its last event id (SEP-1699: a server may end it on purpose
   * and let the client poll); one with no id to resume from fails its call now, not at its timeout.
   */
  private readAnswer(res: IncomingMessage, id: RequestId | undefined, from: string | undefined): void {
    const resumable = id !== undefined && !this.modern;
    if (resumable) this.answering.add(id);
    const reading: EventStreamReading = new EventStreamReading(
      res,
      {
        message: (m) => {
          if (id !== undefined) {
            if (!('result' in m || 'error' in m)) this.onrelated?.(m, id);
            else if (m.id === id) this.answering.delete(id);
          }
          deliver(this.onmessage, m);
        },
        malformed: (err) => {
          if (err instanceof TooLargeError && resumable) this.failAnswer(id, err.message);
          else this.onerror?.(err);
        },
        end: (how) => {
          if (!resumable || !this.answering.has(id) || this.closed) return;
          this.keepRetry(reading);
          const resumeFrom = reading.lastEventId ?? from;
          if (resumeFrom === undefined)
            return this.failAnswer(id, 'the server ended the stream of its answer before answering, with no event id to resume it from');
          setTimeout(() => void this.resumeAnswer(id, resumeFrom, how, 0), reopenDelay(this.retryMs, 0)).unref();
        },
      },
      this.maxMessageBytes,
    );
  }

  /** Opens a request's answer again from event `from`; `failures`: attempts that found no stream, in a row. */
  private async resumeAnswer(id: RequestId, from: string, how: StreamEnd, failures: number): Promise<void> {
    if (this.closed || !this.answering.has(id)) return;
    const headers = this.requestHeaders({ accept: 'text/event-stream', 'last-event-id': from });
    let res: IncomingMessage;
    try {
      res = await this.request('GET', headers, undefined, { ownSocket: how === 'silent', answerWithinMs: REOPEN_ANSWER_MS });
    } catch (err) {
      if (failures + 1 >= MAX_ANSWER_RESUMES)
        return this.failAnswer(id, `could not resume the stream of its answer (${MAX_ANSWER_RESUMES} attempts): ${(err as Error).message}`);
      setTimeout(() => void this.resumeAnswer(id, from, 'failed', failures + 1), reopenDelay(undefined, failures)).unref();
      return;
    }
    const status = res.statusCode ?? 0;
    if (this.isClosed() || status !== 200 || !isEventStream(res)) {
      const text = await readAll(res, 4096).catch(() => '');
      if (this.isClosed()) return;
      const error = new HttpStatusError(status, text, res.headers['www-authenticate']);
      if (status === 404) return this.lost(error, false);
      return this.failAnswer(id, `could not resume the stream of its answer: ${error.message}`);
    }
    this.readAnswer(res, id, from);
  }

  /** The call waiting on `id` fails with `reason`, as an error answer from the connection. */
  private failAnswer(id: RequestId, reason: string): void {
    this.answering.delete(id);
    deliver(this.onmessage, { jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message: reason } });
  }

  private keepRetry(reading: EventStreamReading): void {
    if (reading.retryMs !== undefined) this.retryMs = reading.retryMs;
  }

  /**
   * The notification stream (GET), opened after initialize and again whenever it ends (`after`:
   * how the last one ended): after the server's `retry` or a backoff, resumed from its last event
   * id. Opened again without one, it may have missed notifications: `onresync` reads the lists
   * again. A server without the stream (405) sends no unsolicited notifications; one that no
   * longer knows the session (404) or still holds a stream of it we lost (409) gets a new session.
   */
  private async openStream(after?: StreamEnd): Promise<void> {
    if (this.closed || this.stream) return;
    const from = this.streamFrom;
    const headers = this.requestHeaders({ accept: 'text/event-stream' });
    if (from !== undefined) headers['last-event-id'] = from;
    let res: IncomingMessage;
    try {
      res = await this.request('GET', headers, undefined, after ? { ownSocket: after === 'silent', answerWithinMs: REOPEN_ANSWER_MS } : {});
    } catch (err) {
      if (this.streamFailures++ === 0)
        this.onerror?.(new Error(`could not open the notification stream of ${this.where()}: ${(err as Error).message}; trying again`));
      return this.reopenStream('failed');
    }
    const status = res.statusCode ?? 0;
    if (this.isClosed() || status !== 200 || !isEventStream(res)) {
      const text = await readAll(res, 4096).catch(() => '');
      if (this.isClosed() || status === 405 || (after === undefined && status < 500)) return;
      const error = new HttpStatusError(status, text, res.headers['www-authenticate']);
      if (status === 404) return this.lost(error, false);
      if (status === 409)
        return this.lost(new Error(`the server still holds an earlier notification stream of this session (${error.message}); starting a new session`), false);
      // Refused with an event id to resume from: the server may not know it (any more); the
      // next try opens the stream fresh, and the lists are read again.
      if (from !== undefined) this.streamFrom = undefined;
      if (this.streamFailures++ === 0) this.onerror?.(new Error(`could not open the notification stream of ${this.where()}: ${error.message}; trying again`));
      return this.reopenStream('failed');
    }
    this.streamFailures = 0;
    const reading: EventStreamReading = new EventStreamReading(
      res,
      { message: (m) => deliver(this.onmessage, m), malformed: (err) => this.onerror?.(err), end: (how) => this.streamEnded(reading, how) },
      this.maxMessageBytes,
      this.streamRhythmMs,
    );
    this.stream = reading;
    if (after !== undefined && from === undefined) this.onresync?.();
  }

  private streamEnded(reading: EventStreamReading, how: StreamEnd): void {
    if (this.stream === reading) this.stream = undefined;
    // Resumed, an event past the limit would come again: opened past it instead (and the lists read again).
    this.streamFrom = how === 'too-large' ? undefined : (reading.lastEventId ?? this.streamFrom);
    this.streamRhythmMs = reading.rhythmMs;
    this.keepRetry(reading);
    if (this.closed) return;
    if (how === 'silent') {
      // The path that stranded this stream may have stranded the pool's idle sockets with it.
      this.dropIdleSockets();
      this.onerror?.(new Error(`the notification stream of ${this.where()} went silent past its keep-alives; opening it again`));
    }
    this.reopenStream(how);
  }

  private reopenStream(after: StreamEnd): void {
    clearTimeout(this.reopenTimer);
    const delay = after === 'silent' ? 0 : reopenDelay(this.retryMs, this.streamFailures);
    this.reopenTimer = setTimeout(() => void this.openStream(after), delay).unref();
  }

  private dropIdleSockets(): void {
    // Named as node:http names a request's pool: by its hostname (the options' `host` is unset).
    const name = this.agent.getName({ ...this.target, host: this.target.hostname ?? null });
    for (const socket of this.agent.freeSockets[name] ?? []) socket.destroy();
  }

  /** Read after an await: close() may have run meanwhile, whatever TypeScript's narrowing of `closed` says. */
  private isClosed(): boolean {
    return this.closed;
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
    clearTimeout(this.reopenTimer);
    this.stream?.close();
    this.stream = undefined;
    this.answering.clear();
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

function isEventStream(res: IncomingMessage): boolean {
  return (res.headers['content-type'] ?? '').includes('text/event-stream');
}

function readAll(res: IncomingMessage, limit = Number.POSITIVE_INFINITY): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        res.destroy();
        reject(new TooLargeError("The server's answer", size, limit));
        return;
      }
      chunks.push(c);
    });
    res.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    res.once('error', reject);
    // After 'end' this changes nothing; before it, the answer was cut (destroyed, the request given up).
    res.once('close', () => reject(new Error('the answer ended before it was complete')));
  });
}
