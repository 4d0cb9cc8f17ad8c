/**
 * The hot path's POST on undici's connection pool: a request that awaits one answer and sends
 * no token (every direct tools/call without sign-in). At sixteen clients a forwarded call
 * costs Switchboard 0.06-0.12 ms less CPU this way than on node:http's ClientRequest, agent
 * and IncomingMessage (docs/decisions.md, "The hot path's POST on undici"). Everything else
 * (event streams opened by GET, bearer renewal, DELETE) stays on node:http (request-sender.ts).
 *
 * An answer that is not one JSON body of a success (an event stream, a failure status, a new
 * session) is handed on as an `HttpAnswer` stream, which the general way reads as it reads
 * node:http's IncomingMessage.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { Dispatcher, Pool } from 'undici';
import { TooLargeError } from '../../../kernel/index.js';
import { isQuickAnswer, type Exchange, type HttpAnswer } from './http-answer.js';
import type { HeaderList } from './request-headers.js';

/** undici's Pool alone (its index loads fetch, WebSocket and the rest: 0.13-0.16 s of CPU), loaded on a first quick POST. */
let poolClass: Promise<typeof Pool> | undefined;
function loadPool(): Promise<typeof Pool> {
  return (poolClass ??= import('undici/lib/dispatcher/pool.js').then((m) => m.default));
}

/**
 * What a quick POST came to: the JSON text of a success, an answer for the general way, or why
 * there is none. `reset`: the socket was reset before any answer began on a socket that may have
 * served an earlier request, so the server did not read this one (the caller sends it again on
 * a socket of its own, request-sender.ts); `too-large`: the answer passed the limit.
 */
export type QuickOutcome =
  | { kind: 'json'; text: string }
  | { kind: 'other'; res: HttpAnswer }
  | { kind: 'failed'; err: Error; reset: boolean }
  | { kind: 'too-large'; err: TooLargeError };

/** Called once, with what the POST came to. */
export type QuickDone = (outcome: QuickOutcome) => void;

export interface QuickTarget {
  /** `http://host:port` or `https://...`: the pool's origin. */
  origin: string;
  path: string;
  /** The outbound policy's checked address (remote-transport.ts): sockets connect only there. */
  lookup?: LookupFunction | undefined;
  /** The TLS server name when a configured Host names it (request-headers.ts). */
  servername?: string | undefined;
  maxAnswerBytes: number;
}

/** Errors that mean the socket was reset under the request before any answer began. */
const RESET = new Set(['ECONNRESET', 'UND_ERR_SOCKET']);

export class QuickPoster {
  private pool: Pool | Promise<Pool> | undefined;
  private closed = false;

  constructor(private readonly target: QuickTarget) {}

  /** Sends the POST and calls `done` once, with what it came to. */
  post(headers: HeaderList, body: string, exchange: Exchange, sessionId: string | undefined, done: QuickDone): void {
    const pool = this.pool;
    if (pool === undefined || pool instanceof Promise) {
      void this.opened().then(
        () => this.post(headers, body, exchange, sessionId, done),
        (err: unknown) => done({ kind: 'failed', err: err instanceof Error ? err : new Error(String(err)), reset: false }),
      );
      return;
    }
    if (exchange.givenUp) return done({ kind: 'failed', err: new Error('given up by its sender'), reset: false });
    pool.dispatch(
      { origin: this.target.origin, path: this.target.path, method: 'POST', headers, body },
      new AnswerHandler(this.target.maxAnswerBytes, exchange, sessionId, done),
    );
  }

  private opened(): Promise<Pool> {
    if (this.closed) return Promise.reject(new Error('the connection is closed'));
    if (this.pool === undefined) {
      const { origin, lookup, servername } = this.target;
      const opening: Promise<Pool> = loadPool().then((PoolClass) => {
        // As node:http's agent: up to 256 sockets, kept alive; no pipelining (a slow answer
        // would hold up the next one on its socket).
        const pool = new PoolClass(origin, {
          connections: 256,
          pipelining: 1,
          connect: { ...(lookup ? { lookup } : {}), ...(servername ? { servername } : {}) },
        });
        // Renewed or closed meanwhile, whoever did that closes this pool (renew, close).
        if (this.pool === opening) this.pool = pool;
        return pool;
      });
      this.pool = opening;
    }
    return Promise.resolve(this.pool);
  }

  /**
   * The connection's kept-alive sockets may be stranded (its notification stream was found
   * silent): the next POSTs go on a new pool, and the old one closes as its requests end.
   * Requests on it are left to their own answer or timeout, as node:http's busy sockets are.
   */
  renew(): void {
    const pool = this.pool;
    this.pool = undefined;
    if (pool instanceof Promise) void pool.then((p) => p.close()).catch(() => undefined);
    else if (pool) void pool.close().catch(() => undefined);
  }

