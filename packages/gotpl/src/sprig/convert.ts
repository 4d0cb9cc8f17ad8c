/**
 * The conversions every sprig group shares, as sprig and the spf13/cast library it uses
 * perform them: int64 conversion (strings parsed with Go's base prefixes, floats
 * truncated, anything unconvertible 0), float64 conversion, strval, emptiness, reflect's
 * kinds and DeepEqual, and the messages of the Go runtime panics sprig functions raise.
 */
import type { Budget } from '../budget.js';
import { spendWork } from '../budget.js';
import { sprintf } from '../fmt-printf.js';
import { GoStruct, isIntNumber, isMap, kindOf, Kind, mapSize, typeName } from '../values.js';
import type { GoMap } from '../values.js';
import { underscoreOK } from '../literals.js';

/** What a Go function panics with when it dereferences a nil interface's type (reflect.TypeOf(nil).Kind()). */
export const NIL_DEREFERENCE = 'runtime error: invalid memory address or nil pointer dereference';

const MIN_INT64 = -(2 ** 63);
const INT64_LIMIT = 2n ** 63n;

/** An int64 result as a number: wrapped like Go's two's-complement arithmetic. */
export function int64(x: bigint): number {
  return Number(BigInt.asIntN(64, x));
}

/** Go's int64(f) on amd64: truncation, and the "integer indefinite" value for NaN and out-of-range floats. */
export function truncFloat(f: number): number {
  if (Number.isNaN(f) || f >= 2 ** 63 || f < MIN_INT64) return MIN_INT64;
  return Math.trunc(f) || 0;
}

/** cast's trimZeroDecimal: "5.00" -> "5", so that ParseInt accepts it. */
function trimZeroDecimal(s: string): string {
  let foundZero = false;
  for (let i = s.length; i > 0; i--) {
    const c = s[i - 1];
    if (c === '.') {
      if (foundZero) return s.slice(0, i - 1);
    } else if (c === '0') foundZero = true;
    else return s;
  }
  return s;
}

/** strconv.ParseInt(s, base, 64); undefined for a syntax or range error. */
export function parseInt64(s: string, base: 0 | 8 | 10): bigint | undefined {
  if (s === '') return undefined;
  let body = s;
  let neg = false;
  if (body[0] === '+' || body[0] === '-') {
    neg = body[0] === '-';
    body = body.slice(1);
  }
  let radix: number = base;
  let underscores = false;
  if (base === 0) {
    radix = 10;
    if (body[0] === '0') {
      const p = body[1]?.toLowerCase();
      if (p === 'x' || p === 'o' || p === 'b') {
        radix = p === 'x' ? 16 : p === 'o' ? 8 : 2;
        body = body.slice(2);
      } else {
        radix = 8;
        body = body.slice(1);
        if (body === '') return 0n;
      }
    }
    underscores = true;
  }
  if (body === '') return undefined;
  if (underscores && body.includes('_')) {
    if (!underscoreOK(s)) return undefined;
    body = body.replaceAll('_', '');
  }
  const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, radix);
  let n = 0n;
  const r = BigInt(radix);
  for (const c of body.toLowerCase()) {
    const d = digits.indexOf(c);
    if (d < 0) return undefined;
    n = n * r + BigInt(d);
    if (n > INT64_LIMIT) return undefined;
  }
  if (neg) n = -n;
  if (n >= INT64_LIMIT || n < -INT64_LIMIT) return undefined;
  return n;
}

const DECIMAL_FLOAT = /^[+-]?(?:[\d_]+\.?[\d_]*|\.[\d_]+)(?:[eE][+-]?[\d_]+)?$/;
const HEX_FLOAT = /^([+-]?)0[xX]((?:[0-9a-fA-F_]+\.?[0-9a-fA-F_]*|\.[0-9a-fA-F_]+))[pP]([+-]?\d+)$/;
const SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;

