/** sprig's conversions: int and int64 (cast.ToInt64), float64, atoi (strconv.Atoi) and toDecimal (octal text to an integer). */
import { sprintf } from '../fmt-printf.js';
import { parseInt64, toFloat64, toInt64 } from './convert.js';
import type { FunctionGroup } from './define.js';
import { fixed, I, S } from './define.js';

/** strconv.Atoi, whose error sprig ignores: 0, or the clamped value when out of range. */
function atoi(s: string): number {
  const n = parseInt64(s, 10);
  if (n !== undefined) return Number(n);
  if (/^[+-]?\d+$/.test(s)) return s.startsWith('-') ? -(2 ** 63) : 2 ** 63 - 1;
  return 0;
}

export const CONVERSION: FunctionGroup = {
  int: fixed([I], (a) => toInt64(a[0])),
  int64: fixed([I], (a) => toInt64(a[0])),
  float64: fixed([I], (a) => toFloat64(a[0])),
  atoi: fixed([S], (a) => atoi(a[0] as string)),
  toDecimal: fixed([I], (a) => {
    const n = parseInt64(sprintf('%v', [a[0] ?? null]), 8);
    return n === undefined ? 0 : Number(n);
  }),
};
