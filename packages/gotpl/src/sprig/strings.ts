/**
 * sprig's string functions (strings.go and the strings, goutils and xstrings functions
 * its function map names). Lengths and offsets are UTF-8 bytes, as in Go.
 */
import type { Budget } from '../budget.js';
import { spendBytes, spendIterations, spendWork } from '../budget.js';
import { sprintf } from '../fmt-printf.js';
import { compareStrings, isAscii, trimSpace, utf8Length, utf8Slice } from '../unicode.js';
import { setKey, strslice, strval } from './convert.js';
import type { FunctionGroup } from './define.js';
import { fixed, I, INT, S, variadic } from './define.js';
import { charsOf, mapRunes, toLowerRune, toUpperRune } from './runes.js';

/** strings.Replace(s, old, new, -1); an empty old matches around every character. */
function replaceAll(s: string, from: string, to: string, budget: Budget): string {
  if (from !== '') return s.split(from).join(to);
  return to + charsOf(s, budget, 'replace').join(to) + (s === '' ? '' : to);
}

/** Non-overlapping occurrences of a non-empty `sub`, as strings.Count finds them. */
function occurrences(s: string, sub: string): number {
  let n = 0;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

/** strings.Repeat, after checking the result against the budget. */
export function repeat(s: string, count: number, budget: Budget, name: string): string {
  if (count < 0) throw new Error('strings: negative Repeat count');
  spendBytes(budget, utf8Length(s) * count, name);
  return s.repeat(count);
}

/** strings.Split: an empty separator splits after each UTF-8 sequence. */
export function splitList(s: string, sep: string, budget: Budget, name: string): string[] {
  if (sep !== '') {
    const parts = s.split(sep);
    spendIterations(budget, parts.length, name);
    return parts;
  }
  // Counted before the parts are built: a megabyte of characters is refused, not split
  // first; what passes is at most maxIterations parts, which Array.from builds natively.
  spendIterations(budget, codePoints(s), name);
  return Array.from(s);
}

/** How many code points `s` holds (what Array.from(s) would give), without building them. */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--;
      i++;
    }
  }
  return n;
}

/** strings.SplitN. */
function splitN(s: string, sep: string, n: number, budget: Budget): string[] {
  if (n === 0) return [];
  if (n < 0) return splitList(s, sep, budget, 'splitn');
  spendIterations(budget, Math.min(n, s.length + 1), 'splitn');
  if (sep === '') {
    const chars = charsOf(s, budget, 'splitn');
    if (chars.length <= n) return chars;
    return [...chars.slice(0, n - 1), chars.slice(n - 1).join('')];
  }
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

/** strings.Trim(s, cutset): removes leading and trailing runes found in cutset. */
function trimCutset(s: string, cutset: string, budget: Budget, name: string): string {
  if (s === '' || cutset === '') return s;
  const cut = new Set(charsOf(cutset, budget, name));
  const chars = charsOf(s, budget, name);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi && cut.has(chars[lo]!)) lo++;
  while (hi > lo && cut.has(chars[hi - 1]!)) hi--;
  return chars.slice(lo, hi).join('');
}

/** The runtime's message for s[lo:hi] out of range, as a recovered panic reads. */
function boundsError(lo: number | null, hi: number | null, len: number): Error {
  if (lo === null) return new Error(`runtime error: slice bounds out of range [:${hi}]${hi! < 0 ? '' : ` with length ${len}`}`);
  if (hi === null) return new Error(`runtime error: slice bounds out of range [${lo}:${len}]`);
  return new Error(`runtime error: slice bounds out of range [${lo}:${hi}]`);
}

function byteSlice(s: string, lo: number, hi: number): string {
  return isAscii(s) ? s.slice(lo, hi) : utf8Slice(s, lo, hi);
}

/** sprig's substring(start, end, s). */
function substr(start: number, end: number, s: string): string {
  const len = utf8Length(s);
  if (start < 0) {
    if (end < 0 || end > len) throw boundsError(null, end, len);
    return byteSlice(s, 0, end);
  }
  if (end < 0 || end > len) {
    if (start > len) throw boundsError(start, null, len);
    return byteSlice(s, start, len);
  }
  if (start > end) throw boundsError(start, end, len);
  return byteSlice(s, start, end);
}

/** sprig's trunc(c, s): the first c bytes, or the last -c. */
function trunc(c: number, s: string): string {
  const len = utf8Length(s);
  if (c < 0 && len + c > 0) return byteSlice(s, len + c, len);
  if (c >= 0 && len > c) return byteSlice(s, 0, c);
  return s;
}

function indent(spaces: number, s: string, budget: Budget, name: string): string {
  const pad = repeat(' ', spaces, budget, name);
  const lines = s.split('\n').length;
  spendBytes(budget, utf8Length(s) + spaces * lines, name);
  return pad + s.replaceAll('\n', '\n' + pad);
}

function nonNil(args: readonly unknown[]): unknown[] {
  return args.filter((a) => a !== null && a !== undefined);
}

