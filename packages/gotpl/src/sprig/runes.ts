/**
 * Go's unicode package where sprig's string functions use it: one-rune case mappings
 * (unicode.ToUpper maps a rune to one rune, where JavaScript's toUpperCase may give
 * several: "ß" stays "ß" in Go) and the category tests.
 */
import type { Budget } from '../budget.js';
import { spendWork } from '../budget.js';

const UPPER = /^\p{Lu}$/u;
const LOWER = /^\p{Ll}$/u;
const TITLE = /^\p{Lt}$/u;
const LETTER = /^\p{L}$/u;
const NUMBER = /^\p{N}$/u;
const DIGIT = /^\p{Nd}$/u;
const PUNCT = /^\p{P}$/u;

/** Runes whose one-rune mapping JavaScript's full mapping does not give. */
const LOWER_SPECIAL: ReadonlyMap<number, number> = new Map([[0x130, 0x69]]);
/** Title case differs from upper case only for the Latin digraphs. */
const TITLE_SPECIAL: ReadonlyMap<number, number> = new Map([
  [0x1c4, 0x1c5],
  [0x1c5, 0x1c5],
  [0x1c6, 0x1c5],
  [0x1c7, 0x1c8],
  [0x1c8, 0x1c8],
  [0x1c9, 0x1c8],
  [0x1ca, 0x1cb],
  [0x1cb, 0x1cb],
  [0x1cc, 0x1cb],
  [0x1f1, 0x1f2],
  [0x1f2, 0x1f2],
  [0x1f3, 0x1f2],
]);

function oneRune(mapped: string, r: number): number {
  const cp = mapped.codePointAt(0)!;
  return mapped.length === (cp > 0xffff ? 2 : 1) ? cp : r;
}

export function toUpperRune(r: number): number {
  if (r < 0x80) return r >= 0x61 && r <= 0x7a ? r - 32 : r;
  return oneRune(String.fromCodePoint(r).toUpperCase(), r);
}

export function toLowerRune(r: number): number {
  if (r < 0x80) return r >= 0x41 && r <= 0x5a ? r + 32 : r;
  return LOWER_SPECIAL.get(r) ?? oneRune(String.fromCodePoint(r).toLowerCase(), r);
}

export function toTitleRune(r: number): number {
  return TITLE_SPECIAL.get(r) ?? toUpperRune(r);
}

const test = (re: RegExp, r: number): boolean => re.test(String.fromCodePoint(r));
export const isUpper = (r: number): boolean => (r < 0x80 ? r >= 0x41 && r <= 0x5a : test(UPPER, r));
export const isLower = (r: number): boolean => (r < 0x80 ? r >= 0x61 && r <= 0x7a : test(LOWER, r));
export const isTitle = (r: number): boolean => r >= 0x80 && test(TITLE, r);
export const isLetter = (r: number): boolean => test(LETTER, r);
export const isNumber = (r: number): boolean => test(NUMBER, r);
export const isDigit = (r: number): boolean => test(DIGIT, r);
export const isPunct = (r: number): boolean => test(PUNCT, r);

/** strings.Map with a rune mapping, each rune a step on the clock. */
export function mapRunes(s: string, f: (r: number) => number, budget: Budget, name: string): string {
  let out = '';
  for (const ch of s) {
    spendWork(budget, 1, name);
    out += String.fromCodePoint(f(ch.codePointAt(0)!));
  }
  return out;
}

/** Characters per slice of charsOf: Array.from is native and fast; the clock is read between slices. */
const SLICE = 16_384;

/** Array.from(s) (one string per code point), reading the clock between slices. */
export function charsOf(s: string, budget: Budget, name: string): string[] {
  if (s.length <= SLICE) return Array.from(s);
  const out: string[] = [];
  for (let from = 0; from < s.length;) {
    let to = Math.min(from + SLICE, s.length);
    // Never cut a surrogate pair in two.
    const last = s.charCodeAt(to - 1);
    if (to < s.length && last >= 0xd800 && last <= 0xdbff) to++;
    spendWork(budget, (to - from) >> 6, name);
    out.push(...Array.from(s.slice(from, to)));
    from = to;
  }
  return out;
}

/**
 * The runes of a string as code points (a lone surrogate stays itself, as Array.from
 * would leave it). A plain loop: Array.from with a mapper cost about a microsecond per
 * character, a second for a megabyte before the case conversions' own loops began. With a
 * budget, the clock is read along the way.
 */
export function runesOf(s: string, budget?: Budget, name = 'runes'): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    // A megabyte takes milliseconds: the clock is read along the way, 64 characters a step.
    if (budget !== undefined && (i & 63) === 0) spendWork(budget, 1, name);
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out.push(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
        i++;
        continue;
      }
    }
    out.push(c);
  }
  return out;
}
