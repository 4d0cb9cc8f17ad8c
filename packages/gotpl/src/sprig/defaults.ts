/** sprig's defaults and flow functions: default, empty, coalesce, all, any, compact, ternary, fail, the JSON pair and deepCopy. */
import type { Budget } from '../budget.js';
import { spendWork } from '../budget.js';
import { GoStruct, isMap } from '../values.js';
import type { GoMap } from '../values.js';
import { empty, kindOfNonNil, newMap, setKey } from './convert.js';
import type { FunctionGroup } from './define.js';
import { B, fixed, I, S, variadic } from './define.js';
import { JsonEncodeError, marshal } from './json.js';

function compact(list: unknown): unknown[] {
  const kind = kindOfNonNil(list);
  if (!Array.isArray(list)) throw new Error(`Cannot compact on type ${kind}`);
  return list.filter((x) => !empty(x));
}

/** json.Unmarshal into interface{}. Switchboard's fromJson reports invalid JSON rather than yield nil (docs/gotpl.md). */
function fromJson(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch (e) {
    throw new Error(`invalid JSON: ${(e as Error).message}`, { cause: e });
  }
}

/** The non-must toJson family returns "" where encoding fails, as sprig does. */
function orEmpty(encode: () => string): string {
  try {
    return encode();
  } catch (e) {
    if (e instanceof JsonEncodeError) return '';
    throw e;
  }
}

/** copystructure.Copy for JSON-like values; every list and map copied is a step on the clock. */
export function deepCopy(v: unknown, budget: Budget): unknown {
  if (Array.isArray(v)) {
    return v.map((x) => {
      spendWork(budget, 1, 'deepCopy');
      return deepCopy(x, budget);
    });
  }
  if (isMap(v) && !(v instanceof GoStruct)) {
    const out: GoMap = newMap();
    const keys = Object.keys(v);
    for (const k of keys) {
      spendWork(budget, 1, 'deepCopy');
      if (v[k] !== undefined) setKey(out, k, deepCopy(v[k], budget));
    }
    return out;
  }
  return v;
}

/** copystructure reflects on its argument's type, which nil has not. */
function deepCopyNonNil(v: unknown, budget: Budget): unknown {
  if (v === null || v === undefined) throw new Error('reflect: call of reflect.Value.Type on zero Value');
  return deepCopy(v, budget);
}

export const DEFAULTS: FunctionGroup = {
  default: variadic([I], I, (a) => (a.length < 2 || empty(a[1]) ? a[0] : a[1])),
  empty: fixed([I], (a) => empty(a[0])),
  coalesce: variadic([], I, (a) => a.find((x) => !empty(x)) ?? null),
  all: variadic([], I, (a) => a.every((x) => !empty(x))),
  any: variadic([], I, (a) => a.some((x) => !empty(x))),
  compact: fixed([I], (a) => compact(a[0])),
  mustCompact: fixed([I], (a) => compact(a[0])),
  ternary: fixed([I, I, B], (a) => (a[2] ? a[0] : a[1])),
  fail: fixed([S], (a) => {
    throw new Error(a[0] as string);
  }),
  fromJson: fixed([S], (a) => fromJson(a[0] as string)),
  mustFromJson: fixed([S], (a) => fromJson(a[0] as string)),
  toJson: fixed([I], (a, { budget }) => orEmpty(() => marshal(a[0], '', budget))),
  mustToJson: fixed([I], (a, { budget }) => marshal(a[0], '', budget)),
  toPrettyJson: fixed([I], (a, { budget }) => orEmpty(() => marshal(a[0], '  ', budget))),
  mustToPrettyJson: fixed([I], (a, { budget }) => marshal(a[0], '  ', budget)),
  toRawJson: fixed([I], (a, { budget }) => marshal(a[0], '', budget)),
  mustToRawJson: fixed([I], (a, { budget }) => marshal(a[0], '', budget)),
  deepCopy: fixed([I], (a, { budget }) => deepCopyNonNil(a[0], budget)),
  mustDeepCopy: fixed([I], (a, { budget }) => deepCopyNonNil(a[0], budget)),
};
