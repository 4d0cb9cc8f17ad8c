import { expect } from 'chai';
import { RenewableSecret } from '../../lib/secrets/renewable-secret.js';

describe('a credential read again when it is refused (renewable-secret)', () => {
  /** A reference whose value the test sets (a file, secrets.env), on a clock the test moves. */
  function kept(first: string) {
    const store = { value: first as string | Error, reads: 0, now: 10_000 };
    const secret = RenewableSecret.of(
      () => {
        store.reads++;
        if (store.value instanceof Error) throw store.value;
        return store.value;
      },
      () => store.now,
    );
    return { store, secret };
  }

  it('resolves at start; a refusal reads it again and says whether it changed', async () => {
    const { store, secret } = kept('key-1');
    expect(secret.current).to.equal('key-1');
    expect(await secret.refused('key-1'), 'unchanged').to.equal(false);
    store.value = 'key-2';
    store.now += 1000;
    expect(await secret.refused('key-1')).to.equal(true);
    expect(secret.current).to.equal('key-2');
  });

  it('requests refused together all retry with the renewed value, though only the first read it', async () => {
    const { store, secret } = kept('key-1');
    store.value = 'key-2';
    expect(await Promise.all([secret.refused('key-1'), secret.refused('key-1'), secret.refused('key-1')])).to.deep.equal([true, true, true]);
    expect(store.reads, 'the start, then one read').to.equal(2);
    expect(await secret.refused('key-2'), 'the new value refused too: nothing newer to send').to.equal(false);
  });

  it('a read that takes a while (a Secret from the API server): refusals meanwhile wait for it', async () => {
    let release: (value: string) => void = () => undefined;
    let reads = 0;
    const secret = new RenewableSecret('key-1', () => {
      reads++;
      return new Promise<string>((resolve) => (release = resolve));
    });
    const first = secret.refused('key-1');
    const second = secret.refused('key-1');
    release('key-2');
    expect(await Promise.all([first, second])).to.deep.equal([true, true]);
    expect(reads).to.equal(1);
    expect(secret.current).to.equal('key-2');
  });

  it('keeps the value in use when the reference no longer resolves or reads empty (a save caught halfway)', async () => {
    const { store, secret } = kept('key-1');
    store.value = new Error('cannot read the referenced file');
    expect(await secret.refused('key-1')).to.equal(false);
    store.value = '';
    store.now += 1000;
    expect(await secret.refused('key-1')).to.equal(false);
    expect(secret.current).to.equal('key-1');
  });

  it('reads at most once a second, however many requests are refused', async () => {
    const { store, secret } = kept('key-1');
    store.value = 'key-2';
    for (let i = 0; i < 100; i++) await secret.refused('key-1');
    expect(store.reads, 'the start, then one read').to.equal(2);
    store.value = 'key-3';
    expect(await secret.refused('key-2'), 'within the second').to.equal(false);
    store.now += 1000;
    expect(await secret.refused('key-2')).to.equal(true);
    expect(secret.current).to.equal('key-3');
  });

  it('fresh(): the value as presented to Switchboard, read again at most once a second', async () => {
    const { store, secret } = kept('key-1');
    store.value = 'key-2';
    expect(await secret.fresh()).to.equal('key-2');
    store.value = 'key-3';
    expect(await secret.fresh(), 'within the second').to.equal('key-2');
    store.now += 1000;
    expect(await secret.fresh()).to.equal('key-3');
    expect(store.reads, 'the start, then two reads').to.equal(3);
  });

  it('a reference that cannot be resolved at start fails the start, as before', () => {
    expect(() =>
      RenewableSecret.of(() => {
        throw new Error('embedder.openai.apiKey: ${KEY} is not set');
      }),
    ).to.throw(/is not set/);
  });
});
