/**
 * Go's view of text: strings are UTF-8 bytes, and character classes come from package
 * unicode. JavaScript strings are UTF-16, so the places where Go's answer depends on bytes
 * (len, index, slice, %x, map-key order) or on unicode tables go through here.
 */

const LETTER_OR_DIGIT = /^[\p{L}\p{Nd}]$/u;
// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space only.
const GRAPHIC = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** unicode.IsLetter || unicode.IsDigit || '_', the identifier alphabet of templates. */
export function isAlphaNumeric(cp: number): boolean {
  if (cp < 0x80) {
    return cp === 0x5f || (cp >= 0x30 && cp <= 0x39) || ((cp | 0x20) >= 0x61 && (cp | 0x20) <= 0x7a);
  }
  return cp >= 0 && LETTER_OR_DIGIT.test(String.fromCodePoint(cp));
}

/** strconv.IsPrint / unicode.IsPrint. */
export function isPrint(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x20 && cp < 0x7f;
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
  return GRAPHIC.test(String.fromCodePoint(cp));
}

/** unicode.IsSpace, used by strings.TrimSpace and bytes.TrimSpace. */
export function isUnicodeSpace(cp: number): boolean {
  switch (cp) {
    case 0x09:
    case 0x0a:
    case 0x0b:
    case 0x0c:
    case 0x0d:
    case 0x20:
    case 0x85:
    case 0xa0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202f:
    case 0x205f:
    case 0x3000:
      return true;
  }
  return cp >= 0x2000 && cp <= 0x200a;
}

export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** len(s) in Go: the number of UTF-8 bytes. */
export function utf8Length(s: string): number {
  return isAscii(s) ? s.length : Buffer.byteLength(s, 'utf8');
}

/** s[i] in Go: one byte of the UTF-8 encoding. */
export function utf8ByteAt(s: string, i: number): number {
  return isAscii(s) ? s.charCodeAt(i) : Buffer.from(s, 'utf8')[i]!;
}

/**
 * s[lo:hi] in Go. Cutting through a multi-byte sequence yields invalid UTF-8, which a
 * JavaScript string cannot hold; the broken bytes become U+FFFD.
 */
export function utf8Slice(s: string, lo: number, hi: number): string {
  if (isAscii(s)) return s.slice(lo, hi);
  return Buffer.from(s, 'utf8').subarray(lo, hi).toString('utf8');
}

export function utf8Bytes(s: string): Uint8Array {
  return Buffer.from(s, 'utf8');
}

/** Number of code points, which is how fmt measures width and precision of strings. */
export function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The first n code points of s. */
export function truncateRunes(s: string, n: number): string {
  let i = 0;
  for (let seen = 0; i < s.length && seen < n; seen++) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 2 : 1;
  }
  return s.slice(0, i);
}

/**
 * Go compares strings bytewise, which for valid UTF-8 is code point order. JavaScript's `<`
 * compares UTF-16 units, which disagrees when a surrogate pair meets U+E000..U+FFFF.
 */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

const HEX = '0123456789abcdef';

function hexPad(n: number, width: number): string {
  let s = n.toString(16);
  while (s.length < width) s = '0' + s;
  return s;
}

/** Appends one rune the way strconv.appendEscapedRune does. */
function escapeRune(cp: number, quote: number, asciiOnly: boolean): string {
  if (cp === quote || cp === 0x5c) return '\\' + String.fromCharCode(cp);
  if (asciiOnly ? cp < 0x80 && isPrint(cp) : isPrint(cp)) return String.fromCodePoint(cp);
  switch (cp) {
    case 0x07:
      return '\\a';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x0b:
      return '\\v';
  }
  if (cp < 0x20 || cp === 0x7f) return '\\x' + HEX[cp >> 4] + HEX[cp & 15];
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) cp = 0xfffd;
  if (cp < 0x10000) return '\\u' + hexPad(cp, 4);
  return '\\U' + hexPad(cp, 8);
}

/** strconv.Quote (or QuoteToASCII when asciiOnly). */
export function quoteString(s: string, asciiOnly = false): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) {
      out += s[i];
      continue;
    }
    const cp = s.codePointAt(i)!;
    if (cp > 0xffff) i++;
    out += escapeRune(cp, 0x22, asciiOnly);
  }
  return out + '"';
}

/** strconv.QuoteRune (or QuoteRuneToASCII). */
export function quoteRune(cp: number, asciiOnly = false): string {
  if (cp > 0x10ffff || cp < 0 || (cp >= 0xd800 && cp <= 0xdfff)) cp = 0xfffd;
  return "'" + escapeRune(cp, 0x27, asciiOnly) + "'";
}

/** strconv.CanBackquote: no control characters other than tab, and no backquote. */
export function canBackquote(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x60 || c === 0xfeff || (c < 0x20 && c !== 0x09) || c === 0x7f) return false;
    if (c >= 0xd800 && c <= 0xdfff) {
      const cp = s.codePointAt(i)!;
      if (cp <= 0xffff) return false; // lone surrogate: not valid UTF-8
      i++;
    }
  }
  return true;
}

/** fmt's %#U of a rune, as used in lexer messages: `U+007D '}'`. */
export function describeRune(cp: number): string {
  let hex = cp.toString(16).toUpperCase();
  while (hex.length < 4) hex = '0' + hex;
  return isPrint(cp) ? `U+${hex} '${String.fromCodePoint(cp)}'` : `U+${hex}`;
}

/** strings.TrimSpace. */
export function trimSpace(s: string): string {
  let lo = 0;
  let hi = s.length;
  while (lo < hi && isUnicodeSpace(s.charCodeAt(lo))) lo++;
  while (hi > lo && isUnicodeSpace(s.charCodeAt(hi - 1))) hi--;
  return s.slice(lo, hi);
}
