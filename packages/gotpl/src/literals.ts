/**
 * Go literal syntax: strconv.Unquote for strings and character constants, and the
 * strconv.ParseInt/ParseUint/ParseFloat dance that parse.newNumber uses to decide what a
 * number literal is. Runs at compile time only, so clarity beats speed here.
 */
import { quoteString } from './unicode.js';

/** A literal that strconv rejects; the message is Go's error text. */
export class LiteralError extends Error {}

const SYNTAX = 'invalid syntax';

function unhex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

interface Unquoted {
  value: number;
  /** false for \x and octal escapes, which denote a single byte rather than a rune. */
  multibyte: boolean;
  next: number;
}

/** strconv.UnquoteChar applied at s[i]. */
function unquoteChar(s: string, i: number, quote: number): Unquoted {
  if (i >= s.length) throw new LiteralError(SYNTAX);
  const c = s.charCodeAt(i);
  if (c === quote) throw new LiteralError(SYNTAX);
  if (c >= 0x80) {
    const cp = s.codePointAt(i)!;
    return { value: cp, multibyte: true, next: i + (cp > 0xffff ? 2 : 1) };
  }
  if (c !== 0x5c) return { value: c, multibyte: false, next: i + 1 };
  if (i + 1 >= s.length) throw new LiteralError(SYNTAX);
  const e = s.charCodeAt(i + 1);
  let j = i + 2;
  const simple: Record<number, number> = { 0x61: 7, 0x62: 8, 0x66: 12, 0x6e: 10, 0x72: 13, 0x74: 9, 0x76: 11, 0x5c: 0x5c };
  if (simple[e] !== undefined) return { value: simple[e], multibyte: false, next: j };
  if (e === 0x78 || e === 0x75 || e === 0x55) {
    const n = e === 0x78 ? 2 : e === 0x75 ? 4 : 8;
    if (j + n > s.length) throw new LiteralError(SYNTAX);
    let v = 0;
    for (let k = 0; k < n; k++) {
      const x = unhex(s.charCodeAt(j + k));
      if (x < 0) throw new LiteralError(SYNTAX);
      v = v * 16 + x;
    }
    j += n;
    if (e === 0x78) return { value: v, multibyte: false, next: j };
    if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) throw new LiteralError(SYNTAX);
    return { value: v, multibyte: true, next: j };
  }
  if (e >= 0x30 && e <= 0x37) {
    let v = e - 0x30;
    if (j + 2 > s.length) throw new LiteralError(SYNTAX);
    for (let k = 0; k < 2; k++) {
      const x = s.charCodeAt(j + k) - 0x30;
      if (x < 0 || x > 7) throw new LiteralError(SYNTAX);
      v = (v << 3) | x;
    }
    if (v > 255) throw new LiteralError(SYNTAX);
    return { value: v, multibyte: false, next: j + 2 };
  }
  if (e === 0x27 || e === 0x22) {
    if (e !== quote) throw new LiteralError(SYNTAX);
    return { value: e, multibyte: false, next: j };
  }
  throw new LiteralError(SYNTAX);
}

