/**
 * sprig's word-level string functions, ported from the libraries it delegates to:
 * strings.Title, goutils (untitle, swapcase, initials, nospace, wrap, abbrev) and xstrings
 * (snakecase, kebabcase, camelcase). goutils walks some strings byte by byte and treats
 * each byte as a rune; that is kept, so non-ASCII input comes out as Go's does.
 */
import type { Budget } from '../budget.js';
import { spendBytes, spendWork } from '../budget.js';
import { isUnicodeSpace, utf8Bytes, utf8Length } from '../unicode.js';
import type { FunctionGroup } from './define.js';
import { fixed, INT, S } from './define.js';
import { wordsToLower } from './xstrings.js';
import { isDigit, isLetter, isLower, isTitle, isUpper, runesOf, toLowerRune, toTitleRune, toUpperRune } from './runes.js';

/** strings.Title's isSeparator. */
function isSeparator(r: number): boolean {
  if (r <= 0x7f) {
    if ((r >= 0x30 && r <= 0x39) || (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a) || r === 0x5f) return false;
    return true;
  }
  if (isLetter(r) || isDigit(r)) return false;
  return isUnicodeSpace(r);
}

function title(s: string, budget: Budget): string {
  let prev = 0x20;
  let out = '';
  for (const r of runesOf(s, budget, 'title')) {
    spendWork(budget, 1, 'title');
    out += String.fromCodePoint(isSeparator(prev) ? toTitleRune(r) : r);
    prev = r;
  }
  return out;
}

function untitle(s: string, budget: Budget): string {
  let next = true;
  let out = '';
  for (const r of runesOf(s, budget, 'untitle')) {
    spendWork(budget, 1, 'untitle');
    if (isUnicodeSpace(r)) {
      next = true;
      out += String.fromCodePoint(r);
    } else {
      out += String.fromCodePoint(next ? toLowerRune(r) : r);
      next = false;
    }
  }
  return out;
}

function swapcase(s: string, budget: Budget): string {
  let whitespace = true;
  let out = '';
  for (let r of runesOf(s, budget, 'swapcase')) {
    spendWork(budget, 1, 'swapcase');
    if (isUpper(r) || isTitle(r)) {
      r = toLowerRune(r);
      whitespace = false;
    } else if (isLower(r)) {
      r = whitespace ? toTitleRune(r) : toUpperRune(r);
      whitespace = false;
    } else {
      whitespace = isUnicodeSpace(r);
    }
    out += String.fromCodePoint(r);
  }
  return out;
}

/** goutils.Initials: the first byte after each whitespace byte, each read as a rune. */
function initials(s: string, budget: Budget): string {
  let out = '';
  let gap = true;
  for (const b of utf8Bytes(s)) {
    spendWork(budget, 1, 'initials');
    if (isUnicodeSpace(b)) gap = true;
    else if (gap) {
      out += String.fromCharCode(b);
      gap = false;
    }
  }
  return out;
}

