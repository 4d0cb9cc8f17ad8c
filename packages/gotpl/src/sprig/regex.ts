/**
 * sprig's regular-expression functions on Go's RE2 syntax and semantics, through re2js (a
 * port of RE2/J): matching takes time linear in the input whatever the pattern, so a
 * pattern written to backtrack catastrophically (`(a+)+$`) cannot stall the process, and
 * what RE2 lacks (backreferences, lookaround) is refused with Go's own message. Compiled
 * patterns are cached. The loops around single matches (find all, replace all, split) are
 * Go's, ported from regexp.go, including where they allow empty matches.
 */
import type { Budget } from '../budget.js';
import { spendBytes, spendIterations, spendWork } from '../budget.js';
import { canBackquote, quoteString, utf8Length } from '../unicode.js';
import { compileRe2, type RE2JS } from './re2.js';
import type { FunctionGroup } from './define.js';
import { fixed, INT, S } from './define.js';

/** Compiled patterns kept, least recently used dropped first. */
const CACHE_SIZE = 256;
/** Longest pattern accepted; RE2 bounds a program's size, this bounds the parse. */
const MAX_PATTERN = 4096;
const cache = new Map<string, RE2JS | Error>();

/** regexp.Compile: the pattern, or the error Go reports for it. */
function compile(pattern: string): RE2JS | Error {
  const hit = cache.get(pattern);
  if (hit !== undefined) {
    cache.delete(pattern);
    cache.set(pattern, hit);
    return hit;
  }
  let compiled: RE2JS | Error;
  if (pattern.length > MAX_PATTERN) compiled = new Error(`error parsing regexp: expression too large`);
  else {
    try {
      compiled = compileRe2(pattern);
    } catch (e) {
      compiled = new Error((e as Error).message);
    }
  }
  cache.set(pattern, compiled);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return compiled;
}

/** regexp.MustCompile, whose panic the template reports. */
function mustCompile(pattern: string): RE2JS {
  const re = compile(pattern);
  if (re instanceof Error) throw new Error(`regexp: Compile(${canBackquote(pattern) ? '`' + pattern + '`' : quoteString(pattern)}): ${re.message}`);
  return re;
}

/** regexp.Compile for the must... variants, which return its error. */
function compileOrThrow(pattern: string): RE2JS {
  const re = compile(pattern);
  if (re instanceof Error) throw re;
  return re;
}

type Match = readonly number[];

/** One match at or after `pos`, as [start, end, group starts and ends...] (-1 for unmatched groups), or null. */
function matchAt(re: RE2JS, s: string, pos: number, groups: boolean): Match | null {
  const m = re.matcher(s);
  if (!m.find(pos)) return null;
  const out = [m.start(), m.end()];
  if (groups) for (let g = 1; g <= re.groupCount(); g++) out.push(m.start(g), m.end(g));
  return out;
}

/** Width of the rune at i in UTF-16 units, 1 at the end (where Go's width is 0 but its loops step by one). */
function runeWidth(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
}

/** regexp.allMatches: up to n matches (all when n < 0), no empty match right after a match. */
function allMatches(re: RE2JS, s: string, n: number, groups: boolean, budget: Budget, name: string): Match[] {
  if (n < 0) n = s.length + 1;
  const out: Match[] = [];
  for (let pos = 0, prevEnd = -1; out.length < n && pos <= s.length;) {
    const m = matchAt(re, s, pos, groups);
    if (m === null) break;
    // Every match costs at least the text it covers; the clock is read inside the loop.
    spendWork(budget, 1 + ((m[1]! - pos) >> 6), name);
    let accept = true;
    if (m[1] === pos) {
      if (m[0] === prevEnd) accept = false;
      pos += runeWidth(s, pos);
    } else {
      pos = m[1]!;
    }
    prevEnd = m[1]!;
    if (accept) {
      out.push(m);
      if ((out.length & 1023) === 0) spendIterations(budget, 1024, name);
    }
  }
  return out;
}

/** Regexp.expand: $1, ${1}, $name, ${name}, $$; a malformed reference is literal text. */
function expand(re: RE2JS, template: string, s: string, m: Match): string {
  const names = re.namedGroups();
  let out = '';
  let rest = template;
  for (;;) {
    const dollar = rest.indexOf('$');
    if (dollar < 0) break;
    out += rest.slice(0, dollar);
    rest = rest.slice(dollar + 1);
    if (rest.startsWith('$')) {
      out += '$';
      rest = rest.slice(1);
      continue;
    }
    const ref = /^(?:\{([\p{L}\p{Nd}_]+)\}|([\p{L}\p{Nd}_]+))/u.exec(rest);
    if (ref === null) {
      out += '$';
      continue;
    }
    rest = rest.slice(ref[0].length);
    const name = ref[1] ?? ref[2]!;
    let group = -1;
    if (/^(0|[1-9]\d{0,7})$/.test(name)) group = Number(name);
    else if (/^\d+$/.test(name)) group = -2;
    else if (Object.hasOwn(names, name)) group = names[name]!;
    if (group >= 0 && 2 * group + 1 < m.length && m[2 * group]! >= 0) out += s.slice(m[2 * group], m[2 * group + 1]);
  }
  return out + rest;
}

