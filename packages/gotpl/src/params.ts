/** The parameter types of template functions, shared by the function table and the evaluator. */

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
