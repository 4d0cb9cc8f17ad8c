/**
 * The function table a template sees: Go's builtins, sprig's functions (sprig/), and the caller's own
 * functions, each described by the parameter types exec needs to evaluate arguments the
 * way Go's reflection-driven evalCall does.
 */
import { call, index, length, not, slice } from './builtins.js';
import { eq, ge, gt, le, lt, ne } from './compare.js';
import { html, js, urlquery } from './escape.js';
import { sprint, sprintln } from './fmt.js';
import { sprintf } from './fmt-printf.js';
import { SPRIG } from './sprig/index.js';
import { isAlphaNumeric } from './unicode.js';
import { Param } from './params.js';
import type { GoFunction } from './values.js';
import type { CallContext } from './context.js';

export { Param } from './params.js';

/** Builtins that exec evaluates itself. */
export const enum Special {
  None,
  And,
  Or,
  Call,
}

export interface Func {
  readonly name: string;
  /** Go's builtins are special-cased in places (and/or/call); functions added by Funcs() are not. */
  readonly builtin: boolean;
  readonly special: Special;
  readonly params: readonly Param[];
  /** Element type of a trailing variadic parameter, or null. */
  readonly variadic: Param | null;
  /**
   * Whether exec checks the written-out size of the arguments before the call and of a
   * list or map result after it (value-size.ts): true for every function but those that
   * only pick a part of an argument or look at its surface (PICKERS). Functions nobody
   * listed, the caller's own included, are checked.
   */
  readonly checked: boolean;
  /** Functions that build collections or large strings check them against the budget first. */
  readonly invoke: (args: unknown[], context: CallContext) => unknown;
}

/**
 * Functions that neither walk their arguments' contents nor build a value: they return an
 * argument or a part of one untouched (index, first, default...), or look at its surface
 * only (len, empty, kindOf). A large value they return was built, and checked, elsewhere or
 * comes from the data; checking it here would refuse `index .results.big "id"`.
 */
const PICKERS: ReadonlySet<string> = new Set([
  'and',
  'or',
  'not',
  'index',
  'len',
  'first',
  'mustFirst',
  'last',
  'mustLast',
  'get',
  'hasKey',
  'dig',
  'default',
  'coalesce',
  'ternary',
  'empty',
  'typeOf',
  'typeIs',
  'typeIsLike',
  'kindOf',
  'kindIs',
]);

function builtin(
  name: string,
  params: Param[],
  variadic: Param | null,
  invoke: (args: unknown[], context: CallContext) => unknown,
  special = Special.None,
): Func {
  return { name, builtin: true, special, params, variadic, checked: !PICKERS.has(name), invoke };
}

const unreachable = (): never => {
  throw new Error('evaluated by exec');
};

const V = Param.Value;
const I = Param.Iface;

const BUILTINS: readonly Func[] = [
  builtin('and', [V], V, unreachable, Special.And),
  builtin('or', [V], V, unreachable, Special.Or),
  builtin('call', [V], V, call, Special.Call),
  builtin('html', [], I, html),
  builtin('index', [V], V, index),
  builtin('slice', [V], V, slice),
  builtin('js', [], I, js),
  builtin('len', [V], null, length),
  builtin('not', [V], null, not),
  builtin('print', [], I, (args, { budget }) => sprint(args, budget)),
  builtin('printf', [Param.String], I, (args, { budget }) => sprintf(args[0] as string, args.slice(1), budget)),
  builtin('println', [], I, (args, { budget }) => sprintln(args, budget)),
  builtin('urlquery', [], I, urlquery),
  builtin('eq', [V], V, eq),
  builtin('ge', [V, V], null, ge),
  builtin('gt', [V, V], null, gt),
  builtin('le', [V, V], null, le),
  builtin('lt', [V, V], null, lt),
  builtin('ne', [V, V], null, ne),
];

function added(name: string, params: Param[], variadic: Param | null, fn: GoFunction): Func {
  return { name, builtin: false, special: Special.None, params, variadic, checked: true, invoke: (args) => fn(...args) };
}

const DEFAULTS: ReadonlyMap<string, Func> = new Map([
  ...BUILTINS.map((f) => [f.name, f] as const),
  ...Object.entries(SPRIG).map(
    ([name, f]) =>
      [name, { name, builtin: false, special: Special.None, params: f.params, variadic: f.variadic, checked: !PICKERS.has(name), invoke: f.fn }] as const,
  ),
]);

/** Go's goodName: a letter or '_' followed by letters, digits and '_'. */
function goodName(name: string): boolean {
  if (name === '') return false;
  let first = true;
  for (const ch of name) {
    if (first ? !(ch === '_' || /^\p{L}$/u.test(ch)) : !isAlphaNumeric(ch.codePointAt(0)!)) return false;
    first = false;
  }
  return true;
}

/** Builtins and sprig's functions, overridden by the caller's functions, which take any arguments. */
export function functionTable(funcs: Readonly<Record<string, GoFunction>> | undefined): ReadonlyMap<string, Func> {
  if (funcs === undefined || Object.keys(funcs).length === 0) return DEFAULTS;
  const table = new Map(DEFAULTS);
  for (const [name, fn] of Object.entries(funcs)) {
    if (!goodName(name)) throw new TypeError(`gotpl: function name ${JSON.stringify(name)} is not a valid identifier`);
    if (typeof fn !== 'function') throw new TypeError(`gotpl: value for ${name} is not a function`);
    table.set(name, added(name, [], I, fn));
  }
  return table;
}
