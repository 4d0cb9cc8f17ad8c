/**
 * A session is one connected MCP client. Transports create them through the endpoint;
 * everything per-client (identity, per-session server status) hangs off it.
 */
import type { Server } from '#mcp-sdk/server/index.js';
import type { LoggingLevel } from '#mcp-sdk/types.js';
import type { Identity } from './request-context.js';

export type TransportKind = 'streamable-http' | 'sse' | 'stdio' | 'in-memory';

export interface Session {
  readonly id: string;
  readonly transport: TransportKind;
  readonly createdAt: Date;
  readonly server: Server;
  identity?: Identity;
  /** The client's network address (HTTP transports); absent for stdio and in-memory sessions. */
  readonly peer?: string;
  /**
   * The client's address as trusted proxies in front report it (X-Forwarded-For, right-most
   * hop not itself a trusted proxy; lib/net/trusted-proxies.ts), else `peer`. What per-address
   * limits count: behind a balancer `peer` is the balancer's. Never used to grant anything.
   */
  readonly clientAddress?: string;
  /**
   * Cluster mode: a session another replica opened, taken up here from its shared record. Not
   * a new session: limits on opening sessions do not apply to it (issue 36, finding 6).
   */
  readonly resumed?: boolean;
  /**
   * A 2026-07-28 request's session (kernel/mcp/server/stateless.ts): it lives as long as one
   * request, is in no registry and no directory, and its `server` is connected to nothing.
   */
  readonly stateless?: true;
  clientInfo?: { name: string; version: string };
  /** Set by logging/setLevel: log messages below it are not sent to this session. */
  logLevel?: LoggingLevel;
  /** Resource URIs it subscribed to (resources/subscribe), kept by the plugin serving resources. */
  readonly subscriptions: Set<string>;
  /**
   * Cluster mode: set when this replica only lets go of its copy (idle here, the replica
   * stopping) while the session goes on through the others. A close then ends nothing:
   * what counts the session across replicas (the per-person session cap) must not release it.
   */
  continuesElsewhere?: boolean;
  /** Free slots for plugins; key by a Symbol the plugin owns. */
  readonly slots: Map<symbol, unknown>;
}

/**
 * A session belongs to whoever opened it. Returns why `identity` may not use `session` (a
 * session id presented with another person's token), or undefined when it may.
 */
export function foreignCaller(session: Pick<Session, 'id' | 'identity'>, identity: Identity | undefined): string | undefined {
  if (session.identity?.subject === identity?.subject) return undefined;
  return `Session '${session.id}' belongs to another caller; initialize a session of your own`;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();

  add(session: Session): void {
    this.sessions.set(session.id, session);
  }

  remove(id: string): Session | undefined {
    const s = this.sessions.get(id);
    this.sessions.delete(id);
    return s;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  all(): Session[] {
    return [...this.sessions.values()];
  }

  get size(): number {
    return this.sessions.size;
  }
}
