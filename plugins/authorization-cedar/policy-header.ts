/**
 * A policy's effect and `@id` annotation, read from its text. Cedar's policyToJson would give
 * them too, but it starts a new parser per policy (milliseconds each: seconds for a thousand
 * policies, on every reload); the text here is one Cedar has already parsed, which starts at
 * its first annotation or its effect, so reading the head is enough. Anything unexpected
 * answers undefined and the caller asks Cedar.
 */

export interface PolicyHeader {
  effect: 'permit' | 'forbid';
  id?: string;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '0': '\0', '\\': '\\', '"': '"', "'": "'" };
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;

export function policyHeader(text: string): PolicyHeader | undefined {
  let i = 0;
  const skip = (): void => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (!text.startsWith('//', i)) return;
      const nl = text.indexOf('\n', i);
      i = nl === -1 ? text.length : nl + 1;
    }
  };
  const ident = (): string | undefined => {
    IDENT.lastIndex = i;
    const m = IDENT.exec(text);
    if (!m) return undefined;
    i += m[0].length;
    return m[0];
  };
  const string = (): string | undefined => {
    if (text[i] !== '"') return undefined;
    let out = '';
    for (i++; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '"') {
        i++;
        return out;
      }
      if (ch !== '\\') {
        out += ch;
        continue;
      }
      const next = text[++i];
      if (next === 'u') {
        const m = /^u\{([0-9a-fA-F]{1,6})\}/.exec(text.slice(i, i + 10));
        if (!m) return undefined;
        out += String.fromCodePoint(parseInt(m[1]!, 16));
        i += m[0].length - 1;
      } else if (next !== undefined && ESCAPES[next] !== undefined) {
        out += ESCAPES[next];
      } else {
        return undefined;
      }
    }
    return undefined;
  };

  let id: string | undefined;
  skip();
  while (text[i] === '@') {
    i++;
    const name = ident();
    if (!name) return undefined;
    skip();
    if (text[i] === '(') {
      i++;
      skip();
      const value = string();
      if (value === undefined) return undefined;
      skip();
      if (text[i] !== ')') return undefined;
      i++;
      if (name === 'id') id = value;
    }
    skip();
  }
  const effect = ident();
  if (effect !== 'permit' && effect !== 'forbid') return undefined;
  return id !== undefined ? { effect, id } : { effect };
}
