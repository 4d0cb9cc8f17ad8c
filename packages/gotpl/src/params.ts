/** The parameter types of template functions, shared by the function table and the evaluator. */
import { GoStruct, isIntNumber, isMap } from './values.js';

/** How exec evaluates an argument for a parameter. */
export const enum Param {
  /** reflect.Value: anything, nil stays "no value". */
  Value,
  /** interface{}: anything, "no value" becomes nil. */
  Iface,
  /** string: only strings. */
  String,
  /** int (and int64): integer literals, integer values. */
  Int,
  /** float64: number literals, numbers. */
  Float,
  /** bool: true, false, booleans. */
  Bool,
  /** map[string]interface {}: maps, nil. */
  Map,
  /** time.Time: what now, toDate and dateModify return. */
  Time,
}

/** Go's name of each typed parameter, for messages. */
export const PARAM_TYPE: Readonly<Record<Param, string>> = {
  [Param.Value]: 'reflect.Value',
  [Param.Iface]: 'interface {}',
  [Param.String]: 'string',
  [Param.Int]: 'int',
  [Param.Float]: 'float64',
  [Param.Bool]: 'bool',
  [Param.Map]: 'map[string]interface {}',
  [Param.Time]: 'time.Time',
};

/** Whether a value is assignable to a typed parameter (numbers: see docs/gotpl.md, differences 1 and 2). */
export function fitsParam(v: unknown, t: Param): boolean {
  switch (t) {
    case Param.String:
      return typeof v === 'string';
    case Param.Int:
      return (typeof v === 'number' && isIntNumber(v)) || typeof v === 'bigint';
    case Param.Float:
      return typeof v === 'number';
    case Param.Bool:
      return typeof v === 'boolean';
    case Param.Map:
      return isMap(v);
    case Param.Time:
      return v instanceof GoStruct && v.goType === 'time.Time';
  }
  return true;
}