/** strings.Join, after checking that the parts together fit the output budget. */
function joinWithin(parts: readonly string[], sep: string, budget: Budget, name: string): string {
  let length = sep.length * Math.max(parts.length - 1, 0);
  for (const p of parts) length += p.length;
  spendBytes(budget, length, name);
  return parts.join(sep);
}

/** sortAlpha's sort, each comparison a step on the clock (n log n of them). */
function sortAlpha(parts: string[], budget: Budget): string[] {
  return parts.sort((x, y) => {
    spendWork(budget, 1, 'sortAlpha');
    return compareStrings(x, y);
  });
}

/** Maps _0, _1, ... to the parts, as sprig's split and splitn return them. */
function indexedMap(parts: readonly string[]): Record<string, unknown> {
  const m: Record<string, unknown> = {};
  parts.forEach((p, i) => setKey(m, `_${i}`, p));
  return m;
}

export const STRINGS: FunctionGroup = {
  trim: fixed([S], (a) => trimSpace(a[0] as string)),
  trimAll: fixed([S, S], (a, { budget }) => trimCutset(a[1] as string, a[0] as string, budget, 'trimAll')),
  trimall: fixed([S, S], (a, { budget }) => trimCutset(a[1] as string, a[0] as string, budget, 'trimall')),
  trimPrefix: fixed([S, S], (a) => {
    const [p, s] = a as [string, string];
    return s.startsWith(p) ? s.slice(p.length) : s;
  }),
  trimSuffix: fixed([S, S], (a) => {
    const [p, s] = a as [string, string];
    return p !== '' && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
  }),
  upper: fixed([S], (a, { budget }) => (isAscii(a[0] as string) ? (a[0] as string).toUpperCase() : mapRunes(a[0] as string, toUpperRune, budget, 'upper'))),
  lower: fixed([S], (a, { budget }) => (isAscii(a[0] as string) ? (a[0] as string).toLowerCase() : mapRunes(a[0] as string, toLowerRune, budget, 'lower'))),
  repeat: fixed([INT, S], (a, { budget }) => repeat(a[1] as string, a[0] as number, budget, 'repeat')),
  substr: fixed([INT, INT, S], (a) => substr(a[0] as number, a[1] as number, a[2] as string)),
  trunc: fixed([INT, S], (a) => trunc(a[0] as number, a[1] as string)),
  contains: fixed([S, S], (a) => (a[1] as string).includes(a[0] as string)),
  hasPrefix: fixed([S, S], (a) => (a[1] as string).startsWith(a[0] as string)),
  hasSuffix: fixed([S, S], (a) => (a[1] as string).endsWith(a[0] as string)),
  quote: variadic([], I, (a, { budget }) =>
    joinWithin(
      nonNil(a).map((x) => sprintf('%q', [strval(x, budget)], budget)),
      ' ',
      budget,
      'quote',
    ),
  ),
  squote: variadic([], I, (a, { budget }) =>
    joinWithin(
      nonNil(a).map((x) => sprintf("'%v'", [x], budget)),
      ' ',
      budget,
      'squote',
    ),
  ),
  cat: variadic([], I, (a, { budget }) =>
    joinWithin(
      nonNil(a).map((x) => sprintf('%v', [x], budget)),
      ' ',
      budget,
      'cat',
    ),
  ),
  indent: fixed([INT, S], (a, { budget }) => indent(a[0] as number, a[1] as string, budget, 'indent')),
  nindent: fixed([INT, S], (a, { budget }) => '\n' + indent(a[0] as number, a[1] as string, budget, 'nindent')),
  replace: fixed([S, S, S], (a, { budget }) => {
    const [from, to, s] = a as [string, string, string];
    if (to.length > from.length) {
      const count = from === '' ? s.length + 1 : occurrences(s, from);
      spendBytes(budget, utf8Length(s) + count * (utf8Length(to) - utf8Length(from)), 'replace');
    }
    return replaceAll(s, from, to, budget);
  }),
  plural: fixed([S, S, INT], (a) => (a[2] === 1 ? a[0] : a[1])),
  toString: fixed([I], (a, { budget }) => strval(a[0], budget)),
  toStrings: fixed([I], (a, { budget }) => strslice(a[0], budget, 'toStrings')),
  /** Switchboard's documented split returns a list; sprig's returns a map (see docs/gotpl.md). */
  split: fixed([S, S], (a, { budget }) => splitList(a[1] as string, a[0] as string, budget, 'split')),
  splitList: fixed([S, S], (a, { budget }) => splitList(a[1] as string, a[0] as string, budget, 'splitList')),
  splitn: fixed([S, INT, S], (a, { budget }) => indexedMap(splitN(a[2] as string, a[0] as string, a[1] as number, budget))),
  join: fixed([S, I], (a, { budget }) => joinWithin(strslice(a[1], budget, 'join'), a[0] as string, budget, 'join')),
  sortAlpha: fixed([I], (a, { budget }) => (Array.isArray(a[0]) ? sortAlpha(strslice(a[0], budget, 'sortAlpha'), budget) : [strval(a[0])])),
};
