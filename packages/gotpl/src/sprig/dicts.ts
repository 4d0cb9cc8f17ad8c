/**
 * sprig's dict functions. Like sprig's, set, unset, merge and mergeOverwrite change the
 * map they are given (templates rely on `$_ := set $d "k" "v"`); keys are always written
 * as own data properties, so `set $d "__proto__" ...` is an ordinary key. keys and values
 * list keys in sorted order, where Go's order is random. A map cannot be made to contain
 * itself.
 */
import type { Budget } from '../budget.js';
import { spendWork } from '../budget.js';
import { isMap, mapGet, sortedKeys, typeName } from '../values.js';
import type { GoMap } from '../values.js';
import { empty, newMap, setKey, strval } from './convert.js';
import type { FunctionGroup } from './define.js';
import { fixed, I, M, S, variadic } from './define.js';

/** Whether `target` is `v` or is reachable from it; each distinct part is visited once, on the clock. */
function reaches(v: unknown, target: GoMap, budget: Budget, seen = new Set<unknown>()): boolean {
  if (v === target) return true;
  if (typeof v !== 'object' || v === null || seen.has(v)) return false;
  seen.add(v);
  const children = Array.isArray(v) ? v : isMap(v) ? Object.values(v) : [];
  spendWork(budget, children.length, 'set');
  return children.some((c) => reaches(c, target, budget, seen));
}

/**
 * Go lets a map hold itself and then overflows its stack printing it, which kills the
 * process; gotpl refuses to build the cycle.
 */
function refuseCycle(m: GoMap, value: unknown, name: string, budget: Budget): void {
  if (typeof value === 'object' && value !== null && reaches(value, m, budget)) throw new Error(`${name} would make a map contain itself`);
}

function has(m: GoMap | null, key: string): boolean {
  return m !== null && mapGet(m, key) !== undefined;
}

function dict(a: readonly unknown[]): GoMap {
  const m = newMap();
  for (let i = 0; i < a.length; i += 2) setKey(m, strval(a[i]), i + 1 < a.length ? a[i + 1] : '');
  return m;
}

/** mergo's isEmptyValue for the values of JSON-like maps. */
const isEmptyValue = (v: unknown): boolean => empty(v);

/** mergo.Merge (overwrite false) and mergo.MergeWithOverwrite for map[string]interface{}. */
function mergeInto(dst: GoMap, src: GoMap, overwrite: boolean, budget: Budget): void {
  spendWork(budget, 1, overwrite ? 'mergeOverwrite' : 'merge');
  for (const key of Object.keys(src)) {
    const s = src[key];
    if (s === undefined) continue;
    if (s === null) {
      if (overwrite) setKey(dst, key, null);
      continue;
    }
    const present = Object.hasOwn(dst, key) && dst[key] !== undefined;
    const d = present ? dst[key] : undefined;
    if (isMap(s) && isMap(d)) {
      mergeInto(d, s, overwrite, budget);
      if (!isEmptyValue(d)) continue;
    }
    if (overwrite || !present || isEmptyValue(d)) {
      refuseCycle(dst, s, overwrite ? 'mergeOverwrite' : 'merge', budget);
      setKey(dst, key, s);
    }
  }
}

function merge(a: readonly unknown[], overwrite: boolean, budget: Budget): GoMap {
  const dst = (a[0] as GoMap | null) ?? newMap();
  // Merges change nested maps in place too: sizes measured before may no longer hold.
  budget.sizes?.forget();
  for (let i = 1; i < a.length; i++) {
    const src = a[i] as GoMap | null;
    if (src !== null) mergeInto(dst, src, overwrite, budget);
  }
  return dst;
}

/** A Go type assertion v.(T) that fails, as the recovered panic reads. */
function assertion(v: unknown, want: string): Error {
  return new Error(`interface conversion: interface {} is ${v === null || v === undefined ? 'nil' : typeName(v)}, not ${want}`);
}

function dig(a: readonly unknown[]): unknown {
  if (a.length < 3) throw new Error('dig needs at least three arguments');
  let m = a[a.length - 1];
  const fallback = a[a.length - 2];
  if (!isMap(m)) throw assertion(m, 'map[string]interface {}');
  const keys = a.slice(0, -2).map((k) => {
    if (typeof k !== 'string') throw assertion(k, 'string');
    return k;
  });
  for (let i = 0; ; i++) {
    const step = mapGet(m as GoMap, keys[i]!);
    if (step === undefined) return fallback;
    if (i === keys.length - 1) return step;
    if (!isMap(step)) throw assertion(step, 'map[string]interface {}');
    m = step;
  }
}

export const DICTS: FunctionGroup = {
  dict: variadic([], I, dict),
  get: fixed([M, S], (a) => {
    const m = a[0] as GoMap | null;
    const v = m === null ? undefined : mapGet(m, a[1] as string);
    return v === undefined ? '' : v;
  }),
  set: fixed([M, S, I], (a, { budget }) => {
    const m = a[0] as GoMap | null;
    if (m === null) throw new Error('assignment to entry in nil map');
    refuseCycle(m, a[2], 'set', budget);
    budget.sizes?.setting(m, a[1] as string, a[2] ?? null, budget);
    setKey(m, a[1] as string, a[2]);
    return m;
  }),
  unset: fixed([M, S], (a, { budget }) => {
    const m = a[0] as GoMap | null;
    if (m !== null && Object.hasOwn(m, a[1] as string)) {
      budget.sizes?.setting(m, a[1] as string, undefined, budget);
      Reflect.deleteProperty(m, a[1] as string);
    }
    return m;
  }),
  hasKey: fixed([M, S], (a) => has(a[0] as GoMap | null, a[1] as string)),
  pluck: variadic([S], M, (a) => {
    const out: unknown[] = [];
    for (let i = 1; i < a.length; i++) {
      const v = a[i] === null ? undefined : mapGet(a[i] as GoMap, a[0] as string);
      if (v !== undefined) out.push(v);
    }
    return out;
  }),
  keys: variadic([], M, (a) => a.flatMap((m) => (m === null ? [] : sortedKeys(m as GoMap)))),
  values: fixed([M], (a) => {
    const m = a[0] as GoMap | null;
    return m === null ? [] : sortedKeys(m).map((k) => m[k]);
  }),
  pick: variadic([M], S, (a) => {
    const m = a[0] as GoMap | null;
    const out = newMap();
    for (let i = 1; i < a.length; i++) {
      const k = a[i] as string;
      if (has(m, k)) setKey(out, k, m![k]);
    }
    return out;
  }),
  omit: variadic([M], S, (a) => {
    const m = a[0] as GoMap | null;
    const drop = new Set(a.slice(1) as string[]);
    const out = newMap();
    if (m !== null) for (const k of sortedKeys(m)) if (!drop.has(k)) setKey(out, k, m[k]);
    return out;
  }),
  merge: variadic([M], M, (a, { budget }) => merge(a, false, budget)),
  mustMerge: variadic([M], M, (a, { budget }) => merge(a, false, budget)),
  mergeOverwrite: variadic([M], M, (a, { budget }) => merge(a, true, budget)),
  mustMergeOverwrite: variadic([M], M, (a, { budget }) => merge(a, true, budget)),
  dig: variadic([], I, dig),
};