  close(): void {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    if (pool instanceof Promise) void pool.then((p) => p.destroy()).catch(() => undefined);
    else if (pool) void pool.destroy().catch(() => undefined);
  }
}

/**
 * One quick POST's answer, read from undici's callbacks. These are the ones its core calls (its
 * newer controller API is a wrapper over them that parses every header of every answer into an
 * object first): the hot path reads two headers from the raw list and builds the rest only for
 * an answer going the general way.
 */
class AnswerHandler implements Dispatcher.DispatchHandler {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Set when the answer goes the general way: its body is pushed into this stream. */
  private stream: AnswerStream | undefined;
  private settled = false;
  private tooLarge: TooLargeError | undefined;
  private abortRequest: ((err: Error) => void) | undefined;

  constructor(
    private readonly limit: number,
    private readonly exchange: Exchange,
    private readonly sessionId: string | undefined,
    private readonly done: QuickDone,
  ) {}

  onConnect(abort: (err?: Error) => void): void {
    this.abortRequest = abort;
    this.exchange.abort = () => abort(new Error('given up by its sender'));
  }

  onHeaders(statusCode: number, raw: Buffer[], resume: () => void): boolean {
    // undici hands 1xx answers on only for an upgrade; a 202, a failure, an event stream or a
    // new session id goes the general way.
    if (!isQuickAnswer(statusCode, rawValue(raw, 'mcp-session-id'), this.sessionId, rawValue(raw, 'content-type'))) {
      const stream = (this.stream = new AnswerStream(statusCode, raw, resume, this.abortRequest));
      this.settle({ kind: 'other', res: stream });
      // Giving the request up now ends the answer being read.
      this.exchange.abort = () => void stream.destroy();
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.stream) return this.stream.pushChunk(chunk);
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.tooLarge = new TooLargeError("The server's answer", this.size, this.limit);
      this.abortRequest?.(this.tooLarge);
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.stream) {
      this.exchange.abort = undefined;
      return this.stream.finish();
    }
    const { chunks } = this;
    this.settle({ kind: 'json', text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8') });
  }

  onError(err: Error): void {
    if (this.stream) return this.stream.fail(err);
    if (this.tooLarge) return this.settle({ kind: 'too-large', err: this.tooLarge });
    const code = (err as NodeJS.ErrnoException).code;
    // A reset before any answer began: undici says which socket only for a close it saw as
    // such (bytes read before this request: a socket kept alive); a bare ECONNRESET does not
    // say, and is taken for a reused socket too (docs/decisions.md, "The hot path's POST on undici").
    const socket = (err as { socket?: { bytesRead?: number } }).socket;
    const reset = code !== undefined && RESET.has(code) && (socket === undefined || (socket.bytesRead ?? 0) > 0);
    this.settle({ kind: 'failed', err, reset });
  }

  private settle(outcome: QuickOutcome): void {
    if (this.settled) return;
    this.settled = true;
    this.exchange.abort = undefined;
    this.done(outcome);
  }
}

/** The value of the first header named `name` (lower case) in undici's raw list of names and values. */
function rawValue(raw: Buffer[], name: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) {
    const n = raw[i]!;
    if (n.length === name.length && n.toString('latin1').toLowerCase() === name) return raw[i + 1]!.toString('latin1');
  }
  return undefined;
}

/**
 * An answer going the general way, read as node:http's IncomingMessage is: a Readable with its
 * status and headers as node:http gives them (a repeated header joined with ", ", set-cookie a
 * list). Back-pressure reaches the socket: undici waits while the stream is full.
 */
class AnswerStream extends Readable implements HttpAnswer {
  readonly rawHeaders: string[] = [];
  readonly headers: IncomingHttpHeaders = {};
  complete = false;

  constructor(
    readonly statusCode: number,
    raw: Buffer[],
    private readonly resumeSocket: () => void,
    private readonly abortRequest: ((err: Error) => void) | undefined,
  ) {
    super();
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toString('latin1');
      const value = raw[i + 1]!.toString('latin1');
      this.rawHeaders.push(name, value);
      const key = name.toLowerCase();
      const had = this.headers[key];
      if (key === 'set-cookie') this.headers[key] = [...(this.headers[key] ?? []), value];
      else this.headers[key] = had === undefined ? value : `${String(had)}, ${value}`;
    }
  }

  /** false: undici waits for _read before it reads the socket again. */
  pushChunk(chunk: Buffer): boolean {
    return this.push(chunk);
  }

  finish(): void {
    this.complete = true;
    this.push(null);
  }

  fail(err: Error): void {
    this.destroy(err);
  }

  override _read(): void {
    this.resumeSocket();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.complete) this.abortRequest?.(err ?? new Error('the answer was given up'));
    callback(err);
  }
}
