/**
 * Glob patterns on tool names (decisions.md): `*` any run, `?` one character, `[...]` a class
 * (`[!...]` negated, `a-z` ranges). Case-insensitive unless asked otherwise.
 *
 * Matched without regular expressions: a pattern compiled to a RegExp backtracks, and
 * `*?*?*?*?*?*?*?*?*?#` took seconds against one name, blocking the event loop for everyone.
 * Every token but `*` consumes exactly one character, so the classic two-pointer match that
 * returns only to the last star is exact and takes at most (name length x pattern length)
 * steps. Patterns are bounded in length too.
 */
import { SwitchboardError } from '../kernel/index.js';

/** A pattern that does not parse (callers say where it was written). */
export class GlobSyntaxError extends SwitchboardError {
  constructor(message: string) {
    super('INVALID_ARGUMENTS', message);
  }
}

/** Longest pattern accepted (filter_tools, presets, claim patterns). */
export const MAX_GLOB_LENGTH = 256;

export interface Glob {
  test(text: string): boolean;
  /**
   * The ASCII literal text every match starts with, folded to lower case (an index of names
   * folded the same way narrows by it; case-sensitive patterns still test what it returns).
   */
  readonly prefix: string;
  /** The longest ASCII literal run every match contains, folded likewise ('' when none). */
  readonly infix: string;
}

type Token = { kind: 'star' } | { kind: 'any' } | { kind: 'char'; char: string } | { kind: 'class'; negated: boolean; items: { from: string; to: string }[] };

function fold(c: string, caseSensitive: boolean): string {
  return caseSensitive ? c : c.toLowerCase();
}

function parseClass(body: string): { negated: boolean; items: { from: string; to: string }[] } {
  const negated = body.startsWith('!');
  const chars = Array.from(negated ? body.slice(1) : body); // code points, as Go's path.Match reads runes
  const items: { from: string; to: string }[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (chars[i + 1] === '-' && i + 2 < chars.length) {
      items.push({ from: c, to: chars[i + 2]! });
      i += 2;
    } else items.push({ from: c, to: c });
  }
  return { negated, items };
}

function tokenize(pattern: string, caseSensitive: boolean, classes: boolean): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      // A run of stars is one star: fewer places to return to.
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[' && classes) {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) throw new GlobSyntaxError(`unclosed '[' at position ${i + 1} in pattern '${pattern}'`);
      const { negated, items } = parseClass(pattern.slice(i + 1, end));
      for (const it of items) if (it.from > it.to) throw new GlobSyntaxError(`invalid pattern '${pattern}': range '${it.from}-${it.to}' out of order`);
      tokens.push({ kind: 'class', negated, items });
      i = end;
    } else tokens.push({ kind: 'char', char: fold(c, caseSensitive) });
  }
  return tokens;
}

function inClass(token: Extract<Token, { kind: 'class' }>, c: string, caseSensitive: boolean): boolean {
  const candidates = caseSensitive ? [c] : [c.toLowerCase(), c.toUpperCase()];
  const hit = token.items.some((it) => candidates.some((x) => x >= it.from && x <= it.to));
  return hit !== token.negated;
}

function matchesOne(token: Token, c: string, caseSensitive: boolean): boolean {
  switch (token.kind) {
    case 'any':
      return true;
    case 'char':
      return token.char === fold(c, caseSensitive);
    case 'class':
      return inClass(token, c, caseSensitive);
    case 'star':
      return false;
  }
}

const STAR = 0;
const ANY = 1;
const CHAR = 2;
const CLASS = 3;

/**
 * The tokens in a form an ASCII name is matched against by character code: no per-character
 * strings, no folding per test. Exact by construction: a `char` token's code is its folded
 * character when that is one ASCII character (no ASCII character folds to anything else), and
 * a class is tabulated over the 128 ASCII characters with the general rule.
 */
interface AsciiTokens {
  kinds: Uint8Array;
  codes: Int16Array;
  classes: (Uint8Array | undefined)[];
}

