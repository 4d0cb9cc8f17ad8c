/**
 * Session directory: where replicas of one Switchboard share their MCP sessions, so any
 * replica serves a request for a session it never saw, without a new `initialize`
 * (cluster mode; the cluster-redis plugin provides it). Without a provider there is one
 * process and sessions live only in its memory, exactly as before.
 *
 * A record holds what a replica needs to rebuild the session, and nothing secret: the
 * owner is the session's Identity (subject and claims), never a token. Each session also
 * has a channel for what must reach it wherever it is served: a message for its GET
 * stream (held by one replica), its record changed, or its end.
 */
import type { ClientCapabilities, Implementation, JSONRPCMessage, LoggingLevel } from '#mcp-sdk/types.js';
import type { Identity } from '../request-context.js';
import type { TransportKind } from '../sessions.js';

export interface SessionRecord {
  id: string;
  transport: TransportKind;
  /** ISO 8601. */
  createdAt: string;
  /** Whose session it is; a request bearing another person's token may not resume it. */
  identity?: Identity;
  peer?: string;
  /** Session.clientAddress, when it differs from peer (a client behind a trusted proxy). */
  clientAddress?: string;
  /** The protocol version negotiated at initialize. */
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  /** Set by logging/setLevel. */
  logLevel?: LoggingLevel;
  /** Resource URIs the session subscribed to (resources/subscribe). */
  subscriptions: string[];
}

/** What travels on a session's channel to every replica that serves it. */
export type SessionSignal =
  /** A message for the session's GET stream: written by the replica that holds the stream, ignored by the others. */
  | { kind: 'message'; message: JSONRPCMessage }
  /** The record changed on another replica (log level, subscriptions): copies update theirs. */
  | { kind: 'record'; record: SessionRecord }
  /** The session ended (DELETE, the admin UI, idle): copies are dropped. */
  | { kind: 'end' }
  /**
   * The client cancelled request `requestId` through a replica that does not run it: the one
   * that does cancels it (its POST, its upstream call), the others ignore it.
   */
  | { kind: 'cancelled'; requestId: string | number; reason?: string };

/** What pushing back a session's expiry found (SessionDirectory.touch). */
export type TouchOutcome =
  /** The record is there; its expiry was pushed back. */
  | 'kept'
  /** The session ended (a replica deleted its record: DELETE, the admin UI, idle): the copy is dropped. */
  | 'ended'
  /**
   * The record was gone with no end recorded (Redis lost it: restarted without persistence,
   * or failed over to a replica that never had it): the copy's record was written back.
   */
  | 'restored';

export interface SessionDirectory {
  /** Writes the record; it expires after `idleSeconds` without a put or touch (0: never). */
  put(record: SessionRecord, idleSeconds: number): Promise<void>;
  get(id: string): Promise<SessionRecord | undefined>;
  /**
   * Removes the record and remembers that the session ended (for `idleSeconds` and a minute;
   * a day when 0), so that a copy that missed the `end` signal is dropped, not written back;
   * true when there was a record.
   */
  delete(id: string, idleSeconds: number): Promise<boolean>;
  /**
   * Pushes the record's expiry back to `idleSeconds` from now. A record gone although the
   * session never ended is written back from `record`, the copy's own, in the same step.
   */
  touch(record: SessionRecord, idleSeconds: number): Promise<TouchOutcome>;
  publish(id: string, signal: SessionSignal): Promise<void>;
  /** Hears the session's channel until the returned function is called. */
  subscribe(id: string, onSignal: (signal: SessionSignal) => void): Promise<() => Promise<void>>;
}
