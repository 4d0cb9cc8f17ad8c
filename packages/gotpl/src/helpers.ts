/**
 * Helper functions every template gets on top of Go's builtins, with the argument order of
 * their sprig namesakes so that pipelines read naturally: `.name | default "anon" | upper`,
 * `.csv | split ","`. Like functions added with Go's Funcs(), they are not builtins: a
 * caller's own function of the same name replaces them.
 */
import { sprintf } from './fmt-printf.js';
import { trimSpace } from './unicode.js';
import { isTrue, typeName } from './values.js';

export interface Helper {
  /** Number of parameters; Go checks the count before calling. */
  readonly arity: number;
  /** Whether further arguments are accepted after the fixed ones. */
  readonly variadic: boolean;
  readonly fn: (...args: unknown[]) => unknown;
}

function str(v: unknown, what: string): string {
  if (typeof v === 'string') return v;
  throw new Error(`${what} must be a string; got ${v === null || v === undefined ? 'nil' : typeName(v)}`);
}

/** sprig's strval: strings as they are, anything else as fmt's %v. */
function strval(v: unknown): string {
  return typeof v === 'string' ? v : sprintf('%v', [v]);
}

/** sprig's empty: nil, false, 0, "" and empty collections. */
function empty(v: unknown): boolean {
  return !isTrue(v);
}

/** strings.Replace(s, old, new, -1); an empty old matches around every character. */
function replaceAll(s: string, from: string, to: string): string {
  if (from !== '') return s.split(from).join(to);
  return to + Array.from(s, (c) => c + to).join('');
}

function fixed(arity: number, fn: (...args: unknown[]) => unknown): Helper {
  return { arity, variadic: false, fn };
}

export const HELPERS: Readonly<Record<string, Helper>> = {
  toJson: fixed(1, (v) => JSON.stringify(v === undefined ? null : v) ?? 'null'),
  fromJson: fixed(1, (s) => {
    try {
      return JSON.parse(str(s, 'fromJson input')) as unknown;
    } catch (e) {
      throw new Error(`invalid JSON: ${(e as Error).message}`);
    }
  }),
  default: { arity: 1, variadic: true, fn: (d, ...given) => (given.length === 0 || empty(given[0]) ? d : given[0]) },
  upper: fixed(1, (s) => str(s, 'upper input').toUpperCase()),
  lower: fixed(1, (s) => str(s, 'lower input').toLowerCase()),
  trim: fixed(1, (s) => trimSpace(str(s, 'trim input'))),
  join: fixed(2, (sep, list) => {
    const items = Array.isArray(list) ? list : list === null || list === undefined ? [] : [list];
    return items
      .filter((x) => x !== null && x !== undefined)
      .map(strval)
      .join(str(sep, 'join separator'));
  }),
  split: fixed(2, (sep, s) => {
    const text = str(s, 'split input');
    const by = str(sep, 'split separator');
    return by === '' ? Array.from(text) : text.split(by);
  }),
  contains: fixed(2, (sub, s) => str(s, 'contains input').includes(str(sub, 'contains substring'))),
  hasPrefix: fixed(2, (p, s) => str(s, 'hasPrefix input').startsWith(str(p, 'prefix'))),
  hasSuffix: fixed(2, (p, s) => str(s, 'hasSuffix input').endsWith(str(p, 'suffix'))),
  replace: fixed(3, (from, to, s) => replaceAll(str(s, 'replace input'), str(from, 'old'), str(to, 'new'))),
  quote: {
    arity: 0,
    variadic: true,
    fn: (...args) =>
      args
        .filter((a) => a !== null && a !== undefined)
        .map((a) => sprintf('%q', [strval(a)]))
        .join(' '),
  },
};
