/**
 * Number formatting of Go's fmt and strconv: integers in any base with flags, and floats
 * in %e %f %g %b %x with Go's rounding (exact decimal expansion, ties to even), which
 * JavaScript's toFixed/toExponential do not do (they round ties away from zero).
 */
import { runeCount } from './unicode.js';

/** The state of one fmt verb: flags, width and precision. */
export interface Flags {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  plusV: boolean;
  sharpV: boolean;
  widPresent: boolean;
  precPresent: boolean;
  wid: number;
  prec: number;
}

function repeat(ch: string, n: number): string {
  return n > 0 ? ch.repeat(n) : '';
}

/** fmt.writePadding: n pad characters, zeros only when padding on the left. */
export function padding(f: Flags, n: number): string {
  return repeat(f.zero && !f.minus ? '0' : ' ', n);
}

/** fmt.pad: s padded to the width, on the left unless the minus flag is set. */
export function pad(f: Flags, s: string): string {
  if (!f.widPresent || f.wid === 0) return s;
  const n = f.wid - runeCount(s);
  return f.minus ? s + padding(f, n) : padding(f, n) + s;
}

/** pad with zero padding disabled, as fmt does for numbers that handle zeros themselves. */
function padSpaces(f: Flags, s: string): string {
  const zero = f.zero;
  f.zero = false;
  const out = pad(f, s);
  f.zero = zero;
  return out;
}

function magnitude(n: number | bigint, base: number): string {
  if (typeof n === 'bigint') return (n < 0n ? -n : n).toString(base);
  const a = Math.abs(n);
  return a <= Number.MAX_SAFE_INTEGER ? a.toString(base) : BigInt(a).toString(base);
}

/** fmt.fmtInteger: base 2, 8, 10 or 16; verb 'O' adds 0o. */
export function formatInteger(f: Flags, n: number | bigint, base: number, verb: string, upper: boolean): string {
  const negative = n < 0;
  let prec = 0;
  if (f.precPresent) {
    prec = f.prec;
    // Precision 0 and value 0 means "print nothing" but padding.
    if (prec === 0 && (n === 0 || n === 0n)) return repeat(' ', f.wid);
  } else if (f.zero && !f.minus && f.widPresent) {
    prec = f.wid; // zero padding is done as precision, so that it comes after the sign
    if (negative || f.plus || f.space) prec--;
  }
  let digits = magnitude(n, base);
  if (upper) digits = digits.toUpperCase();
  if (digits.length < prec) digits = repeat('0', prec - digits.length) + digits;
  if (f.sharp) {
    if (base === 2) digits = '0b' + digits;
    else if (base === 8 && digits[0] !== '0') digits = '0' + digits;
    else if (base === 16) digits = (upper ? '0X' : '0x') + digits;
  }
  if (verb === 'O') digits = '0o' + digits;
  if (negative) digits = '-' + digits;
  else if (f.plus) digits = '+' + digits;
  else if (f.space) digits = ' ' + digits;
  return padSpaces(f, digits);
}

/** A rune for %c and friends: out-of-range values and surrogates become U+FFFD. */
export function toRune(n: number | bigint): number {
  const v = Number(n);
  return v < 0 || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) ? 0xfffd : v;
}

/** fmt.fmtUnicode: U+0041, or U+0041 'A' with the sharp flag. */
export function formatUnicode(f: Flags, n: number | bigint, printable: (cp: number) => boolean): string {
  const u = BigInt.asUintN(64, BigInt(n));
  let hex = u.toString(16).toUpperCase();
  const prec = f.precPresent && f.prec > 4 ? f.prec : 4;
  if (hex.length < prec) hex = repeat('0', prec - hex.length) + hex;
  let s = 'U+' + hex;
  if (f.sharp && u <= 0x10ffffn && printable(Number(u))) s += ` '${String.fromCodePoint(Number(u))}'`;
  return padSpaces(f, s);
}

// ---- floats ----

interface Digits {
  /** Significant decimal digits, no trailing zeros; '' for zero. */
  d: string;
  /** Position of the decimal point: value = 0.d × 10^dp. */
  dp: number;
}

const view = new DataView(new ArrayBuffer(8));

/** IEEE-754 decomposition: |v| = mant × 2^(exp-52), exp unbiased; Go's mant/exp pair. */
function decompose(v: number): { mant: bigint; exp: number } {
  view.setFloat64(0, v);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & 0xfffffffffffffn;
  let exp = biased;
  if (biased === 0) exp++;
  else mant |= 1n << 52n;
  return { mant, exp: exp - 1023 };
}

