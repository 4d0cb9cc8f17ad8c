/**
 * What the OAuth client keeps across restarts, when the auth server's storage is persistent
 * (aggregator.oauth.server.storage): people's grants (a session's end with the session, so
 * they are never written) and the registrations obtained from authorization servers. Sealed
 * like the auth server's records (lib/grants/sealed-store.ts): no usable token on disk.
 * A grant is one record per person and authorization server, naming the servers it serves,
 * so a grant reused by single sign-on comes back as one grant.
 */
import type { OAuthClientInformationMixed } from '#mcp-sdk/shared/auth.js';
import type { Owner } from '../../kernel/index.js';
import type { SealedStore } from '../../lib/grants/sealed-store.js';
import type { Grant } from './grants.js';
import { issuerKey } from './issuer.js';

const GRANT = 'ClientGrant';
const REGISTRATION = 'ClientRegistration';
const ALL = { all: 'records' };

export interface GrantRecord {
  owner: Owner;
  servers: string[];
  grant: Grant;
}

export class ClientPersistence {
  constructor(private readonly store: SealedStore) {}

  static persisted(owner: Owner): boolean {
    return owner.startsWith('person:');
  }

  async saveGrant(owner: Owner, grant: Grant, servers: string[]): Promise<void> {
    const id = `${owner}\u0000${issuerKey(grant.issuer)}`;
    if (servers.length === 0) return this.store.delete(GRANT, id);
    await this.store.put<GrantRecord>(GRANT, id, { payload: { owner, servers, grant }, index: ALL });
  }

  /** `owner`'s grant from `issuer`, as stored now. */
  async grant(owner: Owner, issuer: string): Promise<GrantRecord | undefined> {
    return (await this.store.get<GrantRecord>(GRANT, `${owner}\u0000${issuerKey(issuer)}`))?.payload;
  }

  /**
   * Grants kept before they were keyed by the checked issuer (issuer.ts) were kept under the
   * URL discovery used, often with a trailing slash: each is written again under its issuer's
   * key, then the old record is deleted. A crash between the two leaves both, and the next
   * start finishes the move (the old one is found again and the newer grant kept); nothing
   * is lost at any point. Two old records of one owner and issuer become one, the newer grant
   * serving the servers of both. Returns how many records moved.
   */
  async rekeyGrants(): Promise<number> {
    const found = await this.store.findBy<GrantRecord>(GRANT, 'all', ALL.all);
    const byId = new Map<string, { keep: GrantRecord; stale: string[]; dirty: boolean }>();
    for (const { storedKey, record } of found) {
      const r = record.payload;
      const issuer = issuerKey(r.grant.issuer);
      const id = `${r.owner}\u0000${issuer}`;
      if (r.grant.issuer === issuer && this.store.storedAs(GRANT, id, storedKey) && !byId.has(id)) {
        byId.set(id, { keep: r, stale: [], dirty: false });
        continue;
      }
      const entry = byId.get(id) ?? { keep: { ...r, grant: { ...r.grant, issuer } }, stale: [], dirty: false };
      entry.dirty = true;
      if (entry.keep !== r && r.grant.obtainedAt > entry.keep.grant.obtainedAt)
        entry.keep = { ...r, servers: entry.keep.servers, grant: { ...r.grant, issuer } };
      entry.keep = { ...entry.keep, servers: [...new Set([...entry.keep.servers, ...r.servers])] };
      if (!this.store.storedAs(GRANT, id, storedKey)) entry.stale.push(storedKey);
      byId.set(id, entry);
    }
    let moved = 0;
    for (const [id, { keep, stale, dirty }] of byId) {
      if (!dirty) continue;
      await this.store.put<GrantRecord>(GRANT, id, { payload: keep, index: ALL });
      for (const storedKey of stale) await this.store.deleteStored(GRANT, storedKey);
      moved += Math.max(1, stale.length);
    }
    return moved;
  }

  async grants(): Promise<GrantRecord[]> {
    return (await this.store.findBy<GrantRecord>(GRANT, 'all', ALL.all)).map((r) => r.record.payload);
  }

  async saveRegistration(issuer: string, info: OAuthClientInformationMixed): Promise<void> {
    await this.store.put(REGISTRATION, issuer, { payload: { issuer, info }, index: ALL });
  }

  async registrations(): Promise<{ issuer: string; info: OAuthClientInformationMixed }[]> {
    return (await this.store.findBy<{ issuer: string; info: OAuthClientInformationMixed }>(REGISTRATION, 'all', ALL.all)).map((r) => r.record.payload);
  }
}
