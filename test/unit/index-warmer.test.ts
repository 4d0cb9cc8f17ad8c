/**
 * The search index is built once a burst of catalogue changes is over (plugins/meta-tools/
 * index-warmer.ts): the built-in tools registering, servers connecting one after another.
 * Timed by a clock of the test's own, so nothing here waits on the machine.
 */
import { expect } from 'chai';
import { onceAfterBurst, type BurstClock } from '../../plugins/meta-tools/index-warmer.js';

/** A clock that moves only when told, running what fell due on the way. */
function manualClock(): BurstClock & { advance(ms: number): void } {
  let now = 0;
  let timers: { at: number; run: () => void }[] = [];
  return {
    now: () => now,
    after(ms, run) {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return { cancel: () => void (timers = timers.filter((t) => t !== timer)) };
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.run();
      }
      now = until;
    },
  };
}

describe('the search index warmer: one build per burst of catalogue changes', () => {
  it('builds once, the quiet period after the last change of a burst, not after its first', () => {
    const clock = manualClock();
    const builds: number[] = [];
    const changed = onceAfterBurst(() => builds.push(clock.now()), 250, 2_000, clock);
    // The built-in tools, then three servers connecting 200 ms apart.
    for (let i = 0; i < 4; i++) {
      changed();
      clock.advance(200);
    }
    expect(builds).to.deep.equal([]);
    clock.advance(100);
    expect(builds).to.deep.equal([850]);
    clock.advance(5_000);
    expect(builds, 'nothing changed since').to.have.length(1);
  });

  it('a catalogue that never stops changing is still built, at most 2 s after the first change', () => {
    const clock = manualClock();
    const builds: number[] = [];
    const changed = onceAfterBurst(() => builds.push(clock.now()), 250, 2_000, clock);
    for (let t = 0; t < 5_000; t += 100) {
      changed();
      clock.advance(100);
    }
    expect(builds).to.deep.equal([2_000, 4_000]);
  });

  it('a change after a build starts a burst of its own', () => {
    const clock = manualClock();
    const builds: number[] = [];
    const changed = onceAfterBurst(() => builds.push(clock.now()), 250, 2_000, clock);
    changed();
    clock.advance(1_000);
    changed();
    clock.advance(1_000);
    expect(builds).to.deep.equal([250, 1_250]);
  });
});
