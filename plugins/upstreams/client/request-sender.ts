/**
 * How one request of a streamable-HTTP connection goes out on node:http: its headers (the
 * definition's under the request's own, request-headers.ts), a signed-in connection's bearer
 * token, renewed once when the server refuses it, a request sent again when a kept-alive socket
 * was reset under it, and giving it up (its signal, its exchange, no answer begun in time).
 */
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { RequestHow } from './http-answer.js';
import type { ConnectionHeaders, HeaderList } from './request-headers.js';

/**
 * Where a signed-in connection gets its bearer token, per request: the current one, or
 * (`renew`) a fresh one after the server refused it. undefined: there is none to send.
 */
export type BearerSource = (renew: boolean) => Promise<string | undefined>;

export class RequestSender {
  constructor(
    /** Where every request goes, as node:http options made once (http-client-transport.ts). */
    private readonly target: RequestOptions,
    private readonly secure: boolean,
    private readonly fixed: ConnectionHeaders,
    readonly bearer: BearerSource | undefined,
  ) {}

  /** A request's whole header list: the connection's configured headers under its own. */
  headersOf(own: HeaderList): HeaderList {
    return this.fixed.with(own);
  }

  /** `own`: the request's headers (lower-case names); its answer as it begins, the body unread. */
  request(method: string, own: HeaderList, body?: string, how: RequestHow = {}): Promise<IncomingMessage> {
    return this.bearer ? this.withBearer(this.bearer, method, own, body, how) : this.plainly(method, own, body, how);
  }

  /**
   * A signed-in connection's request carries its bearer token; when the server answers 401
   * the token is renewed once (refreshed at its authorization server) and the request sent
   * again, so an expired or rotated token costs the call nothing.
   */
  private async withBearer(bearer: BearerSource, method: string, own: HeaderList, body: string | undefined, how: RequestHow): Promise<IncomingMessage> {
    const token = await bearer(false);
    const first = await this.plainly(method, token ? [...own, 'authorization', `Bearer ${token}`] : own, body, how);
    if (first.statusCode !== 401) return first;
    const renewed = await bearer(true);
    if (!renewed || renewed === token) return first;
    first.resume();
    return this.plainly(method, [...own, 'authorization', `Bearer ${renewed}`], body, how);
  }

  private plainly(method: string, own: HeaderList, body: string | undefined, how: RequestHow): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => this.open(method, own, body, how, resolve, reject));
  }

  /**
   * Sends a request without a token and hands its answer to `answer` as it begins, or why there
   * is none to `failed`: no promise between the socket and whoever reads the answer, the way
   * the hot path takes it (http-client-transport.ts, `postQuick`).
   *
   * `signal`: aborting it gives the request up until its answer begins (a cancelled 2026-07-28
   * request); the answer's stream is then the sender's to end. `answerWithinMs`: no answer begun
   * by then gives the request up (a stream opened again, whose path may be as dead as the stream
   * it replaces).
   *
   * A request reset on a kept-alive socket before any answer is sent once more, on a socket of
   * its own: the server closed that idle socket as the request went out (the keep-alive race;
   * a loaded machine fires the agent's own close late), and the request never reached it.
   * Without this, the call failed and the whole connection was taken for lost (docs/decisions.md,
   * "A request reset on a kept-alive socket").
   */
  open(method: string, own: HeaderList, body: string | undefined, how: RequestHow, answer: (res: IncomingMessage) => void, failed: (err: Error) => void): void {
    const { signal, exchange, ownSocket = false, answerWithinMs } = how;
    if (exchange?.givenUp) return failed(new Error('given up by its sender'));
    // node:http never follows a redirect: a 3xx is an HttpStatusError, so no answer can send us elsewhere.
    // On a socket of its own (agent: false), not another of the pool's idle ones.
    const headers = this.fixed.with(own);
    const options: RequestOptions = ownSocket ? { ...this.target, agent: false, method, headers } : { ...this.target, method, headers };
    const req = (this.secure ? httpsRequest : httpRequest)(options, (res) => {
      signal?.removeEventListener('abort', giveUp);
      clearTimeout(deadline);
      answer(res);
    });
    // node:http marks a request already answered destroyed, so this leaves its pooled socket alone.
    if (exchange) exchange.abort = () => void req.destroy();
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
        this.open(method, own, body, { ...how, ownSocket: true }, answer, failed);
      else failed(err);
    });
    req.end(body);
  }
}
