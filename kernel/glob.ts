/**
 * Glob patterns on tool names (decisions.md): `*` any run, `?` one character, `[...]` a class
 * (`[!...]` negated). Compiled to a RegExp once; case-insensitive unless asked otherwise.
 */
export class GlobSyntaxError extends Error {}

/** `classes: false` reads `[` literally (claim patterns know only `*` and `?`). */
export function compileGlob(pattern: string, caseSensitive = false, classes = true): RegExp {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[' && classes) {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) throw new GlobSyntaxError(`unclosed '[' at position ${i + 1} in pattern '${pattern}'`);
      let body = pattern.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      re += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else re += c.replace(/[.+^${}()|[\\\]]/g, '\\$&');
  }
  try {
    return new RegExp(`${re}$`, caseSensitive ? '' : 'i');
  } catch (err) {
    throw new GlobSyntaxError(`invalid pattern '${pattern}': ${(err as Error).message}`);
  }
}
