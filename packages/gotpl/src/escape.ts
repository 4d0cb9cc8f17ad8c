/**
 * The escaping builtins html, js and urlquery (text/template's HTMLEscaper, JSEscaper and
 * URLQueryEscaper), byte-for-byte as Go writes them.
 */
import { sprint } from './fmt.js';
import { isPrint, utf8Bytes } from './unicode.js';

/**
 * text/template's evalArgs: one string argument is used as is; anything else is printed
 * with fmt.Sprint, where a nil argument shows as "<no value>" as in template output.
 */
function evalArgs(args: readonly unknown[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((a) => (a === null || a === undefined ? '<no value>' : a)));
}

const HTML: Record<string, string> = { '\0': '\uFFFD', '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;' };

export function htmlEscapeString(s: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const r = HTML[s[i]!];
    if (r === undefined) continue;
    out += s.slice(last, i) + r;
    last = i + 1;
  }
  return last === 0 ? s : out + s.slice(last);
}

const JS_ASCII: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '"': '\\"',
  '<': '\\u003C',
  '>': '\\u003E',
  '&': '\\u0026',
  '=': '\\u003D',
};

function hex4(n: number): string {
  return n.toString(16).toUpperCase().padStart(4, '0');
}

export function jsEscapeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      const r = JS_ASCII[s[i]!];
      if (r !== undefined) out += r;
      else if (c < 0x20) out += '\\u00' + hex4(c).slice(2);
      else out += s[i];
      continue;
    }
    const cp = s.codePointAt(i)!;
    if (cp > 0xffff) i++;
    // Go writes %04X of the rune, so astral runes get five or six hex digits.
    out += isPrint(cp) ? String.fromCodePoint(cp) : '\\u' + hex4(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp);
  }
  return out;
}

/** url.QueryEscape: unreserved bytes stay, space becomes '+', the rest is %XX. */
export function urlQueryEscapeString(s: string): string {
  let out = '';
  for (const b of utf8Bytes(s)) {
    const ch = String.fromCharCode(b);
    if ((b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7a) || ch === '-' || ch === '_' || ch === '.' || ch === '~') {
      out += ch;
    } else if (b === 0x20) {
      out += '+';
    } else {
      out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  return out;
}

export function html(args: readonly unknown[]): string {
  return htmlEscapeString(evalArgs(args));
}

export function js(args: readonly unknown[]): string {
  return jsEscapeString(evalArgs(args));
}

export function urlquery(args: readonly unknown[]): string {
  return urlQueryEscapeString(evalArgs(args));
}
