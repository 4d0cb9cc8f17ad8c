/**
 * What the OAuth client keeps across restarts, when the auth server's storage is persistent
 * (aggregator.oauth.server.storage): people's grants (a session's end with the session, so
 * they are never written) and the registrations obtained from authorization servers. Sealed
 * like the auth server's records (lib/grants/sealed-store.ts): no usable token on disk.
 * A grant is one record per person and authorization server, naming the servers it serves,
 * so a grant reused by single sign-on comes back as one grant.
 */
import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Owner } from '../../kernel/index.js';
import type { SealedStore } from '../../lib/grants/sealed-store.js';
import type { Grant } from './grants.js';

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
    const id = `${owner}\u0000${grant.issuer}`;
    if (servers.length === 0) return this.store.delete(GRANT, id);
    await this.store.put<GrantRecord>(GRANT, id, { payload: { owner, servers, grant }, index: ALL });
  }

  /** `owner`'s grant from `issuer`, as stored now. */
  async grant(owner: Owner, issuer: string): Promise<GrantRecord | undefined> {
    return (await this.store.get<GrantRecord>(GRANT, `${owner}\u0000${issuer}`))?.payload;
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
