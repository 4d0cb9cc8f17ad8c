/**
 * The per-replica cache of verified access tokens (plugins/auth-server/verified-tokens.ts):
 * bounded in time and size, emptied by revocations heard from any replica, never filled from
 * a lookup a revocation overtook, and unused while the broadcast may have lost a message.
 */
import { expect } from 'chai';
import type { Broadcast } from '../../kernel/index.js';
import { tokenDigest, VerifiedTokens, type VerifiedToken } from '../../plugins/auth-server/verified-tokens.js';

/** An in-process broadcast between the caches of one test (the e2e tests use Redis). */
class LocalBroadcast implements Broadcast {
  private readonly topics = new Map<string, Set<(m: string) => void>>();
  private readonly reliabilityListeners = new Set<(r: boolean) => void>();
  /** Topics whose messages wait for release(): a replica that has not read them yet. */
  private readonly held = new Map<string, (() => void)[]>();
  reliable = true;

  publish(topic: string, message: string): Promise<number> {
    const listeners = [...(this.topics.get(topic) ?? [])];
    const deliver = () => {
      for (const l of listeners) l(message);
    };
    const queue = this.held.get(topic);
    if (queue) queue.push(deliver);
    else deliver();
    return Promise.resolve(listeners.length);
  }

  hold(topic: string): void {
    this.held.set(topic, []);
  }

  release(topic: string): void {
    const queue = this.held.get(topic) ?? [];
    this.held.delete(topic);
    for (const deliver of queue) deliver();
  }

  subscribe(topic: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    const set = this.topics.get(topic) ?? new Set();
    this.topics.set(topic, set);
    set.add(onMessage);
    return Promise.resolve(() => {
      set.delete(onMessage);
      return Promise.resolve();
    });
  }

  onReliabilityChange(listener: (reliable: boolean) => void): () => void {
    this.reliabilityListeners.add(listener);
    return () => this.reliabilityListeners.delete(listener);
  }

  setReliable(reliable: boolean): void {
    this.reliable = reliable;
    for (const l of this.reliabilityListeners) l(reliable);
  }
}

const token = (over: Partial<VerifiedToken> = {}): VerifiedToken => ({
  subject: 'alice',
  clientId: 'c',
  scope: 'mcp',
  exp: 10_000,
  aud: ['http://sb/mcp'],
  jkt: undefined,
  grantId: 'g1',
  person: { email: 'alice@example.com' },
  ...over,
});

