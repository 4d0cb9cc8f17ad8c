/**
 * What one rendering may spend. Rendering is synchronous, so a template that loops 10^8
 * times or builds a gigabyte string blocks every other caller of the process until it
 * ends; a budget stops it early with an error naming the limit.
 *
 * One Budget is shared by every template rendered under it (a step's arguments are one
 * rendering however many strings they hold), so its counters live here and the executor
 * increments them in place (the checks sit on the hottest paths of rendering: plain fields,
 * no calls, unless a limit is near).
 *
 * Time is measured in ticks and read from the clock rarely: a range iteration, a
 * {{template}} call and a function call are one tick each, and every 64 characters a
 * function builds are one more (building a string costs its length). The clock starts at
 * the FIRST_CLOCK_TICKS-th tick, so the short renderings that make up nearly all step
 * arguments never read it; what runs before is a handful of ticks. Functions whose cost grows
 * with their input also tick inside their own loops (spendWork), so one call cannot outlast
 * the clock either.
 */
import type { ValueSizes } from './value-size.js';

/** The three limits; Switchboard's are `aggregator.limits.templates`. */
export interface BudgetLimits {
  /** Range iterations, all loops together. */
  readonly maxIterations: number;
  /** UTF-8 bytes written to the output; no single value a function builds may be larger either. */
  readonly maxOutputBytes: number;
  /** Wall time of the rendering. */
  readonly maxMilliseconds: number;
}

export type BudgetLimit = keyof BudgetLimits;

const FIRST_CLOCK_TICKS = 16;
/** Ticks between two reads of the clock: rare enough to cost nothing, often enough to stop within a millisecond or so. */
const CLOCK_TICKS = 256;
/** A built string of 2^6 = 64 characters counts as one tick. */
const CHARS_PER_TICK_SHIFT = 6;

const UNLIMITED: BudgetLimits = { maxIterations: Infinity, maxOutputBytes: Infinity, maxMilliseconds: Infinity };

export class Budget {
  /** Copied out of `limits` so the hot checks read one object. */
  readonly maxIterations: number;
  readonly maxOutputBytes: number;
  iterations = 0;
  outputBytes = 0;
  /** Ticks left before the clock is read; the executor decrements it. */
  untilClock = FIRST_CLOCK_TICKS;
  /**
   * The written-out size of every list and map measured in this rendering (value-size.ts),
   * made on first use: most renderings build none.
   */
  sizes: ValueSizes | null = null;
  /** -1 until the clock is first read. */
  private deadline = -1;
  private started = 0;

  /**
   * `setting` names where the limits come from (`aggregator.limits.templates`), so that an
   * over-budget message says which setting raises it.
   */
  constructor(
    readonly limits: BudgetLimits = UNLIMITED,
    readonly setting = '',
  ) {
    this.maxIterations = limits.maxIterations;
    this.maxOutputBytes = limits.maxOutputBytes;
  }

  /** Called when untilClock reaches 0: reads the clock; true once the wall-time limit has passed. */
  clock(): boolean {
    this.untilClock = CLOCK_TICKS;
    const now = performance.now();
    if (this.deadline < 0) {
      this.started = now;
      this.deadline = now + this.limits.maxMilliseconds;
      return false;
    }
    return now > this.deadline;
  }

  /** One tick; true when the wall-time limit has passed. */
  tick(): boolean {
    return --this.untilClock <= 0 && this.clock();
  }

  /** A function built `chars` characters: a tick, and its length brings the next clock read closer. */
  built(chars: number): boolean {
    this.untilClock -= chars >> CHARS_PER_TICK_SHIFT;
    return this.tick();
  }

  /**
   * Milliseconds spent since the clock started; 0 for a rendering too short to have read
   * it (fewer than 16 ticks), which costs no clock read at all.
   */
  elapsed(): number {
    return this.deadline < 0 ? 0 : performance.now() - this.started;
  }

  /** `aggregator.limits.templates.maxIterations`, or the bare limit without a setting. */
  settingOf(limit: BudgetLimit): string {
    return this.setting === '' ? limit : `${this.setting}.${limit}`;
  }
}

/**
 * Thrown by a function that would build more than the budget allows (a list of 10^9
 * numbers, a string of 10^9 repetitions) before building it; the executor reports it as a
 * TemplateBudgetError for `limit`.
 */
export class FunctionBudgetError extends Error {
  constructor(
    readonly limit: BudgetLimit,
    readonly what: string,
  ) {
    super(what);
  }
}

/** A function is about to build a list of `n` elements: each counts as a loop iteration. */
export function spendIterations(budget: Budget, n: number, name: string): void {
  budget.iterations += n;
  if (budget.iterations > budget.maxIterations) {
    throw new FunctionBudgetError('maxIterations', `${name} would build ${n} elements, more than ${budget.maxIterations} loop iterations allow`);
  }
}

/**
 * `units` steps of a function's own loop (an element compared, a rune converted, a match
 * found): they bring the next clock read closer, and once the wall-time limit has passed
 * the function stops where it is. This is what bounds a function whose cost grows with its
 * input (uniq of 100,000 items, kebabcase of a megabyte) between two function calls.
 */
export function spendWork(budget: Budget, units: number, name: string): void {
  if ((budget.untilClock -= units) <= 0 && budget.clock()) {
    throw new FunctionBudgetError('maxMilliseconds', `rendering took more than ${budget.limits.maxMilliseconds} ms (in ${name})`);
  }
}

/** A function is about to build a string of about `bytes` UTF-8 bytes. */
export function spendBytes(budget: Budget, bytes: number, name: string): void {
  if (bytes > budget.maxOutputBytes) {
    throw new FunctionBudgetError('maxOutputBytes', `${name} would build a value of ${bytes} bytes, more than ${budget.maxOutputBytes}`);
  }
}
