/**
 * runSeriesTaps (kernel/series-taps.ts): synchronous taps run in place, in the hook's order,
 * a throw reaching the caller as the awaited promise's rejection did; anything that waits or
 * intercepts runs as tapable runs it.
 */
import { expect } from 'chai';
import { AsyncSeriesHook } from 'tapable';
import { runSeriesTaps } from '../../kernel/series-taps.js';

describe('runSeriesTaps: onRequest without a promise when every tap is synchronous', () => {
  it('runs synchronous taps at once, in stage order, and returns nothing to await', () => {
    const hook = new AsyncSeriesHook<[string[]]>(['seen']);
    hook.tap({ name: 'late', stage: 100 }, (seen) => void seen.push('late'));
    hook.tap('first', (seen) => void seen.push('first'));
    hook.tap({ name: 'early', stage: -10 }, (seen) => void seen.push('early'));
    const seen: string[] = [];
    expect(runSeriesTaps(hook, seen)).to.equal(undefined);
    expect(seen).to.deep.equal(['early', 'first', 'late']);
  });

  it('a throwing tap throws the same error and stops the taps after it, as the promise rejected', async () => {
    const refusal = new Error('refused');
    const build = () => {
      const hook = new AsyncSeriesHook<[string[]]>(['seen']);
      hook.tap('a', (seen) => void seen.push('a'));
      hook.tap('b', () => {
        throw refusal;
      });
      hook.tap('c', (seen) => void seen.push('c'));
      return hook;
    };
    const here: string[] = [];
    expect(() => runSeriesTaps(build(), here)).to.throw(refusal);
    const tapable: string[] = [];
    const rejected = await build()
      .promise(tapable)
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(rejected).to.equal(refusal);
    expect(here).to.deep.equal(tapable).and.deep.equal(['a']);
  });

  it('a tap that waits, or an interceptor, gets the hook run by tapable, whose promise is returned', async () => {
    const waits = new AsyncSeriesHook<[string[]]>(['seen']);
    waits.tap('sync', (seen) => void seen.push('sync'));
    waits.tapPromise('waits', async (seen) => {
      await new Promise((r) => setTimeout(r, 5));
      seen.push('waited');
    });
    const seen: string[] = [];
    const pending = runSeriesTaps(waits, seen);
    expect(pending).to.be.instanceOf(Promise);
    await pending;
    expect(seen).to.deep.equal(['sync', 'waited']);

    const intercepted = new AsyncSeriesHook<[string[]]>(['seen']);
    const calls: string[] = [];
    intercepted.intercept({ call: () => void calls.push('intercepted') });
    intercepted.tap('sync', (s) => void s.push('sync'));
    const pendingToo = runSeriesTaps(intercepted, []);
    expect(pendingToo).to.be.instanceOf(Promise);
    await pendingToo;
    expect(calls).to.deep.equal(['intercepted']);
  });

  it('a hook nobody taps costs nothing', () => {
    expect(runSeriesTaps(new AsyncSeriesHook<[number]>(['n']), 1)).to.equal(undefined);
  });
});
