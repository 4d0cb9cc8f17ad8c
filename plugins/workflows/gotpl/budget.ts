/**
 * What one rendering may spend. Rendering is synchronous, so a template that loops 10^8
 * times or builds a gigabyte string blocks every other caller of the process until it
 * ends; a budget stops it early with an error naming the limit.
 *
 * One Budget is shared by every template rendered under it (a step's arguments are one
 * rendering however many strings they hold), so its counters live here and the executor
 * only increments them. The clock is read rarely: every CLOCK_TICKS ticks, where a range
 * iteration, a {{template}} call and a function call are one tick each, and every 64
 * characters a function builds are one more (building a string costs its length).
 */

/** The three limits; Switchboard's are `aggregator.limits.templates`. */
export interface BudgetLimits {
  /** Range iterations, all loops together. */
  readonly maxIterations: number;
  /** UTF-8 bytes written to the output; no single value a function builds may be larger either. */
  readonly maxOutputBytes: number;
  /** Wall time from the budget's creation. */
  readonly maxMilliseconds: number;
}

export type BudgetLimit = keyof BudgetLimits;

/** Ticks between two reads of the clock: rare enough to cost nothing, often enough to stop within a millisecond or so. */
const CLOCK_TICKS = 256;
/** A built string of this many characters counts as one tick. */
const CHARS_PER_TICK_SHIFT = 6;

const UNLIMITED: BudgetLimits = { maxIterations: Infinity, maxOutputBytes: Infinity, maxMilliseconds: Infinity };

export class Budget {
  iterations = 0;
  outputBytes = 0;
  private untilClock = CLOCK_TICKS;
  private readonly deadline: number;

  /**
   * `setting` names where the limits come from (`aggregator.limits.templates`), so that an
   * over-budget message says which setting raises it.
   */
  constructor(
    readonly limits: BudgetLimits = UNLIMITED,
    readonly setting = '',
  ) {
    this.deadline = limits.maxMilliseconds === Infinity ? Infinity : performance.now() + limits.maxMilliseconds;
  }

  /** One unit of work; true when the wall-time limit has passed. */
  tick(): boolean {
    if (--this.untilClock > 0) return false;
    this.untilClock = CLOCK_TICKS;
    return performance.now() > this.deadline;
  }

  /** A function built `chars` characters: counts towards the next read of the clock. */
  built(chars: number): boolean {
    this.untilClock -= chars >> CHARS_PER_TICK_SHIFT;
    return this.tick();
  }

  /** Whether `n` more output bytes stay within the limit (they are counted when they do). */
  write(n: number): boolean {
    const total = this.outputBytes + n;
    if (total > this.limits.maxOutputBytes) return false;
    this.outputBytes = total;
    return true;
  }

  /** `(aggregator.limits.templates.maxIterations)`, or the bare limit without a setting. */
  settingOf(limit: BudgetLimit): string {
    return this.setting === '' ? limit : `${this.setting}.${limit}`;
  }
}
