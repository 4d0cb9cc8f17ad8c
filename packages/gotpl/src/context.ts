/** What a template function may use besides its arguments: the rendering's budget and clock. */
import type { Budget } from './budget.js';

/** Milliseconds since the Unix epoch, as Date.now() answers. */
export type Clock = () => number;

export interface CallContext {
  readonly budget: Budget;
  /** The clock `now` and the date functions read; fixed in tests. */
  readonly now: Clock;
}