function trimZeros(d: Digits): Digits {
  let n = d.d.length;
  while (n > 0 && d.d.charCodeAt(n - 1) === 0x30) n--;
  return n === d.d.length ? d : { d: d.d.slice(0, n), dp: d.dp };
}

/** Shortest digits that round-trip; JavaScript and Go agree on these. */
function shortestDigits(a: number): Digits {
  if (a === 0) return { d: '', dp: 0 };
  const s = a.toExponential();
  const e = s.indexOf('e');
  return trimZeros({ d: s.slice(0, e).replace('.', ''), dp: Number(s.slice(e + 1)) + 1 });
}

/** The exact decimal expansion of a double (every double is a finite decimal). */
function exactDigits(a: number): Digits {
  if (a === 0) return { d: '', dp: 0 };
  const { mant, exp } = decompose(a);
  const shift = exp - 52;
  if (shift >= 0) {
    const d = (mant << BigInt(shift)).toString();
    return trimZeros({ d, dp: d.length });
  }
  const d = (mant * 5n ** BigInt(-shift)).toString();
  return trimZeros({ d, dp: d.length + shift });
}

/** strconv's decimal.Round to nd digits: ties go to even. */
function roundDigits(x: Digits, nd: number): Digits {
  if (nd < 0 || nd >= x.d.length) return x;
  const c = x.d.charCodeAt(nd);
  const up = c === 0x35 && nd + 1 === x.d.length ? nd > 0 && (x.d.charCodeAt(nd - 1) - 0x30) % 2 === 1 : c >= 0x35;
  if (!up) return trimZeros({ d: x.d.slice(0, nd), dp: x.dp });
  let i = nd - 1;
  while (i >= 0 && x.d[i] === '9') i--;
  if (i < 0) return { d: '1', dp: x.dp + 1 };
  return { d: x.d.slice(0, i) + String.fromCharCode(x.d.charCodeAt(i) + 1), dp: x.dp };
}

function fmtE(neg: boolean, x: Digits, prec: number, e: string): string {
  let s = (neg ? '-' : '') + (x.d.length > 0 ? x.d[0]! : '0');
  if (prec > 0) s += '.' + x.d.slice(1, prec + 1).padEnd(prec, '0');
  let exp = x.d.length === 0 ? 0 : x.dp - 1;
  const sign = exp < 0 ? '-' : '+';
  exp = Math.abs(exp);
  return s + e + sign + (exp < 10 ? `0${exp}` : String(exp));
}

function fmtF(neg: boolean, x: Digits, prec: number): string {
  let s = neg ? '-' : '';
  if (x.dp > 0) s += x.d.slice(0, x.dp).padEnd(x.dp, '0');
  else s += '0';
  if (prec > 0) {
    s += '.';
    for (let i = 1; i <= prec; i++) {
      const j = x.dp + i - 1;
      s += j >= 0 && j < x.d.length ? x.d[j]! : '0';
    }
  }
  return s;
}

function fmtB(neg: boolean, v: number): string {
  const { mant, exp } = decompose(v);
  const e = exp - 52;
  return `${neg ? '-' : ''}${mant}p${e >= 0 ? '+' : ''}${e}`;
}

const MASK64 = (1n << 64n) - 1n;

/** strconv's %x for floats: -0x1.8p+01. */
function fmtX(neg: boolean, v: number, prec: number, verb: string): string {
  let { mant, exp } = decompose(v);
  if (mant === 0n) exp = 0;
  mant <<= 8n; // leading 1 at bit 60
  while (mant !== 0n && (mant & (1n << 60n)) === 0n) {
    mant <<= 1n;
    exp--;
  }
  if (prec >= 0 && prec < 15) {
    const shift = BigInt(prec * 4);
    const extra = (mant << shift) & ((1n << 60n) - 1n);
    mant >>= 60n - shift;
    if ((extra | (mant & 1n)) > 1n << 59n) mant++;
    mant <<= 60n - shift;
    if ((mant & (1n << 61n)) !== 0n) {
      mant >>= 1n;
      exp++;
    }
  }
  const hex = verb === 'X' ? '0123456789ABCDEF' : '0123456789abcdef';
  let s = (neg ? '-' : '') + '0' + verb + String((mant >> 60n) & 1n);
  mant = (mant << 4n) & MASK64;
  if ((prec < 0 && mant !== 0n) || prec > 0) {
    s += '.';
    for (let i = 0; prec < 0 ? mant !== 0n : i < prec; i++) {
      s += hex[Number((mant >> 60n) & 15n)]!;
      mant = (mant << 4n) & MASK64;
    }
  }
  const sign = exp < 0 ? '-' : '+';
  exp = Math.abs(exp);
  return s + (verb === 'X' ? 'P' : 'p') + sign + (exp < 10 ? `0${exp}` : String(exp));
}

