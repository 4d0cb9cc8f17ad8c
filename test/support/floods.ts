/**
 * The adversarial-input check shared by the pattern tests: each flood (100,000 characters
 * shaped like the input a pattern reads) must be read in time linear in its length.
 *
 * A bound in milliseconds alone depends on an idle machine: a reading measured at 75 ms took
 * 617 ms of wall time in a suite run beside a compiler and failed its 500 ms bound. So a reading
 * is timed in the process's CPU time, which other processes do not inflate, and a flood read
 * within the bound passes at once; one that is not is measured against itself: the same flood
 * cut to a tenth of its length (its repeated unit fewer times), the best of three readings of
 * each, interleaved. A linear reading takes about ten times as long for ten times the input on
 * any machine; a backtracking one a hundred times or more.
 */
import { expect } from 'chai';

/** A full flood may take this many times its tenth: linear is 10, quadratic 100. */
const LINEAR_SCALE_BOUND = 30;
/** Readings of a tenth shorter than this are taken as this (a timer's and a collector's noise). */
const SMALLEST_TENTH_MS = 1;

/** The CPU milliseconds (user and system, every thread of this process) that reading `flood` took. */
function millisecondsOf(read: (flood: string) => void, flood: string): number {
  const before = process.cpuUsage();
  read(flood);
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

/** The shortest period (up to 64 characters) of the run in the middle of `flood`. */
function periodOf(flood: string): number {
  const middle = flood.length >> 1;
  for (let p = 1; p <= 64; p++) {
    let j = 0;
    while (j < 256 && flood.charCodeAt(middle + j) === flood.charCodeAt(middle + j + p)) j++;
    if (j === 256) return p;
  }
  throw new Error(`a flood is one unit repeated, and '${flood.slice(0, 20)}...' is not`);
}

/**
 * `flood` with nine tenths of its repeated run taken out, whole units at a time: the same
 * prefix, unit and suffix, a tenth as long.
 */
export function tenthOf(flood: string): string {
  const period = periodOf(flood);
  const from = Math.floor(flood.length * 0.05);
  const cut = Math.floor((flood.length * 0.9) / period) * period;
  for (let i = from; i < from + cut; i++)
    if (flood.charCodeAt(i) !== flood.charCodeAt(i + period))
      throw new Error(`a flood's run spans nine tenths of it, and '${flood.slice(0, 20)}...' breaks at ${i}`);
  return flood.slice(0, from) + flood.slice(from + cut);
}

/**
 * Runs `read` on each of `floods` and fails, naming the flood's start, when one is read
 * neither within `withinMs` nor within LINEAR_SCALE_BOUND times its tenth.
 */
export function expectEachFloodWithin(floods: readonly string[], withinMs: number, read: (flood: string) => void): void {
  for (const flood of floods) {
    const tenth = tenthOf(flood);
    // Unmeasured: a first reading also compiles, on threads whose CPU counts too.
    read(tenth);
    let fullMs = millisecondsOf(read, flood);
    if (fullMs < withinMs) continue;
    let tenthMs = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 3; round++) {
      tenthMs = Math.min(tenthMs, millisecondsOf(read, tenth));
      if (round > 0) fullMs = Math.min(fullMs, millisecondsOf(read, flood));
    }
    const bound = LINEAR_SCALE_BOUND * Math.max(tenthMs, SMALLEST_TENTH_MS);
    expect(fullMs, `${flood.slice(0, 20)}: over ${withinMs} ms, and over ${LINEAR_SCALE_BOUND}x its tenth's ${tenthMs.toFixed(1)} ms`).to.be.lessThan(bound);
  }
}
