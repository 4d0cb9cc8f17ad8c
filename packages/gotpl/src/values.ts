/**
 * How JavaScript values stand in for Go values.
 *
 * - `undefined` is Go's invalid reflect.Value ("no value"): a nil pipeline result, `$x`
 *   holding nothing, dot under `{{template "x"}}` without an argument.
 * - `null` is a nil interface{} sitting inside data: a JSON null in a map or slice.
 *   Pipelines turn it into `undefined` exactly where Go "digs" into the interface.
 * - A number is an int when it is integer-valued and fits int64, otherwise a float64.
 * - Arrays are []interface{}, plain objects are map[string]interface{}.
 */
import { compareStrings } from './unicode.js';

export const enum Kind {
  Invalid,
  Bool,
  Int,
  Float,
  String,
  Slice,
  Map,
  Func,
  /** A Go struct or pointer to one that a function returned: time.Time, *semver.Version. */
  Struct,
}

export type GoFunction = (...args: unknown[]) => unknown;

/**
 * A Go value with a type of its own that a sprig function returns (time.Time,
 * *semver.Version). It prints with its String method, as fmt does for a Stringer, is
 * true in conditions like any struct, and exposes its argument-less methods as fields
 * (`(now).Year`, `(semver "1.2.3").Major`).
 */
export abstract class GoStruct {
  /** reflect.Type.String(): "time.Time", "*semver.Version". */
  abstract readonly goType: string;
  /** reflect.Kind.String(): "struct" or "ptr". */
  abstract readonly goKind: string;
  /** Its String method. */
  abstract goString(): string;
  /** An argument-less method or exported field, or undefined when it has none by that name. */
  abstract field(name: string): unknown;
  /** What encoding/json writes for it. */
  abstract toJSON(): unknown;
}
export type GoMap = Record<string, unknown>;

const TWO_63 = 2 ** 63;

/** An integer-valued number in int64 range behaves as a Go int. */
export function isIntNumber(n: number): boolean {
  return Number.isInteger(n) && n < TWO_63 && n >= -TWO_63;
}

export function isMap(v: unknown): v is GoMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof GoStruct);
}

export function kindOf(v: unknown): Kind {
  switch (typeof v) {
    case 'string':
      return Kind.String;
    case 'number':
      return isIntNumber(v) ? Kind.Int : Kind.Float;
    case 'boolean':
      return Kind.Bool;
    case 'bigint':
      return Kind.Int;
    case 'function':
      return Kind.Func;
    case 'object':
      if (v === null) return Kind.Invalid;
      if (Array.isArray(v)) return Kind.Slice;
      return v instanceof GoStruct ? Kind.Struct : Kind.Map;
  }
  return Kind.Invalid;
}

/** reflect.Type.String() of the Go value this JavaScript value stands for. */
export function typeName(v: unknown): string {
  switch (kindOf(v)) {
    case Kind.String:
      return 'string';
    case Kind.Int:
      return 'int';
    case Kind.Float:
      return 'float64';
    case Kind.Bool:
      return 'bool';
    case Kind.Slice:
      return '[]interface {}';
    case Kind.Map:
      return 'map[string]interface {}';
    case Kind.Func:
      return 'func(...interface {}) interface {}';
    case Kind.Struct:
      return (v as GoStruct).goType;
  }
  return 'interface {}';
}

/** Map lookup that never sees inherited properties such as `constructor`. */
export function mapGet(m: GoMap, key: string): unknown {
  const v = m[key];
  return v === undefined || !Object.hasOwn(m, key) ? undefined : v;
}

export function mapSize(m: GoMap): number {
  let n = 0;
  for (const k in m) if (Object.hasOwn(m, k) && m[k] !== undefined) n++;
  return n;
}

/** Keys in Go's map iteration order for printing and range: sorted (bytewise). */
export function sortedKeys(m: GoMap): string[] {
  const keys: string[] = [];
  for (const k in m) if (Object.hasOwn(m, k) && m[k] !== undefined) keys.push(k);
  return keys.sort(compareStrings);
}

function mapIsEmpty(m: GoMap): boolean {
  for (const k in m) if (Object.hasOwn(m, k) && m[k] !== undefined) return false;
  return true;
}

/** text/template's truth: false, 0, "", nil and empty collections are false. */
export function isTrue(v: unknown): boolean {
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'string':
      return v.length > 0;
    case 'number':
      return v !== 0;
    case 'bigint':
      return v !== 0n;
    case 'undefined':
      return false;
    case 'function':
      return true;
    case 'object':
      if (v === null) return false;
      if (Array.isArray(v)) return v.length > 0;
      return v instanceof GoStruct || !mapIsEmpty(v as GoMap);
  }
  return true;
}