/** strconv.ParseFloat(s, 64); undefined for a syntax or range error. */
export function parseFloat64(s: string): number | undefined {
  if (DECIMAL_FLOAT.test(s)) {
    if (s.includes('_') && !underscoreOK(s)) return undefined;
    const f = Number(s.replaceAll('_', ''));
    return Number.isFinite(f) ? f : undefined;
  }
  const special = SPECIAL_FLOAT.exec(s);
  if (special !== null) {
    if (special[2]!.toLowerCase() === 'nan') return NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  const hex = HEX_FLOAT.exec(s);
  if (hex === null || !underscoreOK(s.replace(/[pP].*$/, ''))) return undefined;
  const [int, frac = ''] = hex[2]!.replaceAll('_', '').split('.');
  const mantissa = parseInt((int ?? '') + frac || '0', 16);
  const f = mantissa * 2 ** (Number(hex[3]) - 4 * frac.length);
  if (!Number.isFinite(f)) return undefined;
  return hex[1] === '-' ? -f : f;
}

/** cast.ToInt64 (and cast.ToInt, the same on 64-bit Go): 0 for what it cannot convert. */
export function toInt64(v: unknown): number {
  switch (typeof v) {
    case 'number':
      return isIntNumber(v) ? v : truncFloat(v);
    case 'bigint':
      return int64(v);
    case 'boolean':
      return v ? 1 : 0;
    case 'string': {
      const n = parseInt64(trimZeroDecimal(v), 0);
      return n === undefined ? 0 : Number(n);
    }
  }
  return 0;
}

/** cast.ToFloat64: 0 for what it cannot convert. */
export function toFloat64(v: unknown): number {
  switch (typeof v) {
    case 'number':
      return v;
    case 'bigint':
      return Number(v);
    case 'boolean':
      return v ? 1 : 0;
    case 'string':
      return parseFloat64(v) ?? 0;
  }
  return 0;
}

/** sprig's strval: strings as they are, Stringers through String(), anything else as %v. */
export function strval(v: unknown, budget: Budget | null = null): string {
  if (typeof v === 'string') return v;
  if (v instanceof GoStruct) return v.goString();
  return sprintf('%v', [v === undefined ? null : v], budget);
}

/**
 * sprig's strslice: the non-nil elements of a list as strings; a single value as a
 * one-element list. With a budget, each element is a step on the clock (join, sortAlpha).
 */
export function strslice(v: unknown, budget?: Budget, name = 'strslice'): string[] {
  if (Array.isArray(v)) {
    const out: string[] = [];
    for (const x of v) {
      if (budget !== undefined) spendWork(budget, 1, name);
      if (x !== null && x !== undefined) out.push(strval(x, budget ?? null));
    }
    return out;
  }
  if (v === null || v === undefined) return [];
  return [strval(v)];
}

/** sprig's empty: nil, false, 0, "" and empty collections; structs never are. */
export function empty(v: unknown): boolean {
  switch (typeof v) {
    case 'undefined':
      return true;
    case 'string':
      return v.length === 0;
    case 'number':
      return v === 0;
    case 'bigint':
      return v === 0n;
    case 'boolean':
      return !v;
    case 'object':
      if (v === null) return true;
      if (Array.isArray(v)) return v.length === 0;
      if (v instanceof GoStruct) return false;
      return mapSize(v as GoMap) === 0;
  }
  return false;
}

/** reflect.Kind.String() of the value in an interface{}. */
export function kindName(v: unknown): string {
  if (v === null || v === undefined) return 'invalid';
  switch (kindOf(v)) {
    case Kind.String:
      return 'string';
    case Kind.Int:
      return 'int';
    case Kind.Float:
      return 'float64';
    case Kind.Bool:
      return 'bool';
    case Kind.Slice:
      return 'slice';
    case Kind.Map:
      return 'map';
    case Kind.Func:
      return 'func';
  }
  return v instanceof GoStruct ? v.goKind : 'invalid';
}

/** reflect.TypeOf(v).Kind().String(), which panics for nil as in Go. */
export function kindOfNonNil(v: unknown): string {
  if (v === null || v === undefined) throw new Error(NIL_DEREFERENCE);
  return kindName(v);
}

/** fmt's %T. */
export function goTypeOf(v: unknown): string {
  return v === null || v === undefined ? '<nil>' : typeName(v);
}

/** reflect.DeepEqual on JSON-like values: same type, same contents. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === null || b === null) return a === b;
  if (typeName(a) !== typeName(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    if (a.length !== bs.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bs[i])) return false;
    return true;
  }
  if (a instanceof GoStruct) return a.goString() === (b as GoStruct).goString();
  if (isMap(a)) {
    const bm = b as GoMap;
    if (mapSize(a) !== mapSize(bm)) return false;
    for (const k of Object.keys(a)) {
      if (a[k] === undefined) continue;
      if (!Object.hasOwn(bm, k) || bm[k] === undefined || !deepEqual(a[k], bm[k])) return false;
    }
    return true;
  }
  return a === b;
}

/**
 * Sets a key on a map as data: an own property even for `__proto__` or `constructor`, so
 * that a template cannot reach Object.prototype through `set` or `dict`.
 */
export function setKey(m: GoMap, key: string, value: unknown): void {
  Object.defineProperty(m, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A fresh map for a function's result. */
export function newMap(): GoMap {
  return {};
}
