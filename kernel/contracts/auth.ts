/**
 * Who is calling, and where an auth plugin keeps what it issues. Two contracts:
 *
 * - `RequestAuthenticator` (service `authenticator`): the gate in front of the MCP paths.
 *   The http-server asks it about every request to a protected path before any transport
 *   sees the request; a refusal is written as is (401 with WWW-Authenticate, say), an
 *   identity travels on to the session. No provider means the endpoint is open.
 * - `GrantStore` (service `grant-store`): a keyed record store for tokens, grants, clients
 *   and keys. Store plugins implement it (store-files keeps records as files). Records reach
 *   it already sealed: ids hashed and values encrypted by the auth plugin, so a store never
 *   holds a usable token or a plaintext secret.
 */
import type { IncomingMessage } from 'node:http';
import type { Identity } from '../request-context.js';

export type Authentication =
  | { kind: 'authenticated'; identity: Identity }
  | {
      kind: 'refused';
      status: 400 | 401 | 403;
      /** Headers of the refusal, e.g. WWW-Authenticate naming the protected-resource metadata. */
      headers: Record<string, string>;
      /** OAuth error code (`invalid_token`, `invalid_request`, ...) and its description. */
      error: string;
      description: string;
    };

/** What an authenticator tells clients before they connect (the server card's `authentication`). */
export interface AuthenticationAdvertisement {
  /** Schemes a client may use, as the server card spells them (`oauth2`, `bearer`). */
  schemes: string[];
  /** The RFC 9728 protected-resource metadata URL a client starts an OAuth sign-in from. */
  resourceMetadataUrl?: string;
}

export interface RequestAuthenticator {
  authenticate(req: IncomingMessage, url: URL): Promise<Authentication>;
  /** Absent: the card says authentication is required, naming no scheme. */
  describe?(): AuthenticationAdvertisement;
}

/** One stored record. `expiresAt` is in epoch seconds; a record past it is as good as absent. */
export interface StoredRecord {
  value: string;
  expiresAt?: number;
  /** Secondary keys the record is found or deleted by (a grant id, an interaction uid). */
  index?: Readonly<Record<string, string>>;
}

/** The signed-in person's tokens from the identity provider (auth-server): what a write as the caller carries. */
export interface CallerTokens {
  /** The person's current ID token from the identity provider (refreshed when due); undefined when there is none. */
  idToken(subject: string): Promise<string | undefined>;
}

export interface GrantStore {
  /** true when records outlive the process (a restart keeps grants and refresh tokens). */
  readonly persistent: boolean;
  get(kind: string, id: string): Promise<StoredRecord | undefined>;
  put(kind: string, id: string, record: StoredRecord): Promise<void>;
  /**
   * Stores `record` unless a live record is already at (kind, id), and returns the record
   * kept there: `record` itself, or the one found. Atomic for every process sharing the
   * store, so values made once and shared (signing and cookie keys) have exactly one
   * winner when replicas start together; a store only one process writes checks and writes.
   */
  create(kind: string, id: string, record: StoredRecord): Promise<StoredRecord>;
  delete(kind: string, id: string): Promise<void>;
  /** Ids of live records of `kind` whose index `key` equals `value`. */
  findBy(kind: string, key: string, value: string): Promise<string[]>;
}
