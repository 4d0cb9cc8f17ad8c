/**
 * The session object of one 2026-07-28 request (stateless.ts) or one listen (listens.ts): in
 * no registry, connected to nothing. A plain stateless call reads none of its id, creation
 * time or subscriptions, yet made them every request (a UUID string, a Date, a Set), and that
 * garbage was most of what a stateless call cost over a session's (bench/README.md,
 * call-tool-modern). So each is made the first time it is read, and is then the same for
 * the object's life: an anonymous caller's id, which names the owner of what it signs in to
 * or starts (`ownerOf`), is still its own, minted once and never shared between requests.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from '#mcp-sdk/server/index.js';
import type { LoggingLevel } from '#mcp-sdk/types.js';
import type { Identity } from '../../request-context.js';
import type { Session, TransportKind } from '../../sessions.js';

export class StatelessSession implements Session {
  readonly stateless = true as const;
  // `declare`: no own property unless set, as the object literal this replaces had none.
  declare identity?: Identity;
  declare readonly peer?: string;
  declare readonly clientAddress?: string;
  declare clientInfo?: { name: string; version: string };
  declare logLevel?: LoggingLevel;
  declare continuesElsewhere?: boolean;
  private madeId: string | undefined;
  private madeDate: Date | undefined;
  private madeSubscriptions: Set<string> | undefined;
  /** When the request arrived: a number now, a Date only if someone asks. */
  private readonly at = Date.now();

  constructor(
    readonly transport: TransportKind,
    readonly server: Server,
    readonly slots: Map<symbol, unknown>,
    identity: Identity | undefined,
    peer: string | undefined,
    clientAddress: string | undefined,
    clientInfo: { name: string; version: string } | undefined,
  ) {
    // Only what is there, as before: `'identity' in session` and the like answer as they did.
    if (identity) this.identity = identity;
    if (peer) this.peer = peer;
    if (clientAddress) this.clientAddress = clientAddress;
    if (clientInfo) this.clientInfo = clientInfo;
  }

  get id(): string {
    return (this.madeId ??= `stateless-${randomUUID()}`);
  }

  get createdAt(): Date {
    return (this.madeDate ??= new Date(this.at));
  }

  get subscriptions(): Set<string> {
    return (this.madeSubscriptions ??= new Set());
  }
}
