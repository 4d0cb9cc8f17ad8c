/**
 * The arithmetic behind sprig's float functions (addf, subf, mulf, divf, add1f): each
 * float64 becomes the shortest decimal that reads back as it (shopspring/decimal's
 * NewFromFloat), the operations are exact in decimal, division rounds half away from zero
 * to 16 decimal places, and the result is the float64 nearest the decimal. So `addf 0.1
 * 0.2` is 0.3, not 0.30000000000000004.
 */

interface Decimal {
  readonly coef: bigint;
  readonly exp: number;
}

/** Decimal digits kept by division (shopspring's DivisionPrecision). */
const DIVISION_PRECISION = 16;

export function fromFloat(f: number): Decimal {
  if (!Number.isFinite(f)) throw new Error(`Cannot create a Decimal from ${Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf'}`);
  if (f === 0) return { coef: 0n, exp: 0 };
  // JavaScript's shortest round-trip digits are the same as Go's strconv 'g' with -1.
  const [mantissa, e = '0'] = f.toString().split('e');
  const [int, frac = ''] = mantissa!.split('.');
  return { coef: BigInt(int! + frac), exp: Number(e) - frac.length };
}

export function toFloat(d: Decimal): number {
  return Number(`${d.coef}e${d.exp}`);
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  if (a.exp === b.exp) return [a.coef, b.coef, a.exp];
  if (a.exp < b.exp) return [a.coef, b.coef * 10n ** BigInt(b.exp - a.exp), a.exp];
  return [a.coef * 10n ** BigInt(a.exp - b.exp), b.coef, b.exp];
}

export function add(a: Decimal, b: Decimal): Decimal {
  const [x, y, exp] = align(a, b);
  return { coef: x + y, exp };
}

export function sub(a: Decimal, b: Decimal): Decimal {
  const [x, y, exp] = align(a, b);
  return { coef: x - y, exp };
}

export function mul(a: Decimal, b: Decimal): Decimal {
  return { coef: a.coef * b.coef, exp: a.exp + b.exp };
}

/** DivRound(b, 16): the quotient as a multiple of 10^-16, ties away from zero. */
export function div(a: Decimal, b: Decimal): Decimal {
  if (b.coef === 0n) throw new Error('decimal division by 0');
  // a/b = (a.coef / b.coef) * 10^(a.exp - b.exp); scale so the quotient is in units of 10^-(P+1).
  const shift = a.exp - b.exp + DIVISION_PRECISION + 1;
  let num = a.coef;
  let den = b.coef;
  if (shift >= 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  const negative = num < 0n !== den < 0n;
  const abs = (num < 0n ? -num : num) / (den < 0n ? -den : den);
  let q = abs / 10n;
  if (abs % 10n >= 5n) q += 1n;
  return { coef: negative ? -q : q, exp: -DIVISION_PRECISION };
}
