/**
 * A canonical text for a value such that two values have the same text exactly when
 * deepEqual (reflect.DeepEqual's rules, convert.ts) holds between them. uniq, without and
 * has hash on it: one pass over the list instead of comparing every pair, which made
 * `{{ until 20000 | uniq }}` take seconds. Building a key costs the value's size, and
 * exec has refused any argument larger written out than the output may be.
 */
import type { Budget } from '../budget.js';
import { spendWork } from '../budget.js';
import { GoStruct, isMap, sortedKeys, typeName } from '../values.js';

/**
 * Values deepEqual to nothing, not even themselves (NaN, and anything holding one), have no
 * key: `null`. A function is equal only to itself; `functions` numbers them for one call.
 */
export type ValueKey = string | null;

export class ValueKeys {
  private readonly functions = new Map<unknown, number>();

  constructor(
    private readonly budget: Budget,
    private readonly name: string,
  ) {}

  keyOf(v: unknown): ValueKey {
    spendWork(this.budget, 1, this.name);
    switch (typeof v) {
      case 'undefined':
        return 'n';
      case 'string':
        return JSON.stringify(v);
      case 'number':
        return Number.isNaN(v) ? null : `${typeName(v)}:${String(v)}`;
      case 'bigint':
        return `${typeName(v)}:${v.toString()}`;
      case 'boolean':
        return v ? 't' : 'f';
      case 'function': {
        let id = this.functions.get(v);
        if (id === undefined) this.functions.set(v, (id = this.functions.size));
        return `F${id}`;
      }
    }
    if (v === null) return 'n';
    if (v instanceof GoStruct) return `G${v.goType}:${JSON.stringify(v.goString())}`;
    if (Array.isArray(v)) {
      let out = '[';
      for (let i = 0; i < v.length; i++) {
        const k = this.keyOf(v[i]);
        if (k === null) return null;
        out += (i === 0 ? '' : ',') + k;
      }
      return out + ']';
    }
    if (isMap(v)) {
      let out = '{';
      let first = true;
      for (const key of sortedKeys(v)) {
        const k = this.keyOf(v[key]);
        if (k === null) return null;
        out += (first ? '' : ',') + JSON.stringify(key) + ':' + k;
        first = false;
      }
      return out + '}';
    }
    return null;
  }
}
