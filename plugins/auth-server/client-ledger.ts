/**
 * The registered clients this server keeps, bounded. Every dynamically registered client is
 * stored with an expiry: `unusedSeconds` after it registered while it has no grant, and
 * `unusedSeconds` past its latest grant's end once it has one (every store honours a record's
 * expiry: memory, files, Redis). At `maxClients`, a new registration first replaces the oldest
 * client never used; when every client is in use it is refused.
 *
 * The count is this process's: clients it registered, and those stored when it started.
 * Unused clients are kept in registration order, each with its expiry, so the oldest is the
 * first and expired ones leave from the front: making room costs O(1) per registration, never
 * a walk over the store. In cluster mode another replica may have given a client its first
 * grant: before one is replaced, its stored expiry is read again, and a client whose expiry
 * moved on is counted as in use instead.
 */
import type { SealedStore } from '../../lib/grants/sealed-store.js';

export const CLIENT = 'Client';
/** Every registered client's record carries this index, so a restart finds them all. */
export const CLIENT_INDEX = { key: 'registered', value: 'client' } as const;

interface ClientPayload {
  client_id?: string;
  client_id_issued_at?: number;
}

export class ClientLedger {
  /** Never used: client id -> expiry (epoch seconds), oldest registration first. */
  private readonly unused = new Map<string, number>();
  /** With a grant: client id -> expiry as last known. */
  private readonly used = new Map<string, number>();
  /** Registrations admitted and not yet stored. */
  private pending = 0;
  /** No client in use expires before this (epoch seconds): the walk over them waits until then. */
  private usedNextExpiry = 0;

  constructor(
    private readonly store: SealedStore,
    private readonly limits: { maxClients: number; unusedSeconds: number },
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.unused.size + this.used.size;
  }

  /** Counts the clients stored before this process started (persistent storage). */
  async load(): Promise<void> {
    const found = await this.store.findBy<ClientPayload>(CLIENT, CLIENT_INDEX.key, CLIENT_INDEX.value);
    const unused: [string, number][] = [];
    for (const { record } of found) {
      const id = record.payload.client_id;
      if (!id || record.expiresAt === undefined) continue;
      const registered = record.payload.client_id_issued_at ?? 0;
      if (record.expiresAt > registered + this.limits.unusedSeconds + 1) this.markUsed(id, record.expiresAt);
      else unused.push([id, record.expiresAt]);
    }
    // Oldest first: the order replacement takes them in.
    for (const [id, at] of unused.sort((a, b) => a[1] - b[1])) this.unused.set(id, at);
  }

  /**
   * Makes room for one registration: false when every place is held by a client in use.
   * A true must be followed by `settled()` once the registration is stored or refused.
   */
  async admit(): Promise<boolean> {
    this.dropExpired();
    while (this.size + this.pending >= this.limits.maxClients) {
      const oldest = this.unused.entries().next();
      if (oldest.done) {
        if (this.dropExpiredUsed()) continue;
        return false;
      }
      const [id, known] = oldest.value;
      // Taken off before the wait, so concurrent registrations pick different clients.
      this.unused.delete(id);
      const stored = await this.store.get(CLIENT, id);
      if (stored?.expiresAt !== undefined && stored.expiresAt > known) {
        this.markUsed(id, stored.expiresAt);
        continue;
      }
      await this.store.delete(CLIENT, id);
    }
    this.pending++;
    return true;
  }

  settled(): void {
    this.pending = Math.max(0, this.pending - 1);
  }

  /** A client was registered (the adapter stores it): its expiry while unused. */
  registered(clientId: string): number {
    const expiresAt = Math.floor(this.now()) + this.limits.unusedSeconds;
    this.unused.set(clientId, expiresAt);
    return expiresAt;
  }

  /**
   * A grant for `clientId` lasts until `grantEnds`: the client's record lives until
   * `unusedSeconds` after that. Written only when that moves its expiry by more than a tenth
   * of `unusedSeconds` (a refresh every half hour does not rewrite the client each time).
   */
  async granted(clientId: string, grantEnds: number): Promise<void> {
    const until = Math.floor(grantEnds) + this.limits.unusedSeconds;
    const known = this.used.get(clientId);
    if (known !== undefined && until - known < this.limits.unusedSeconds / 10) return;
    const record = await this.store.get<ClientPayload>(CLIENT, clientId);
    // A client seeded from configuration (a broker client) has no record, and no expiry to move.
    if (!record || record.expiresAt === undefined) return;
    this.unused.delete(clientId);
    this.markUsed(clientId, Math.max(until, record.expiresAt));
    if (record.expiresAt >= until) return;
    await this.store.put(CLIENT, clientId, { payload: record.payload, expiresAt: until, index: { [CLIENT_INDEX.key]: CLIENT_INDEX.value } });
  }

  private markUsed(clientId: string, expiresAt: number): void {
    this.used.set(clientId, expiresAt);
    if (expiresAt < this.usedNextExpiry) this.usedNextExpiry = expiresAt;
  }

  /** Unused clients past their expiry leave from the front (their expiries ascend). */
  private dropExpired(): void {
    const now = this.now();
    for (const [id, at] of this.unused) {
      if (at > now) break;
      this.unused.delete(id);
    }
  }

  /** Clients in use past their expiry (a walk, at most once per expiry passing, only when full). */
  private dropExpiredUsed(): boolean {
    const now = this.now();
    if (now < this.usedNextExpiry) return false;
    let dropped = false;
    let next = Infinity;
    for (const [id, at] of this.used) {
      if (at > now) next = Math.min(next, at);
      else {
        this.used.delete(id);
        dropped = true;
      }
    }
    this.usedNextExpiry = next;
    return dropped;
  }
}
