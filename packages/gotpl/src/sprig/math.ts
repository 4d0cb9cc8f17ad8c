/**
 * sprig's math functions. The integer ones convert each argument the int64 way (cast:
 * strings parsed, floats truncated, anything else 0) and wrap on overflow like Go; the
 * float ones go through decimal arithmetic (decimal.ts) or Go's math package.
 */
import type { Budget } from '../budget.js';
import { spendIterations } from '../budget.js';
import { int64, toFloat64, toInt64 } from './convert.js';
import * as dec from './decimal.js';
import type { FunctionGroup } from './define.js';
import { F, fixed, I, INT, variadic } from './define.js';

function add64(a: number, b: number): number {
  const r = a + b;
  return Number.isSafeInteger(r) ? r : int64(BigInt(a) + BigInt(b));
}

function mul64(a: number, b: number): number {
  const r = a * b;
  return Number.isSafeInteger(r) ? r : int64(BigInt(a) * BigInt(b));
}

const DIVIDE_BY_ZERO = 'runtime error: integer divide by zero';

function div64(a: number, b: number): number {
  if (b === 0) throw new Error(DIVIDE_BY_ZERO);
  return int64(BigInt(a) / BigInt(b));
}

function mod64(a: number, b: number): number {
  if (b === 0) throw new Error(DIVIDE_BY_ZERO);
  return int64(BigInt(a) % BigInt(b));
}

/** sprig's untilStep: start, start+step, ... short of stop. */
export function untilStep(start: number, stop: number, step: number, budget: Budget, name: string): number[] {
  if (stop < start ? step >= 0 : step <= 0) return [];
  const count = Math.ceil(Math.abs((stop - start) / step));
  spendIterations(budget, count, name);
  const out = new Array<number>(count);
  for (let i = 0, v = start; i < count; i++, v += step) out[i] = v;
  return out;
}

function seq(params: readonly number[], budget: Budget): string {
  let start: number;
  let end: number;
  let step: number;
  switch (params.length) {
    case 1:
      start = 1;
      end = params[0]!;
      step = end < start ? -1 : 1;
      return untilStep(start, end + step, step, budget, 'seq').join(' ');
    case 2:
      start = params[0]!;
      end = params[1]!;
      step = end < start ? -1 : 1;
      return untilStep(start, end + step, step, budget, 'seq').join(' ');
    case 3: {
      start = params[0]!;
      end = params[2]!;
      step = params[1]!;
      let increment = 1;
      if (end < start) {
        increment = -1;
        if (step > 0) return '';
      }
      return untilStep(start, end + increment, step, budget, 'seq').join(' ');
    }
  }
  return '';
}

function decimalOp(
  first: unknown,
  rest: readonly unknown[],
  op: (a: ReturnType<typeof dec.fromFloat>, b: ReturnType<typeof dec.fromFloat>) => ReturnType<typeof dec.fromFloat>,
): number {
  let acc = dec.fromFloat(toFloat64(first));
  for (const x of rest) acc = op(acc, dec.fromFloat(toFloat64(x)));
  return dec.toFloat(acc);
}

/** Go's math.Max and math.Min: NaN wins, and +0 is larger than -0. */
function maxf(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  if (a === 0 && b === 0) return Object.is(a, -0) ? b : a;
  return a > b ? a : b;
}

function minf(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  if (a === 0 && b === 0) return Object.is(a, -0) ? a : b;
  return a < b ? a : b;
}

/** math.Frexp: frac in [0.5, 1) and exp with x = frac * 2^exp. */
function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  let exp = Math.max(-1073, Math.floor(Math.log2(Math.abs(x))) + 1);
  let frac = x * 2 ** -exp;
  while (Math.abs(frac) < 0.5) {
    frac *= 2;
    exp--;
  }
  while (Math.abs(frac) >= 1) {
    frac /= 2;
    exp++;
  }
  return [frac, exp];
}

/** math.Ldexp without overflowing in the intermediate power of two. */
function ldexp(frac: number, exp: number): number {
  const half = Math.trunc(exp / 2);
  return frac * 2 ** half * 2 ** (exp - half);
}