/** strconv.FormatFloat(v, verb, prec, 64); prec -1 means shortest. */
export function formatFloatBare(v: number, verb: string, prec: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const neg = v < 0 || Object.is(v, -0);
  if (verb === 'b') return fmtB(neg, Math.abs(v));
  if (verb === 'x' || verb === 'X') return fmtX(neg, Math.abs(v), prec, verb);
  const a = Math.abs(v);
  const lower = verb.toLowerCase();
  let x: Digits;
  const shortest = prec < 0;
  if (shortest) {
    x = shortestDigits(a);
    prec = lower === 'e' ? Math.max(x.d.length - 1, 0) : lower === 'f' ? Math.max(x.d.length - x.dp, 0) : x.d.length;
  } else {
    x = exactDigits(a);
    if (lower === 'e') x = roundDigits(x, prec + 1);
    else if (lower === 'f') x = roundDigits(x, x.dp + prec);
    else {
      if (prec === 0) prec = 1;
      x = roundDigits(x, prec);
    }
  }
  if (lower === 'e') return fmtE(neg, x, prec, verb);
  if (lower === 'f') return fmtF(neg, x, prec);
  // %g: %e for large and small exponents, %f otherwise.
  let eprec = prec;
  if (eprec > x.d.length && x.d.length >= x.dp) eprec = x.d.length;
  if (shortest) eprec = 6; // Go's rule for %v and %g without precision
  const exp = x.dp - 1;
  if (exp < -4 || exp >= eprec) {
    return fmtE(neg, x, Math.min(prec, x.d.length) - 1, verb === 'G' ? 'E' : 'e');
  }
  return fmtF(neg, x, Math.max((prec > x.dp ? x.d.length : prec) - x.dp, 0));
}

/** fmt.fmtFloat: strconv formatting plus sign, '#', zero padding and width. */
export function formatFloat(f: Flags, v: number, verb: string, defaultPrec: number): string {
  const prec = f.precPresent ? f.prec : defaultPrec;
  let num = formatFloatBare(v, verb, prec);
  // Reserve a sign position as fmt does: num[0] is always the sign from here on.
  if (num[0] !== '-' && num[0] !== '+') num = '+' + num;
  if (f.space && num[0] === '+' && !f.plus) num = ' ' + num.slice(1);
  if (num[1] === 'I' || num[1] === 'N') {
    // Infinities and NaN are not numbers to pad with zeros.
    if (num[1] === 'N' && !f.space && !f.plus) num = num.slice(1);
    return padSpaces(f, num);
  }
  if (f.sharp && verb !== 'b') num = sharpFloat(num, verb, prec);
  if (f.plus || num[0] !== '+') {
    // Zero padding goes between the sign and the digits.
    if (f.zero && !f.minus && f.widPresent && f.wid > num.length) {
      return num[0]! + padding(f, f.wid - num.length) + num.slice(1);
    }
    return pad(f, num);
  }
  return pad(f, num.slice(1));
}

/** The '#' flag: always print a decimal point; %g keeps trailing zeros. */
function sharpFloat(num: string, verb: string, prec: number): string {
  let digits = 0;
  if (verb === 'v' || verb === 'g' || verb === 'G' || verb === 'x') digits = prec === -1 ? 6 : prec;
  let tail = '';
  let hasPoint = false;
  let sawNonzero = false;
  let body = num;
  for (let i = 1; i < body.length; i++) {
    const c = body[i]!;
    if (c === '.') {
      hasPoint = true;
      continue;
    }
    if (c === 'p' || c === 'P' || ((c === 'e' || c === 'E') && verb !== 'x' && verb !== 'X')) {
      tail = body.slice(i);
      body = body.slice(0, i);
      break;
    }
    if (c !== '0') sawNonzero = true;
    if (sawNonzero) digits--;
  }
  if (!hasPoint) {
    if (body.length === 2 && body[1] === '0') digits--; // a lone leading 0 counts once
    body += '.';
  }
  if (digits > 0) body += '0'.repeat(digits);
  return body + tail;
}
