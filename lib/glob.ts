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
export class GlobSyntaxError extends Error {}

/** Longest pattern accepted (filter_tools, presets, claim patterns). */
export const MAX_GLOB_LENGTH = 256;

export interface Glob {
  test(text: string): boolean;
}

type Token = { kind: 'star' } | { kind: 'any' } | { kind: 'char'; char: string } | { kind: 'class'; negated: boolean; items: { from: string; to: string }[] };

function fold(c: string, caseSensitive: boolean): string {
  return caseSensitive ? c : c.toLowerCase();
}

function parseClass(body: string): { negated: boolean; items: { from: string; to: string }[] } {
  const negated = body.startsWith('!');
  const chars = [...(negated ? body.slice(1) : body)];
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

/** `classes: false` reads `[` literally (claim patterns know only `*` and `?`). */
export function compileGlob(pattern: string, caseSensitive = false, classes = true): Glob {
  if (pattern.length > MAX_GLOB_LENGTH) throw new GlobSyntaxError(`the pattern is ${pattern.length} characters long; at most ${MAX_GLOB_LENGTH} are accepted`);
  const tokens = tokenize(pattern, caseSensitive, classes);
  return {
    test(text: string): boolean {
      const chars = [...text];
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
