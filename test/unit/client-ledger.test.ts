/**
 * The cap on registered clients (plugins/auth-server/client-ledger.ts) on a real sealed store,
 * with a clock the test moves: the oldest unused client is replaced first, a client with a
 * grant never is, expired ones stop counting, a client another replica saw used is kept, and a
 * restart counts what was stored. The whole path through HTTP: test/security/registration.test.ts.
 */
import { expect } from 'chai';
import { MemoryGrantStore } from '../../lib/grants/memory-grant-store.js';
import { SealedStore } from '../../lib/grants/sealed-store.js';
import { MemoryRateLimiter } from '../../lib/limits/memory-rate-limiter.js';
import { providerAdapter } from '../../plugins/auth-server/provider-adapter.js';
import { ClientLedger, CLIENT } from '../../plugins/auth-server/client-ledger.js';

const HOUR = 3600;

describe('client ledger: registered clients bounded', () => {
  let clock: number;
  let store: SealedStore;
  let ledger: ClientLedger;
  const now = () => clock;

  /** A registration as oidc-provider stores it: admitted, then upserted through the adapter. */
  async function register(id: string): Promise<boolean> {
    if (!(await ledger.admit())) return false;
    await providerAdapter(store, now, undefined, ledger)(CLIENT).upsert(id, { client_id: id, client_id_issued_at: clock }, 0);
    ledger.settled();
    return true;
  }
  const stored = async (id: string) => (await store.get(CLIENT, id)) !== undefined;

  beforeEach(() => {
    clock = 1_000_000;
    store = new SealedStore(new MemoryGrantStore(() => clock), 'k'.repeat(32));
    ledger = new ClientLedger(store, { maxClients: 3, unusedSeconds: 24 * HOUR }, now);
  });

  it('at the cap, the oldest client never used is replaced; one with a grant stays', async () => {
    for (const id of ['a', 'b', 'c']) expect(await register(id)).to.equal(true);
    await providerAdapter(store, now, undefined, ledger)('Grant').upsert('g1', { clientId: 'a', accountId: 'p' }, 720 * HOUR);
    clock += 10;
    expect(await register('d')).to.equal(true);
    expect(await stored('a'), 'used').to.equal(true);
    expect(await stored('b'), 'oldest unused').to.equal(false);
    expect(await stored('c')).to.equal(true);
    expect(ledger.size).to.equal(3);
    // The used client lives past its grant's end, not the unused window.
    clock += 25 * HOUR;
    expect(await stored('a')).to.equal(true);
    expect(await stored('c'), 'expired unused').to.equal(false);
  });

  it('when every client is in use, a registration is refused', async () => {
    for (const id of ['a', 'b', 'c']) {
      await register(id);
      await providerAdapter(store, now, undefined, ledger)('Grant').upsert(`g-${id}`, { clientId: id, accountId: 'p' }, HOUR);
    }
    expect(await register('d')).to.equal(false);
    // Once their grants and the window after them are over, they stop counting.
    clock += 26 * HOUR;
    expect(await register('d')).to.equal(true);
  });

  it('a client given a grant through another replica (its stored expiry moved) is kept, and the next unused one goes', async () => {
    for (const id of ['a', 'b', 'c']) await register(id);
    // Another replica's ledger moves a's expiry in the shared store; this one does not know.
    const elsewhere = new ClientLedger(store, { maxClients: 3, unusedSeconds: 24 * HOUR }, now);
    await elsewhere.granted('a', clock + 720 * HOUR);
    expect(await register('d')).to.equal(true);
    expect(await stored('a')).to.equal(true);
    expect(await stored('b')).to.equal(false);
  });

  it('a restart counts the clients stored, used and unused apart', async () => {
    for (const id of ['a', 'b', 'c']) await register(id);
    await ledger.granted('b', clock + 720 * HOUR);
    const restarted = new ClientLedger(store, { maxClients: 3, unusedSeconds: 24 * HOUR }, now);
    await restarted.load();
    expect(restarted.size).to.equal(3);
    ledger = restarted;
    expect(await register('d')).to.equal(true);
    expect(await stored('a')).to.equal(false);
    expect(await stored('b')).to.equal(true);
  });
});

describe('memory rate limiter: many callers', () => {
  it('forgets buckets that are full again, so distinct callers cannot fill memory', async () => {
    let clock = 0;
    const limiter = new MemoryRateLimiter(() => clock);
    const limit = { callsPerSecond: 1, burst: 2 };
    for (let i = 0; i < 5_000; i++) await limiter.take(`caller-${i}`, 1, limit);
    expect(limiter.size).to.be.greaterThan(1_000);
    clock += 10_000;
    for (let i = 0; i < 2_048; i++) await limiter.take('one', 1, limit);
    expect(limiter.size).to.be.below(10);
  });
});