/** strconv.Unquote for the two string forms the lexer produces. */
export function unquoteString(quoted: string): string {
  const body = quoted.slice(1, -1);
  if (quoted[0] === '`') return body.includes('\r') ? body.replaceAll('\r', '') : body;
  if (!body.includes('\\') && !body.includes('"')) return body;
  // \x and octal escapes are raw bytes that may or may not form UTF-8, so build bytes.
  const bytes: number[] = [];
  let i = 0;
  while (i < body.length) {
    const u = unquoteChar(body, i, 0x22);
    i = u.next;
    if (u.value < 0x80 || !u.multibyte) bytes.push(u.value);
    else bytes.push(...Buffer.from(String.fromCodePoint(u.value), 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A number literal as text/template sees it. */
export interface NumberLiteral {
  readonly value: number;
  /** Go's idealConstant would fail with "overflows int" (an unsigned value above MaxInt64). */
  readonly overflowsInt: boolean;
}

/** strconv's underscoreOK: underscores only between digits, or after a base prefix. */
export function underscoreOK(text: string): boolean {
  let s = text;
  if (s[0] === '+' || s[0] === '-') s = s.slice(1);
  let saw = '^';
  let i = 0;
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1]!)) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/** strconv.ParseUint(s, 0, 64): undefined on a syntax error, 'range' on overflow. */
function parseUint(s: string): bigint | 'range' | undefined {
  if (s === '') return undefined;
  let base = 10;
  let digits = s;
  if (s[0] === '0') {
    const p = s[1]?.toLowerCase();
    if (s.length >= 3 && p === 'b') [base, digits] = [2, s.slice(2)];
    else if (s.length >= 3 && p === 'o') [base, digits] = [8, s.slice(2)];
    else if (s.length >= 3 && p === 'x') [base, digits] = [16, s.slice(2)];
    else [base, digits] = [8, s.slice(1)];
  }
  let n = 0n;
  let underscores = false;
  for (const ch of digits) {
    if (ch === '_') {
      underscores = true;
      continue;
    }
    const d = parseInt(ch, 36);
    if (Number.isNaN(d) || d >= base) return undefined;
    n = n * BigInt(base) + BigInt(d);
  }
  if (underscores && !underscoreOK(s)) return undefined;
  return n > 0xffffffffffffffffn ? 'range' : n;
}

/** strconv.ParseInt(s, 0, 64). */
function parseInt64(s: string): bigint | undefined {
  const neg = s[0] === '-';
  const u = parseUint(s[0] === '+' || neg ? s.slice(1) : s);
  if (typeof u !== 'bigint') return undefined;
  if (neg ? u > 1n << 63n : u >= 1n << 63n) return undefined;
  return neg ? -u : u;
}

const DECIMAL_FLOAT = /^[+-]?(?=\.?[0-9])[0-9_]*(?:\.[0-9_]*)?(?:[eE][+-]?[0-9_]+)?$/;
const HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F_]*)(?:\.([0-9a-fA-F_]*))?[pP]([+-]?[0-9_]+)$/;

/** strconv.ParseFloat(s, 64); undefined on syntax or range errors. */
function parseFloat64(s: string): number | undefined {
  if (!underscoreOK(s)) return undefined;
  const plain = s.replaceAll('_', '');
  let value: number;
  const hex = HEX_FLOAT.exec(plain);
  if (hex) {
    const [, sign, whole = '', frac = '', exp = '0'] = hex;
    if (whole === '' && frac === '') return undefined;
    const mantissa = BigInt('0x' + (whole + frac || '0'));
    value = Number(mantissa) * 2 ** (Number(exp) - 4 * frac.length);
    if (sign === '-') value = -value;
  } else if (DECIMAL_FLOAT.test(plain)) {
    value = Number(plain);
  } else {
    return undefined;
  }
  return Number.isFinite(value) ? value : undefined;
}

/**
 * parse.newNumber followed by exec's idealConstant: what value does this literal denote?
 * `text` is a Number, CharConstant or Complex token.
 */
export function parseNumberLiteral(text: string, isChar: boolean, isComplex: boolean): NumberLiteral {
  if (isChar) {
    const u = unquoteChar(text, 1, 0x27);
    if (text.slice(u.next) !== "'") throw new LiteralError(`malformed character constant: ${text}`);
    return { value: u.value, overflowsInt: false };
  }
  if (isComplex || text.endsWith('i')) {
    // Deliberate difference: Go has complex128; JavaScript has no such type.
    throw new LiteralError(`complex numbers are not supported: ${quoteString(text)}`);
  }
  const u = parseUint(text);
  const i = parseInt64(text);
  if (i !== undefined) return { value: Number(i), overflowsInt: false };
  // Fits uint64 but not int64: idealConstant reports that it overflows int.
  if (typeof u === 'bigint') return { value: Number(u), overflowsInt: true };
  const f = parseFloat64(text);
  if (f === undefined) throw new LiteralError(`illegal number syntax: ${quoteString(text)}`);
  // Parsed as a float but looks like an integer: too large for int64.
  if (!/[.eEpP]/.test(text)) throw new LiteralError(`integer overflow: ${quoteString(text)}`);
  return { value: f, overflowsInt: false };
}
