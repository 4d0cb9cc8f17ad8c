/**
 * encoding/json's encoder for template values, as sprig's toJson family uses it: map keys
 * sorted, Go's number format, Go's string escapes, NaN and infinities refused. One
 * Switchboard choice differs: `<`, `>` and `&` are not escaped (see docs/gotpl.md).
 */
import type { Budget } from '../budget.js';
import { spendWork } from '../budget.js';
import { compareStrings } from '../unicode.js';
import { GoStruct, isIntNumber, isMap, sortedKeys, typeName } from '../values.js';
import type { GoMap } from '../values.js';

/** A value encoding/json refuses, with its message. */
export class JsonEncodeError extends Error {}

const HEX = '0123456789abcdef';

/** What JSON.stringify writes differently from Go: U+2028, U+2029 (Go escapes them) and surrogates (lone ones are U+FFFD to Go). */
const NEEDS_GO_QUOTING = /[\u2028\u2029\ud800-\udfff]/;

function quote(s: string): string {
  // JSON.stringify escapes as Go does otherwise ("\n", "\u001f", "\b"), and natively fast.
  if (!NEEDS_GO_QUOTING.test(s)) return JSON.stringify(s);
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | null = null;
    if (c < 0x20) {
      esc = c === 0x0a ? '\\n' : c === 0x0d ? '\\r' : c === 0x09 ? '\\t' : c === 0x08 ? '\\b' : c === 0x0c ? '\\f' : '\\u00' + HEX[c >> 4]! + HEX[c & 15]!;
    } else if (c === 0x22) esc = '\\"';
    else if (c === 0x5c) esc = '\\\\';
    else if (c === 0x2028 || c === 0x2029) esc = c === 0x2028 ? '\\u2028' : '\\u2029';
    else if (c >= 0xd800 && c <= 0xdfff) {
      // A lone surrogate is invalid UTF-8 to Go, which writes U+FFFD for it.
      const pair = c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (pair) {
        i++;
        continue;
      }
      esc = '\\ufffd';
    }
    if (esc !== null) {
      out += s.slice(from, i) + esc;
      from = i + 1;
    }
  }
  return out + s.slice(from) + '"';
}

/** strconv.AppendFloat(f, 'f' or 'e', -1) as encoding/json chooses between them. */
function formatNumber(n: number): string {
  if (!Number.isFinite(n)) throw new JsonEncodeError(`json: unsupported value: ${Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf'}`);
  if (isIntNumber(n)) {
    if (Math.abs(n) < 1e21) return Object.is(n, -0) ? '0' : String(n);
    return BigInt(n).toString();
  }
  // JavaScript switches to exponents at the same bounds (1e-6, 1e21) and writes them as Go does.
  return String(n);
}

function encode(v: unknown, indent: string, depth: number, budget: Budget): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return quote(v);
    case 'number':
      return formatNumber(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
    case 'function':
      throw new JsonEncodeError(`json: unsupported type: ${typeName(v)}`);
  }
  if (v instanceof GoStruct) return encode(v.toJSON(), indent, depth, budget);
  const nl = indent === '' ? '' : '\n' + indent.repeat(depth + 1);
  const close = indent === '' ? '' : '\n' + indent.repeat(depth);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    let out = '[' + nl;
    for (let i = 0; i < v.length; i++) {
      spendWork(budget, 1, 'toJson');
      out += (i === 0 ? '' : ',' + nl) + encode(v[i], indent, depth + 1, budget);
    }
    return out + close + ']';
  }
  if (isMap(v)) {
    const keys = sortedKeys(v);
    if (keys.length === 0) return '{}';
    const sep = indent === '' ? ':' : ': ';
    let out = '{' + nl;
    for (let i = 0; i < keys.length; i++) {
      spendWork(budget, 1, 'toJson');
      out += (i === 0 ? '' : ',' + nl) + quote(keys[i]!) + sep + encode(v[keys[i]!], indent, depth + 1, budget);
    }
    return out + close + '}';
  }
  throw new JsonEncodeError(`json: unsupported type: ${typeName(v)}`);
}

/**
 * Whether JSON.stringify writes `v` as encoding/json would: keys already in sorted order,
 * finite numbers, strings without what Go quotes differently, nothing but JSON values. The
 * check is a walk without allocation, cheaper than encoding in JavaScript.
 */
function stringifyAgrees(v: unknown, budget: Budget): boolean {
  switch (typeof v) {
    case 'string':
      return !NEEDS_GO_QUOTING.test(v);
    case 'number':
      return Number.isFinite(v);
    case 'boolean':
      return true;
    case 'object': {
      if (v === null) return true;
      if (Array.isArray(v)) {
        for (const x of v) {
          spendWork(budget, 1, 'toJson');
          if (x === undefined || !stringifyAgrees(x, budget)) return false;
        }
        return true;
      }
      if (v instanceof GoStruct) return false;
      let prev: string | null = null;
      for (const k in v) {
        if (!Object.hasOwn(v, k) || NEEDS_GO_QUOTING.test(k)) return false;
        const x = (v as GoMap)[k];
        if (x === undefined) continue;
        spendWork(budget, 1, 'toJson');
        if ((prev !== null && compareStrings(prev, k) >= 0) || !stringifyAgrees(x, budget)) return false;
        prev = k;
      }
      return true;
    }
  }
  return false;
}

/**
 * json.Marshal (indent '') or json.MarshalIndent(v, "", indent). The walks tick the clock;
 * JSON.stringify cannot, but exec has refused a value larger written out than the output.
 */
export function marshal(v: unknown, indent: string, budget: Budget): string {
  if (indent === '' && stringifyAgrees(v, budget)) return JSON.stringify(v === undefined ? null : v);
  return encode(v, indent, 0, budget);
}
