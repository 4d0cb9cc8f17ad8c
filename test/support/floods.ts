/**
 * The adversarial-input check shared by the pattern tests: each flood (100,000 characters
 * shaped like the input a pattern reads) must be read within a bound that a linear reading
 * meets on a busy machine and a backtracking one cannot.
 */
import { expect } from 'chai';

/** Runs `read` on each of `floods` and fails, naming the flood's start, when one takes `withinMs` or more. */
export function expectEachFloodWithin(floods: readonly string[], withinMs: number, read: (flood: string) => void): void {
  for (const flood of floods) {
    const started = process.hrtime.bigint();
    read(flood);
    expect(Number(process.hrtime.bigint() - started) / 1e6, flood.slice(0, 20)).to.be.lessThan(withinMs);
  }
}