/** regexp.replaceAll with a replacement built per match. */
function replaceAll(re: RE2JS, s: string, budget: Budget, name: string, replacement: (m: Match) => string, groups: boolean): string {
  let out = '';
  let lastEnd = 0;
  let count = 0;
  for (let search = 0; search <= s.length;) {
    const m = matchAt(re, s, search, groups);
    if (m === null) break;
    spendWork(budget, 1 + ((m[1]! - search) >> 6), name);
    out += s.slice(lastEnd, m[0]);
    if (m[1]! > lastEnd || m[0] === 0) out += replacement(m);
    lastEnd = m[1]!;
    const width = runeWidth(s, search);
    search = search + width > m[1]! ? search + width : m[1]!;
    // UTF-16 length is a lower bound of the UTF-8 size: checked every match, so long replacements cannot pile up.
    if (out.length > budget.maxOutputBytes) spendBytes(budget, utf8Length(out), name);
    if ((++count & 1023) === 0) spendIterations(budget, 1024, name);
  }
  return out + s.slice(lastEnd);
}

/** regexp.Split. */
function split(re: RE2JS, s: string, n: number, budget: Budget, name: string): string[] | null {
  if (n === 0) return null;
  if (re.pattern().length > 0 && s === '') return [''];
  const out: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of allMatches(re, s, n, false, budget, name)) {
    if (n > 0 && out.length === n - 1) break;
    end = m[0]!;
    if (m[1] !== 0) out.push(s.slice(beg, end));
    beg = m[1]!;
  }
  if (end !== s.length) out.push(s.slice(beg));
  return out;
}

/** regexp.QuoteMeta. */
function quoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

function findAll(re: RE2JS, s: string, n: number, budget: Budget, name: string): string[] | null {
  const ms = allMatches(re, s, n, false, budget, name);
  return ms.length === 0 ? null : ms.map((m) => s.slice(m[0], m[1]));
}

function find(re: RE2JS, s: string): string {
  const m = matchAt(re, s, 0, false);
  return m === null ? '' : s.slice(m[0], m[1]);
}

const replacer = (re: RE2JS, s: string, repl: string) => (m: Match) => expand(re, repl, s, m);

export const REGEX: FunctionGroup = {
  regexMatch: fixed([S, S], (a) => {
    const re = compile(a[0] as string);
    return !(re instanceof Error) && matchAt(re, a[1] as string, 0, false) !== null;
  }),
  mustRegexMatch: fixed([S, S], (a) => matchAt(compileOrThrow(a[0] as string), a[1] as string, 0, false) !== null),
  regexFindAll: fixed([S, S, INT], (a, { budget: b }) => findAll(mustCompile(a[0] as string), a[1] as string, a[2] as number, b, 'regexFindAll') ?? []),
  mustRegexFindAll: fixed(
    [S, S, INT],
    (a, { budget: b }) => findAll(compileOrThrow(a[0] as string), a[1] as string, a[2] as number, b, 'mustRegexFindAll') ?? [],
  ),
  regexFind: fixed([S, S], (a) => find(mustCompile(a[0] as string), a[1] as string)),
  mustRegexFind: fixed([S, S], (a) => find(compileOrThrow(a[0] as string), a[1] as string)),
  regexReplaceAll: fixed([S, S, S], (a, { budget: b }) => {
    const re = mustCompile(a[0] as string);
    return replaceAll(re, a[1] as string, b, 'regexReplaceAll', replacer(re, a[1] as string, a[2] as string), true);
  }),
  mustRegexReplaceAll: fixed([S, S, S], (a, { budget: b }) => {
    const re = compileOrThrow(a[0] as string);
    return replaceAll(re, a[1] as string, b, 'mustRegexReplaceAll', replacer(re, a[1] as string, a[2] as string), true);
  }),
  regexReplaceAllLiteral: fixed([S, S, S], (a, { budget: b }) =>
    replaceAll(mustCompile(a[0] as string), a[1] as string, b, 'regexReplaceAllLiteral', () => a[2] as string, false),
  ),
  mustRegexReplaceAllLiteral: fixed([S, S, S], (a, { budget: b }) =>
    replaceAll(compileOrThrow(a[0] as string), a[1] as string, b, 'mustRegexReplaceAllLiteral', () => a[2] as string, false),
  ),
  regexSplit: fixed([S, S, INT], (a, { budget: b }) => split(mustCompile(a[0] as string), a[1] as string, a[2] as number, b, 'regexSplit') ?? []),
  mustRegexSplit: fixed([S, S, INT], (a, { budget: b }) => split(compileOrThrow(a[0] as string), a[1] as string, a[2] as number, b, 'mustRegexSplit') ?? []),
  regexQuoteMeta: fixed([S], (a) => quoteMeta(a[0] as string)),
};
