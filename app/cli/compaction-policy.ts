/**
 * When an idle full collection is worth what it costs (app/cli/idle-compaction.ts runs it).
 *
 * What it gives: memory a burst left behind (start-up, the first discovery, a flood of
 * registrations) goes back to the system. What it costs: V8 throws away optimized code that
 * holds objects only an in-flight request keeps alive (traced: 68 to 71 functions deoptimized,
 * "weak objects"), so the next few thousand calls run cold: +50 % CPU a call in Switchboard,
 * +70 % in a bare Node proxy given the same collection (bench/README.md, "A compaction's cost to
 * the JIT"). V8's own collections under load do not do that: the request in flight keeps them.
 *
 * So the policy learns from the traffic. A compaction after which calls come back within
 * `regretMs` bought memory the process needed again at once and paid a cold JIT for it: the next
 * one waits for a longer quiet (x4 each time, up to `maxQuietIntervals`). One after which the
 * process stays quiet was what it is for, and the wait goes back to one interval. The start-up
 * compaction is not judged: clients connecting right after start are the expected case.
 */

export interface CompactionPolicyOptions {
  /** Event-loop utilisation of an interval under which it counts as quiet. */
  idleUtilisation: number;
  /** Growth of the resident set since the last compaction that makes one worth it. */
  growthBytes: number;
  /** Calls back within this many ms of a compaction make the next wait longer. */
  regretMs: number;
  /** The longest quiet, in intervals, a compaction ever waits for. */
  maxQuietIntervals: number;
}

/** One sampling interval, as the watcher saw it. */
export interface IntervalSample {
  /** Event-loop utilisation over the interval, 0 to 1. */
  utilisation: number;
  /** Resident set size at its end, in bytes. */
  rss: number;
  /** When it ended, in ms on any monotonic clock. */
  now: number;
}

const BACK_OFF = 4;

export class CompactionPolicy {
  /** Start-up is a burst that happened before the first sample: the first quiet compacts. */
  private due = true;
  private settled: number;
  private quietNeeded = 1;
  private quiet = 0;
  /** When the last compaction ran, while what it cost is not yet known. */
  private unjudged: number | undefined;

  constructor(
    private readonly options: CompactionPolicyOptions,
    startRss: number,
  ) {
    this.settled = startRss;
  }

  /** How many quiet intervals the next compaction waits for. */
  get quietIntervalsNeeded(): number {
    return this.quietNeeded;
  }

  /** Takes one interval's sample; true when a full collection should run now. */
  next(sample: IntervalSample): boolean {
    if (sample.rss < this.settled) this.settled = sample.rss;
    if (sample.utilisation > this.options.idleUtilisation) {
      this.quiet = 0;
      if (this.unjudged !== undefined) this.judge(sample.now - this.unjudged <= this.options.regretMs);
      return false;
    }
    this.quiet++;
    if (this.unjudged !== undefined && sample.now - this.unjudged > this.options.regretMs) this.judge(false);
    if (!this.due && sample.rss - this.settled < this.options.growthBytes) return false;
    return this.quiet >= this.quietNeeded;
  }

  /** The collection ran at `now` and left `rss` resident. */
  compacted(rss: number, now: number): void {
    this.unjudged = this.due ? undefined : now;
    this.due = false;
    this.settled = rss;
    this.quiet = 0;
  }

  private judge(regretted: boolean): void {
    this.unjudged = undefined;
    this.quietNeeded = regretted ? Math.min(this.quietNeeded * BACK_OFF, this.options.maxQuietIntervals) : 1;
  }
}