/** goutils.DeleteWhiteSpace: bytes that are not whitespace, each read as a rune. */
function nospace(s: string, budget: Budget): string {
  const bytes = utf8Bytes(s);
  let out = '';
  let kept = 0;
  for (const b of bytes) {
    spendWork(budget, 1, 'nospace');
    if (!isUnicodeSpace(b)) {
      out += String.fromCharCode(b);
      kept++;
    }
  }
  return kept === bytes.length ? s : out;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function lastSpace(b: Uint8Array, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (b[i] === 0x20) return i;
  return -1;
}

/** goutils.WrapCustom, on bytes. */
function wrapCustom(str: string, wrapLength: number, newLine: string, wrapLongWords: boolean, budget: Budget, name: string): string {
  if (str === '') return '';
  if (newLine === '') newLine = '\n';
  if (wrapLength < 1) wrapLength = 1;
  const b = utf8Bytes(str);
  const nl = encoder.encode(newLine);
  const out: number[] = [];
  const write = (from: number, to: number): void => {
    spendWork(budget, to - from, name);
    for (let i = from; i < to; i++) out.push(b[i]!);
  };
  let offset = 0;
  while (b.length - offset > wrapLength) {
    // Each line scans up to wrapLength bytes for a space.
    spendWork(budget, Math.min(wrapLength, b.length - offset), name);
    if (b[offset] === 0x20) {
      offset++;
      continue;
    }
    const at = lastSpace(b, offset, Math.min(wrapLength + offset + 1, b.length));
    if (at >= offset) {
      write(offset, at);
      out.push(...nl);
      offset = at + 1;
    } else if (wrapLongWords) {
      write(offset, wrapLength + offset);
      out.push(...nl);
      offset += wrapLength;
    } else {
      let next = -1;
      for (let i = wrapLength + offset; i < b.length; i++) {
        if (b[i] === 0x20) {
          next = i;
          break;
        }
      }
      if (next === -1) {
        write(offset, b.length);
        offset = b.length;
      } else {
        write(offset, next);
        out.push(...nl);
        offset = next + 1;
      }
    }
  }
  write(offset, b.length);
  return decoder.decode(new Uint8Array(out));
}

/** goutils.AbbreviateFull, on bytes; sprig has already ruled out the error cases it would report. */
function abbreviateFull(str: string, offset: number, maxWidth: number): string {
  if (str === '') return '';
  const b = utf8Bytes(str);
  const len = b.length;
  if (len <= maxWidth) return str;
  const cut = (from: number, to: number): string => decoder.decode(b.subarray(from, to));
  if (offset > len) offset = len;
  if (len - offset < maxWidth - 3) offset = len - (maxWidth - 3);
  if (offset <= 4) return cut(0, maxWidth - 3) + '...';
  if (maxWidth < 7) return '';
  if (offset + maxWidth - 3 < len) return '...' + abbreviateFull(cut(offset, len), 0, maxWidth - 3);
  return '...' + cut(len - (maxWidth - 3), len);
}

/** xstrings.ToPascalCase. */
function camelcase(s: string, budget: Budget): string {
  const isConnector = (r: number): boolean => r === 0x2d || r === 0x5f || isUnicodeSpace(r);
  const runes = runesOf(s, budget, 'camelcase');
  if (runes.length === 0) return '';
  let out = '';
  let i = 0;
  let firstUpper = false;
  let r0 = 0;
  for (; i < runes.length;) {
    spendWork(budget, 1, 'camelcase');
    r0 = runes[i++]!;
    if (!isConnector(r0)) {
      firstUpper = isUpper(r0);
      r0 = toUpperRune(r0);
      break;
    }
    out += String.fromCodePoint(r0);
  }
  // xstrings writes the last rune read even when it was a connector it already wrote.
  if (i >= runes.length) return out + String.fromCodePoint(r0);
  while (i < runes.length) {
    spendWork(budget, 1, 'camelcase');
    const r1 = r0;
    r0 = runes[i++]!;
    if (isConnector(r0) && isConnector(r1)) {
      out += String.fromCodePoint(r1);
      continue;
    }
    if (isConnector(r1)) {
      firstUpper = isUpper(r0);
      r0 = toUpperRune(r0);
    } else {
      if (firstUpper) {
        if (isUpper(r0)) r0 = toLowerRune(r0);
        else firstUpper = false;
      }
      out += String.fromCodePoint(r1);
    }
  }
  return out + String.fromCodePoint(r0);
}

export const WORDS: FunctionGroup = {
  title: fixed([S], (a, { budget }) => title(a[0] as string, budget)),
  untitle: fixed([S], (a, { budget }) => untitle(a[0] as string, budget)),
  swapcase: fixed([S], (a, { budget }) => swapcase(a[0] as string, budget)),
  initials: fixed([S], (a, { budget }) => initials(a[0] as string, budget)),
  nospace: fixed([S], (a, { budget }) => nospace(a[0] as string, budget)),
  wrap: fixed([INT, S], (a, { budget }) => wrapCustom(a[1] as string, a[0] as number, '', false, budget, 'wrap')),
  wrapWith: fixed([INT, S, S], (a, { budget }) => {
    const [width, separator, s] = a as [number, string, string];
    // At most one separator per `width` bytes: a long separator must not multiply a long string.
    spendBytes(budget, utf8Length(s) + (Math.floor(utf8Length(s) / Math.max(width, 1)) + 1) * utf8Length(separator), 'wrapWith');
    return wrapCustom(s, width, separator, true, budget, 'wrapWith');
  }),
  abbrev: fixed([INT, S], (a) => ((a[0] as number) < 4 ? a[1] : abbreviateFull(a[1] as string, 0, a[0] as number))),
  abbrevboth: fixed([INT, INT, S], (a) => {
    const [left, right, s] = a as [number, number, string];
    if (right < 4 || (left > 0 && right < 7)) return s;
    return abbreviateFull(s, left, right);
  }),
  snakecase: fixed([S], (a, { budget }) => wordsToLower(a[0] as string, '_', budget, 'snakecase')),
  kebabcase: fixed([S], (a, { budget }) => wordsToLower(a[0] as string, '-', budget, 'kebabcase')),
  camelcase: fixed([S], (a, { budget }) => camelcase(a[0] as string, budget)),
};
