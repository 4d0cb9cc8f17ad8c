/**
 * sprig's list functions. They accept any list and answer new lists; a nil list makes Go
 * panic on reflect.TypeOf(nil).Kind(), and anything else that is not a list gives sprig's
 * "Cannot ... on type KIND" (a panic in the plain function, an error in must...; the
 * template reports both as "error calling NAME: ...").
 */
import type { Budget } from '../budget.js';
import { spendIterations } from '../budget.js';
import { kindOfNonNil, toInt64, truncFloat } from './convert.js';
import type { FunctionGroup, SprigFunction } from './define.js';
import { fixed, I, INT, variadic } from './define.js';
import { ValueKeys } from './value-keys.js';

/** The list argument, or sprig's error naming what the function could not do with it. */
function asList(v: unknown, what: string): unknown[] {
  const kind = kindOfNonNil(v);
  if (!Array.isArray(v)) throw new Error(`Cannot ${what} type ${kind}`);
  return v;
}

/** sprig's uniq: the first of every run of deepEqual elements, in one pass (hashed on value-keys.ts's text). */
function uniq(list: readonly unknown[], budget: Budget, name: string): unknown[] {
  const keys = new ValueKeys(budget, name);
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const x of list) {
    const k = keys.keyOf(x);
    if (k !== null && seen.has(k)) continue;
    if (k !== null) seen.add(k);
    out.push(x);
  }
  return out;
}

/** sprig's without: the elements deepEqual to none of `drop`, in one pass. */
function without(list: readonly unknown[], drop: readonly unknown[], budget: Budget, name: string): unknown[] {
  const keys = new ValueKeys(budget, name);
  const dropped = new Set<string>();
  for (const x of drop) {
    const k = keys.keyOf(x);
    if (k !== null) dropped.add(k);
  }
  return list.filter((x) => {
    const k = keys.keyOf(x);
    return k === null || !dropped.has(k);
  });
}

/** sprig's mustChunk, with its float arithmetic: a negative size can give an empty list or a Go runtime panic. */
function chunk(size: number, v: unknown, budget: Budget): unknown[][] {
  const list = asList(v, 'chunk');
  const l = list.length;
  const count = truncFloat(Math.floor((l - 1) / size) + 1);
  if (count < 0) throw new Error('runtime error: makeslice: len out of range');
  spendIterations(budget, count, 'chunk');
  const out: unknown[][] = [];
  for (let i = 0; i < count; i++) {
    let clen = size;
    if (i === count - 1) {
      clen = truncFloat(Math.floor(l % size));
      if (clen === 0) clen = size;
    }
    if (clen < 0) throw new Error('runtime error: makeslice: len out of range');
    const start = i * size;
    if (start + clen > l || start < 0) throw new Error('reflect: slice index out of range');
    out.push(list.slice(start, start + clen));
  }
  return out;
}

/** sprig's mustSlice (Switchboard keeps Go's builtin slice; docs/gotpl.md). */
function sliceList(v: unknown, indices: readonly unknown[]): unknown {
  const kind = kindOfNonNil(v);
  if (!Array.isArray(v)) throw new Error(`list should be type of slice or array but ${kind}`);
  if (v.length === 0) return null;
  const start = indices.length > 0 ? toInt64(indices[0]) : 0;
  const end = indices.length > 1 ? toInt64(indices[1]) : v.length;
  if (start < 0 || end < start || end > v.length) throw new Error('reflect.Value.Slice: slice index out of bounds');
  return v.slice(start, end);
}

function concat(lists: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const l of lists) {
    const kind = kindOfNonNil(l);
    if (!Array.isArray(l)) throw new Error(`Cannot concat type ${kind} as list`);
    out.push(...(l as unknown[]));
  }
  return out;
}

function has(needle: unknown, haystack: unknown, budget: Budget, name: string): boolean {
  if (haystack === null || haystack === undefined) return false;
  const list = asList(haystack, 'find has on');
  const keys = new ValueKeys(budget, name);
  const k = keys.keyOf(needle);
  if (k === null) return false;
  for (const x of list) if (keys.keyOf(x) === k) return true;
  return false;
}

/** Both the plain and the must... spelling of a function. */
function both(name: string, f: SprigFunction): Record<string, SprigFunction> {
  return { [name]: f, [`must${name[0]!.toUpperCase()}${name.slice(1)}`]: f };
}

export const LISTS: FunctionGroup = {
  list: variadic([], I, (a) => a),
  tuple: variadic([], I, (a) => a),
  ...both(
    'first',
    fixed([I], (a) => asList(a[0], 'find first on')[0] ?? null),
  ),
  ...both(
    'last',
    fixed([I], (a) => asList(a[0], 'find last on').at(-1) ?? null),
  ),
  ...both(
    'rest',
    fixed([I], (a) => asList(a[0], 'find rest on').slice(1)),
  ),
  ...both(
    'initial',
    fixed([I], (a) => asList(a[0], 'find initial on').slice(0, -1)),
  ),
  ...both(
    'append',
    fixed([I, I], (a) => [...asList(a[0], 'push on'), a[1]]),
  ),
  ...both(
    'push',
    fixed([I, I], (a) => [...asList(a[0], 'push on'), a[1]]),
  ),
  ...both(
    'prepend',
    fixed([I, I], (a) => [a[1], ...asList(a[0], 'prepend on')]),
  ),
  ...both(
    'reverse',
    fixed([I], (a) => [...asList(a[0], 'find reverse on')].reverse()),
  ),
  uniq: fixed([I], (a, { budget }) => uniq(asList(a[0], 'find uniq on'), budget, 'uniq')),
  mustUniq: fixed([I], (a, { budget }) => uniq(asList(a[0], 'find uniq on'), budget, 'mustUniq')),
  without: variadic([I], I, (a, { budget }) => without(asList(a[0], 'find without on'), a.slice(1), budget, 'without')),
  mustWithout: variadic([I], I, (a, { budget }) => without(asList(a[0], 'find without on'), a.slice(1), budget, 'mustWithout')),
  has: fixed([I, I], (a, { budget }) => has(a[0], a[1], budget, 'has')),
  mustHas: fixed([I, I], (a, { budget }) => has(a[0], a[1], budget, 'mustHas')),
  ...both(
    'chunk',
    fixed([INT, I], (a, { budget }) => chunk(a[0] as number, a[1], budget)),
  ),
  mustSlice: variadic([I], I, (a) => sliceList(a[0], a.slice(1))),
  concat: variadic([], I, concat),
};