function asciiTokens(tokens: readonly Token[], caseSensitive: boolean): AsciiTokens {
  const kinds = new Uint8Array(tokens.length);
  const codes = new Int16Array(tokens.length).fill(-1);
  const classes: (Uint8Array | undefined)[] = [];
  tokens.forEach((token, i) => {
    kinds[i] = token.kind === 'star' ? STAR : token.kind === 'any' ? ANY : token.kind === 'char' ? CHAR : CLASS;
    if (token.kind === 'char' && token.char.length === 1 && token.char.charCodeAt(0) < 128) codes[i] = token.char.charCodeAt(0);
    if (token.kind === 'class') {
      const table = new Uint8Array(128);
      for (let k = 0; k < 128; k++) table[k] = inClass(token, String.fromCharCode(k), caseSensitive) ? 1 : 0;
      classes[i] = table;
    }
  });
  return { kinds, codes, classes };
}

const A = 65;
const Z = 90;

/** `text` is ASCII when every code unit is below 128 (tool names nearly always are). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** The same two-pointer match as the general form, over character codes of an ASCII text. */
function testAscii(t: AsciiTokens, text: string, caseSensitive: boolean): boolean {
  const { kinds, codes, classes } = t;
  const n = kinds.length;
  let k = 0;
  let c = 0;
  let star = -1;
  let resume = 0;
  while (c < text.length) {
    let code = text.charCodeAt(c);
    if (!caseSensitive && code >= A && code <= Z) code += 32;
    const kind = k < n ? kinds[k]! : -1;
    const one = kind === ANY || (kind === CHAR && codes[k] === code) || (kind === CLASS && classes[k]![text.charCodeAt(c)] === 1);
    if (one) {
      k++;
      c++;
    } else if (kind === STAR) {
      star = k++;
      resume = c;
    } else if (star >= 0) {
      k = star + 1;
      c = ++resume;
    } else return false;
  }
  while (k < n && kinds[k] === STAR) k++;
  return k === n;
}

/** Literal runs of ASCII characters, folded to lower case: what every match must contain. */
function literalRuns(tokens: readonly Token[]): { prefix: string; infix: string } {
  const runs: string[] = [];
  let run = '';
  for (const token of tokens) {
    if (token.kind === 'char' && token.char.length === 1 && token.char.charCodeAt(0) < 128) run += token.char.toLowerCase();
    else {
      runs.push(run);
      run = '';
    }
  }
  runs.push(run);
  const firstIsLiteral = tokens[0]?.kind === 'char';
  const infix = runs.reduce((a, b) => (b.length > a.length ? b : a), '');
  return { prefix: firstIsLiteral ? runs[0]! : '', infix };
}

/** `classes: false` reads `[` literally (claim patterns know only `*` and `?`). */
export function compileGlob(pattern: string, caseSensitive = false, classes = true): Glob {
  if (pattern.length > MAX_GLOB_LENGTH) throw new GlobSyntaxError(`the pattern is ${pattern.length} characters long; at most ${MAX_GLOB_LENGTH} are accepted`);
  const tokens = tokenize(pattern, caseSensitive, classes);
  const ascii = asciiTokens(tokens, caseSensitive);
  return {
    ...literalRuns(tokens),
    test(text: string): boolean {
      if (isAscii(text)) return testAscii(ascii, text, caseSensitive);
      const chars = Array.from(text);
      let t = 0;
      let c = 0;
      // Where to go back to: just after the last star, and the character it will swallow next.
      let star = -1;
      let resume = 0;
      while (c < chars.length) {
        const token = tokens[t];
        if (token && token.kind !== 'star' && matchesOne(token, chars[c]!, caseSensitive)) {
          t++;
          c++;
        } else if (token?.kind === 'star') {
          star = t++;
          resume = c;
        } else if (star >= 0) {
          t = star + 1;
          c = ++resume;
        } else return false;
      }
      while (tokens[t]?.kind === 'star') t++;
      return t === tokens.length;
    },
  };
}
