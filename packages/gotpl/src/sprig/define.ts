/**
 * How a sprig function is declared: Go's parameter types (text/template converts and
 * checks arguments against them before the call, with Go's messages) and the body, which
 * receives the converted arguments as one array, and the rendering's budget (for functions
 * that build collections or long strings) and clock.
 */
import type { CallContext } from '../context.js';
import { Param } from '../params.js';

export interface SprigFunction {
  readonly params: readonly Param[];
  /** Element type of a trailing variadic parameter, or null. */
  readonly variadic: Param | null;
  readonly fn: (args: unknown[], context: CallContext) => unknown;
}

/** One group of functions by name, as sprig's documentation groups them. */
export type FunctionGroup = Readonly<Record<string, SprigFunction>>;

export function fixed(params: readonly Param[], fn: (args: unknown[], context: CallContext) => unknown): SprigFunction {
  return { params, variadic: null, fn };
}

export function variadic(params: readonly Param[], rest: Param, fn: (args: unknown[], context: CallContext) => unknown): SprigFunction {
  return { params, variadic: rest, fn };
}

/** Parameter shorthands for the declarations. */
export const S = Param.String;
export const I = Param.Iface;
export const INT = Param.Int;
export const F = Param.Float;
export const B = Param.Bool;
export const M = Param.Map;
export const T = Param.Time;
