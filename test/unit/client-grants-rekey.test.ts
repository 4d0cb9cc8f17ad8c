/**
 * Grants kept before the OAuth client keyed them by the checked issuer were kept under the
 * URL discovery used (`http://as.example/`, a trailing slash): at start they move to the
 * issuer's key without loss, two records of one owner and issuer become one (the newer
 * grant, serving the servers of both), and a second start finds nothing left to move.
 */
import { expect } from 'chai';
import { MemoryGrantStore } from '../../lib/grants/memory-grant-store.js';
import { SealedStore } from '../../lib/grants/sealed-store.js';
import { ClientPersistence, type GrantRecord } from '../../plugins/auth-client/persistence.js';
import type { Grant } from '../../plugins/auth-client/grants.js';

const KEY = 'k'.repeat(32);
const grant = (issuer: string, access: string, obtainedAt: number): Grant => ({
  issuer,
  serverUrl: 'http://vault.example/mcp',
  tokens: { access_token: access, token_type: 'Bearer', refresh_token: `r-${access}` },
  obtainedAt,
});

describe('OAuth client: grants re-keyed by issuer', () => {
  it('moves old records to the issuer key, merges duplicates keeping the newer grant, and is idempotent', async () => {
    const store = new SealedStore(new MemoryGrantStore(), KEY, () => undefined);
    const all = { all: 'records' };
    // As the previous version wrote them: id `${owner}\0${grant.issuer}`, the issuer as discovery spelled it.
    const old = (owner: string, g: Grant, servers: string[]) =>
      store.put<GrantRecord>('ClientGrant', `${owner}\u0000${g.issuer}`, { payload: { owner: owner, servers, grant: g }, index: all });
    await old('person:alice', grant('http://as.example/', 'a-old', 1), ['vault']);
    await old('person:alice', grant('http://as.example', 'a-new', 2), ['ledger']);
    await old('person:bob', grant('http://as.example/', 'b', 1), ['vault']);
    await old('person:bob', grant('http://other.example/', 'b-other', 1), ['other']);
    const persistence = new ClientPersistence(store);

    expect(await persistence.rekeyGrants()).to.equal(3);
    const alice = await persistence.grant('person:alice', 'http://as.example');
    expect(alice?.grant).to.include({ issuer: 'http://as.example' });
    expect(alice?.grant.tokens.access_token).to.equal('a-new');
    expect(alice?.servers).to.have.members(['vault', 'ledger']);
    expect((await persistence.grant('person:bob', 'http://as.example'))?.grant.tokens.access_token).to.equal('b');
    // Two authorization servers never share a record.
    expect((await persistence.grant('person:bob', 'http://other.example'))?.grant.tokens.access_token).to.equal('b-other');
    const kept = await persistence.grants();
    expect(kept.map((r) => `${r.owner} ${r.grant.issuer}`)).to.have.members([
      'person:alice http://as.example',
      'person:bob http://as.example',
      'person:bob http://other.example',
    ]);

    expect(await persistence.rekeyGrants()).to.equal(0);
    expect(await persistence.grants()).to.have.length(3);
  });
});
