/**
 * The shared HTTP listener. The http-server plugin owns it; transports, OAuth, health and
 * admin pages mount on it. `handle` routes are matched before koa for the hot MCP paths.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Router from '@koa/router';
import type { Identity } from '../request-context.js';

/** A raw node:http handler; returns false when it did not take the request. `url` is shared between requests: read it, never change it. */
export type RawHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean | Promise<boolean>;

/** An MCP transport served on this listener, as the server card names it (`remotes[].type`). */
export interface AdvertisedTransport {
  type: 'streamable-http' | 'sse';
  /** The path a client connects to (`/mcp`, `/sse`). */
  path: string;
}

export interface HttpService {
  /** koa router for ordinary endpoints. */
  readonly router: Router;
  /**
   * Registers a raw handler for an exact path (the MCP transports use this: no koa on the hot
   * path). Raw paths are protected: when an `authenticator` is provided, a request reaches the
   * handler only once authenticated. `open` exempts a path (none of the MCP paths is).
   */
  handle(path: string, handler: RawHandler, options?: { open?: boolean }): void;
  /**
   * A transport plugin says what it serves, so the server card describes only the transports
   * actually enabled. Called in setup, next to `handle`.
   */
  advertise(transport: AdvertisedTransport): void;
  /** The identity the authenticator found for this request (undefined when the endpoint is open). */
  identityOf(req: IncomingMessage): Identity | undefined;
  /**
   * The client's address: X-Forwarded-For's right-most hop that is not a trusted proxy
   * (aggregator.oauth.server.trustedProxyCIDRs) when the request came through one, else the
   * socket's peer. For per-address limits; never a reason to trust anyone.
   */
  clientAddressOf(req: IncomingMessage): string | undefined;
  /** Address actually bound (after start), and whether it speaks TLS. */
  address(): { host: string; port: number; scheme: 'http' | 'https' } | undefined;
  /** Checks Origin per the MCP transport rules; writes 403 and returns false when refused. */
  checkOrigin(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * Reads a JSON body within the configured limit; writes 413/400 and returns undefined when refused.
   * With `refuseArray` (a message), a body whose first byte (after JSON whitespace) is `[` (a JSON-RPC
   * batch) is answered at once with 400 and a -32600 error carrying that message: nothing
   * more of it is kept, nothing of it is parsed.
   */
  readJson(req: IncomingMessage, res: ServerResponse, refuseArray?: string): Promise<{ ok: true; body: unknown } | { ok: false }>;
}