describe('verified tokens cache', () => {
  let clock: number;
  const now = (): number => clock;
  beforeEach(() => {
    clock = 1000;
  });

  it('keeps a copy at most maxAgeSeconds and never past the token expiry', () => {
    const cache = new VerifiedTokens(now, undefined, { maxAgeSeconds: 30, maxEntries: 10 });
    cache.put('a', token(), cache.mark);
    cache.put('b', token({ exp: 1010 }), cache.mark);
    clock = 1009;
    expect(cache.get('a')?.subject).to.equal('alice');
    expect(cache.get('b')).to.not.equal(undefined);
    clock = 1010;
    expect(cache.get('b'), 'expired token').to.equal(undefined);
    clock = 1030;
    expect(cache.get('a'), 'older than maxAgeSeconds').to.equal(undefined);
  });

  it('does not keep an already expired token', () => {
    const cache = new VerifiedTokens(now, undefined);
    cache.put('a', token({ exp: 999 }), cache.mark);
    expect(cache.size).to.equal(0);
  });

  it('holds at most maxEntries, the oldest inserted dropped first', () => {
    const cache = new VerifiedTokens(now, undefined, { maxAgeSeconds: 30, maxEntries: 3 });
    for (const d of ['a', 'b', 'c', 'd']) cache.put(d, token(), cache.mark);
    expect(cache.size).to.equal(3);
    expect(cache.get('a')).to.equal(undefined);
    expect(cache.get('d')).to.not.equal(undefined);
  });

  it('a revocation on one replica drops the copies on every replica, by token and by grant', async () => {
    const bus = new LocalBroadcast();
    const [a, b] = [new VerifiedTokens(now, bus), new VerifiedTokens(now, bus)];
    await a.start();
    await b.start();
    for (const cache of [a, b]) {
      cache.put(tokenDigest('t1'), token(), cache.mark);
      cache.put(tokenDigest('t2'), token({ grantId: 'g2' }), cache.mark);
      cache.put(tokenDigest('t3'), token({ grantId: 'g2' }), cache.mark);
    }
    await a.revoked({ kind: 'token', digest: tokenDigest('t1') });
    for (const cache of [a, b]) expect(cache.get(tokenDigest('t1'))).to.equal(undefined);
    await b.revoked({ kind: 'grant', grantId: 'g2' });
    for (const cache of [a, b]) {
      expect(cache.size).to.equal(0);
      expect(cache.get(tokenDigest('t3'))).to.equal(undefined);
    }
    await a.stop();
    await b.stop();
  });

  it('a revocation is answered only once every replica it went to dropped its copies', async () => {
    const bus = new LocalBroadcast();
    const [a, b] = [new VerifiedTokens(now, bus), new VerifiedTokens(now, bus)];
    await a.start();
    await b.start();
    b.put(tokenDigest('t1'), token(), b.mark);
    // The message is on its way but no replica has read it yet (a loaded machine).
    bus.hold('access-tokens-revoked');
    let answered = false;
    const revoking = a.revoked({ kind: 'token', digest: tokenDigest('t1') }).then(() => (answered = true));
    await new Promise((r) => setImmediate(r));
    expect(answered, 'answered before B read the revocation').to.equal(false);
    expect(b.get(tokenDigest('t1')), "B's copy, not yet told").to.not.equal(undefined);
    bus.release('access-tokens-revoked');
    await revoking;
    expect(b.get(tokenDigest('t1'))).to.equal(undefined);
    await a.stop();
    await b.stop();
  });

  it('a replica that never acknowledges delays the answer by ackWaitMs, not forever', async () => {
    const bus = new LocalBroadcast();
    const a = new VerifiedTokens(now, bus, { maxAgeSeconds: 30, maxEntries: 10, ackWaitMs: 20 });
    await a.start();
    // Another replica listening, paused: it hears nothing and says nothing.
    await bus.subscribe('access-tokens-revoked', () => undefined);
    a.put(tokenDigest('t1'), token(), a.mark);
    await a.revoked({ kind: 'token', digest: tokenDigest('t1') });
    expect(a.get(tokenDigest('t1'))).to.equal(undefined);
    await a.stop();
  });

  it('a lookup overtaken by a revocation is not kept (it may have read the token before its deletion)', async () => {
    const bus = new LocalBroadcast();
    const cache = new VerifiedTokens(now, bus);
    await cache.start();
    const mark = cache.mark;
    await bus.publish('access-tokens-revoked', JSON.stringify({ kind: 'token', digest: tokenDigest('other') }));
    cache.put(tokenDigest('t1'), token(), mark);
    expect(cache.get(tokenDigest('t1'))).to.equal(undefined);
    cache.put(tokenDigest('t1'), token(), cache.mark);
    expect(cache.get(tokenDigest('t1'))).to.not.equal(undefined);
    await cache.stop();
  });

  it('while the broadcast may lose messages nothing is cached, and what was is dropped', async () => {
    const bus = new LocalBroadcast();
    const cache = new VerifiedTokens(now, bus);
    await cache.start();
    cache.put('a', token(), cache.mark);
    bus.setReliable(false);
    expect(cache.get('a')).to.equal(undefined);
    cache.put('a', token(), cache.mark);
    expect(cache.size).to.equal(0);
    bus.setReliable(true);
    cache.put('a', token(), cache.mark);
    expect(cache.get('a')).to.not.equal(undefined);
    await cache.stop();
  });

  it('ignores a message it does not understand', async () => {
    const bus = new LocalBroadcast();
    const cache = new VerifiedTokens(now, bus);
    await cache.start();
    cache.put('a', token(), cache.mark);
    await bus.publish('access-tokens-revoked', 'not json');
    await bus.publish('access-tokens-revoked', JSON.stringify({ kind: 'token', digest: 42 }));
    expect(cache.get('a')).to.not.equal(undefined);
    await cache.stop();
  });
});
