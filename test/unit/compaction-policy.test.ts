/**
 * When the idle full collection runs (app/cli/compaction-policy.ts): after a burst, once quiet;
 * never under load; and, because a compaction sends the JIT back to cold code, less and less
 * often for a process whose calls keep coming back right after one.
 */
import { expect } from 'chai';
import { CompactionPolicy, type CompactionPolicyOptions } from '../../app/cli/compaction-policy.js';

const MiB = 1024 * 1024;
const OPTIONS: CompactionPolicyOptions = { idleUtilisation: 0.05, growthBytes: 4 * MiB, regretMs: 30_000, maxQuietIntervals: 32 };
const INTERVAL = 2000;

/** Drives a policy interval by interval, running the collection whenever it says so. */
class Watcher {
  readonly policy = new CompactionPolicy(OPTIONS, 80 * MiB);
  now = 0;
  rss = 80 * MiB;
  compactions: number[] = [];

  /** `n` intervals at `utilisation`, RSS growing by `growth` bytes each; a compaction brings RSS back to `floor`. */
  run(n: number, utilisation: number, growth = 0, floor = 80 * MiB): this {
    for (let i = 0; i < n; i++) {
      this.now += INTERVAL;
      this.rss += growth;
      if (this.policy.next({ utilisation, rss: this.rss, now: this.now })) {
        this.rss = floor;
        this.policy.compacted(this.rss, this.now);
        this.compactions.push(this.now);
      }
    }
    return this;
  }

  /** A burst of calls (one busy interval growing RSS by `growth`) and then `quiet` quiet intervals. */
  round(quiet: number, growth = 12 * MiB): this {
    return this.run(1, 0.8, growth).run(quiet, 0.01);
  }
}

describe('idle compaction policy', () => {
  it('compacts start-up garbage at the first quiet interval, whatever the growth', () => {
    const w = new Watcher().run(1, 0.01);
    expect(w.compactions).to.deep.equal([INTERVAL]);
  });

  it('never compacts in a busy interval, however much RSS grew', () => {
    const w = new Watcher().run(1, 0.01).run(10, 0.5, 20 * MiB);
    expect(w.compactions).to.have.length(1);
  });

  it('compacts after a burst once quiet, and only when RSS grew by the threshold since the last compaction', () => {
    const w = new Watcher().run(1, 0.01);
    w.run(1, 0.8, 3 * MiB).run(3, 0.01);
    expect(w.compactions, 'growth under 4 MiB').to.have.length(1);
    w.run(1, 0.8, 2 * MiB).run(1, 0.01);
    expect(w.compactions, 'growth of 5 MiB').to.have.length(2);
  });

  it('a discovery right after start-up is compacted at the first quiet interval: the start-up compaction is not held against it', () => {
    const w = new Watcher().run(1, 0.01);
    w.round(1);
    expect(w.compactions).to.have.length(2);
    expect(w.compactions[1]! - w.compactions[0]!).to.equal(2 * INTERVAL);
  });

  it('calls back soon after a compaction make the next one wait four times longer, up to the cap', () => {
    const w = new Watcher().run(1, 0.01).round(1);
    expect(w.compactions, 'start-up, then the first burst').to.have.length(2);
    expect(w.policy.quietIntervalsNeeded).to.equal(1);
    w.round(3); // calls back 2 s after that compaction: the next waits for 4 quiet intervals
    expect(w.policy.quietIntervalsNeeded).to.equal(4);
    expect(w.compactions, 'after 3 quiet intervals').to.have.length(2);
    w.run(1, 0.01);
    expect(w.compactions, 'after the fourth').to.have.length(3);
    w.round(15);
    expect(w.policy.quietIntervalsNeeded).to.equal(16);
    expect(w.compactions).to.have.length(3);
    w.run(1, 0.01);
    expect(w.compactions).to.have.length(4);
    w.round(1);
    expect(w.policy.quietIntervalsNeeded, 'capped').to.equal(32);
  });

  it('rounds of calls with short pauses stop costing compactions after the first few', () => {
    const w = new Watcher().run(1, 0.01);
    for (let r = 0; r < 20; r++) w.round(3);
    expect(w.compactions.length, `compactions at ${w.compactions.join(', ')} ms`).to.be.at.most(4);
  });

  it('a compaction followed by a long quiet was what it is for: the wait goes back to one interval', () => {
    const w = new Watcher().run(1, 0.01).round(1).round(1).round(4);
    expect(w.policy.quietIntervalsNeeded).to.be.above(1);
    w.run(16, 0.01); // 32 s with no calls after the last compaction
    expect(w.policy.quietIntervalsNeeded).to.equal(1);
    const before = w.compactions.length;
    w.round(1);
    expect(w.compactions).to.have.length(before + 1);
  });
});
