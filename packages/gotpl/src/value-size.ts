/**
 * The written-out size of a value, known before anything walks it.
 *
 * A list can hold the same value twice at no cost in memory: `{{ $d = list $d $d }}` forty
 * times is forty small arrays, yet printed, encoded or compared it is 2^40 elements, and
 * every function that walks a value (toJson, printf "%v", deepCopy, uniq, has, eq...) would
 * walk all of them. So every list and map gets its size when it is built, from its parts'
 * sizes, counting a shared part as often as it would be written out: `list $d $d` costs
 * two lookups whatever $d holds. A value a function builds may be no larger than the
 * output (the rule strings already follow), and a function may not walk a larger one.
 *
 * The size is a lower bound of what encoding/json and fmt's %v write for the value, in
 * characters: a string counts its length (quotes and escapes only add), a number, bool or
 * nil one character, a list its brackets and separators, a map its key and a colon per
 * entry. Each list or map counts at least one per element, so a walk of a value visits no
 * more nodes than its size: refusing a size refuses the walk.
 *
 * Sizes are cached per rendering (the Budget's), not globally: data from outside (the
 * workflow's input and results) may change between renderings, and is measured once per
 * rendering, a walk of its distinct parts. Within a rendering, only set, unset and the
 * merges change a map in place. `set` and `unset` on a map that no measured container holds
 * (the common `{{ $_ := set $m k v }}` in a loop) adjust its size by the entry's, in O(1);
 * on a map some measured container holds, and for the merges (which change nested maps
 * too), every cached size is forgotten and measured again when next needed.
 */
import type { Budget } from './budget.js';
import { FunctionBudgetError, spendWork } from './budget.js';
import { GoStruct } from './values.js';

/**
 * Deepest nesting of lists and maps a value may have: deeper, measuring, encoding and
 * printing would recurse past a safe stack. Go's limit on nested {{template}} calls is the
 * same number.
 */
export const MAX_VALUE_DEPTH = 1000;

/** Thrown for a value nested deeper than MAX_VALUE_DEPTH; exec reports it as a function's error. */
export class ValueDepthError extends Error {
  constructor() {
    super(`value nested deeper than ${MAX_VALUE_DEPTH} levels`);
  }
}

/** A rendering's cache: size and depth of every list and map measured. */
export class ValueSizes {
  private sizes = new Map<object, number>();
  private depths = new Map<object, number>();
  /** Lists and maps held by a measured list or map: a change to one of them changes its holders' sizes. */
  private held = new Set<object>();

  /** The written-out size of `v` (see above), measuring what is not cached yet. */
  sizeOf(v: unknown, budget: Budget): number {
    if (typeof v !== 'object' || v === null) return scalarSize(v);
    const cached = this.sizes.get(v);
    return cached ?? this.measure(v, budget, 0);
  }

  /** Nesting depth of `v`: 0 for a scalar, 1 for a list of scalars. */
  depthOf(v: unknown, budget: Budget): number {
    if (typeof v !== 'object' || v === null || v instanceof GoStruct) return 0;
    if (!this.sizes.has(v)) this.measure(v, budget, 0);
    return this.depths.get(v) ?? 0;
  }

  /**
   * `m[key]` is about to become `value` (undefined: deleted), by set or unset. Called after
   * `value` was measured (exec checks every argument of set first).
   */
  setting(m: Record<string, unknown>, key: string, value: unknown, budget: Budget): void {
    const size = this.sizes.get(m);
    if (size === undefined) return;
    if (this.held.has(m)) return this.forget();
    const old = Object.hasOwn(m, key) ? m[key] : undefined;
    let delta = 0;
    // An entry is its key, a colon and its value, and a comma when it is not the only one.
    if (old !== undefined) delta -= key.length + 2 + this.sizeOf(old, budget);
    if (value !== undefined) {
      delta += key.length + 2 + this.sizeOf(value, budget);
      if (typeof value === 'object' && value !== null) {
        this.held.add(value);
        const d = this.depthOf(value, budget) + 1;
        if (d > (this.depths.get(m) ?? 0)) this.depths.set(m, d);
      }
    }
    // The only entry has no comma: an empty map's size is 2 (a non-empty one's at least 3).
    if (size === 2 && old === undefined && value !== undefined) delta--;
    this.sizes.set(m, Math.max(2, size + delta));
  }

  /** A merge is about to change maps in place, nested ones too: forget every size. */
  forget(): void {
    this.sizes = new Map();
    this.depths = new Map();
    this.held = new Set();
  }

  private measure(v: object, budget: Budget, depth: number): number {
    if (v instanceof GoStruct) return 1;
    if (depth >= MAX_VALUE_DEPTH) throw new ValueDepthError();
    // A value that contains itself would be written out forever; set and merge refuse to build one.
    this.sizes.set(v, Infinity);
    let size = 2;
    let deepest = 0;
    if (Array.isArray(v)) {
      const a = v as readonly unknown[];
      size += a.length > 0 ? a.length - 1 : 0;
      for (let i = 0; i < a.length; i++) {
        spendWork(budget, 1, 'measuring a value');
        const x = a[i];
        if (typeof x === 'object' && x !== null) {
          this.held.add(x);
          size += this.sizes.get(x) ?? this.measure(x, budget, depth + 1);
          const d = this.depths.get(x) ?? 0;
          if (d > deepest) deepest = d;
        } else size += scalarSize(x);
      }
    } else {
      let n = 0;
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        const x = (v as Record<string, unknown>)[k];
        if (x === undefined) continue;
        spendWork(budget, 1, 'measuring a value');
        n++;
        size += k.length + 1;
        if (typeof x === 'object' && x !== null) {
          this.held.add(x);
          size += this.sizes.get(x) ?? this.measure(x, budget, depth + 1);
          const d = this.depths.get(x) ?? 0;
          if (d > deepest) deepest = d;
        } else size += scalarSize(x);
      }
      size += n > 0 ? n - 1 : 0;
    }
    if (deepest + 1 > MAX_VALUE_DEPTH) throw new ValueDepthError();
    this.sizes.set(v, size);
    this.depths.set(v, deepest + 1);
    return size;
  }
}

function scalarSize(v: unknown): number {
  return typeof v === 'string' ? v.length : 1;
}

/** The size cache of `budget`'s rendering, made on first use: most renderings measure nothing. */
export function sizesOf(budget: Budget): ValueSizes {
  return (budget.sizes ??= new ValueSizes());
}

/**
 * Refuses `v` when written out it would pass the output limit: before a function walks it
 * (`verb` "walk") or once a function has built it ("build").
 */
export function checkValueSize(budget: Budget, v: unknown, name: string, verb: 'walk' | 'build'): void {
  if (typeof v !== 'object' || v === null || v instanceof GoStruct) return;
  const sizes = sizesOf(budget);
  const size = sizes.sizeOf(v, budget);
  if (size > budget.maxOutputBytes) {
    const what = Number.isFinite(size) && size < 1e15 ? `${size} bytes` : 'more bytes than a number holds';
    throw new FunctionBudgetError('maxOutputBytes', `${name} would ${verb} a value of at least ${what} written out, more than ${budget.maxOutputBytes}`);
  }
}