/**
 * Go's math.Pow for an integer exponent: repeated squaring, whose rounding differs from
 * JavaScript's ** (Go's 10^42 is not the double nearest 1e42), which round's results show.
 */
function goPowInt(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (y === 1) return x;
  if (Number.isNaN(x)) return NaN;
  if (x === 0) return y < 0 ? Infinity : 0;
  let a1 = 1;
  let ae = 0;
  let [x1, xe] = frexp(x);
  for (let i = Math.abs(y); i !== 0; i = Math.floor(i / 2)) {
    if (xe < -(1 << 12) || 1 << 12 < xe) {
      ae += xe;
      break;
    }
    if (i % 2 === 1) {
      a1 *= x1;
      ae += xe;
    }
    x1 *= x1;
    xe *= 2;
    if (x1 < 0.5) {
      x1 += x1;
      xe--;
    }
  }
  if (y < 0) {
    a1 = 1 / a1;
    ae = -ae;
  }
  return ldexp(a1, ae);
}

function round(a: unknown, places: number, roundOn: number): number {
  const pow = goPowInt(10, places);
  const digit = pow * toFloat64(a);
  const frac = digit - Math.trunc(digit);
  return (frac >= roundOn ? Math.ceil(digit) : Math.floor(digit)) / pow;
}

function max64(a: unknown[]): number {
  let m = toInt64(a[0]);
  for (let i = 1; i < a.length; i++) m = Math.max(m, toInt64(a[i]));
  return m;
}

function min64(a: unknown[]): number {
  let m = toInt64(a[0]);
  for (let i = 1; i < a.length; i++) m = Math.min(m, toInt64(a[i]));
  return m;
}

export const MATH: FunctionGroup = {
  add1: fixed([I], (a) => add64(toInt64(a[0]), 1)),
  add: variadic([], I, (a) => a.reduce<number>((sum, x) => add64(sum, toInt64(x)), 0)),
  sub: fixed([I, I], (a) => add64(toInt64(a[0]), -toInt64(a[1]))),
  div: fixed([I, I], (a) => div64(toInt64(a[0]), toInt64(a[1]))),
  mod: fixed([I, I], (a) => mod64(toInt64(a[0]), toInt64(a[1]))),
  mul: variadic([I], I, (a) => a.slice(1).reduce<number>((p, x) => mul64(p, toInt64(x)), toInt64(a[0]))),
  max: variadic([I], I, max64),
  biggest: variadic([I], I, max64),
  min: variadic([I], I, min64),
  maxf: variadic([I], I, (a) => a.slice(1).reduce<number>((m, x) => maxf(m, toFloat64(x)), toFloat64(a[0]))),
  minf: variadic([I], I, (a) => a.slice(1).reduce<number>((m, x) => minf(m, toFloat64(x)), toFloat64(a[0]))),
  floor: fixed([I], (a) => Math.floor(toFloat64(a[0]))),
  ceil: fixed([I], (a) => Math.ceil(toFloat64(a[0]))),
  round: variadic([I, INT], F, (a) => round(a[0], a[1] as number, a.length > 2 ? (a[2] as number) : 0.5)),
  add1f: fixed([I], (a) => decimalOp(a[0], [1], dec.add)),
  addf: variadic([], I, (a) => decimalOp(0, a, dec.add)),
  subf: variadic([I], I, (a) => decimalOp(a[0], a.slice(1), dec.sub)),
  mulf: variadic([I], I, (a) => decimalOp(a[0], a.slice(1), dec.mul)),
  divf: variadic([I], I, (a) => decimalOp(a[0], a.slice(1), dec.div)),
  seq: variadic([], INT, (a, { budget }) => seq(a as number[], budget)),
  until: fixed([INT], (a, { budget }) => {
    const count = a[0] as number;
    return untilStep(0, count, count < 0 ? -1 : 1, budget, 'until');
  }),
  untilStep: fixed([INT, INT, INT], (a, { budget }) => untilStep(a[0] as number, a[1] as number, a[2] as number, budget, 'untilStep')),
};
