/**
 * The comparison builtins eq, ne, lt, le, gt, ge with Go's rules: only basic kinds (bool,
 * numbers, strings) compare; mixing kinds is an error except against nil.
 *
 * Deliberate difference: Go refuses to compare an int with a float64 ("incompatible types
 * for comparison"). JavaScript numbers carry no such distinction, so all numbers compare
 * numerically.
 */
import { sprintf } from './fmt-printf.js';
import { compareStrings } from './unicode.js';
import { GoStruct, kindOf, Kind, typeName } from './values.js';

/** An error a builtin returns; exec reports it as "error calling NAME: message". */
export class BuiltinError extends Error {}

const enum Basic {
  Invalid,
  Bool,
  Number,
  String,
}

function basicKind(v: unknown): Basic {
  switch (typeof v) {
    case 'boolean':
      return Basic.Bool;
    case 'number':
    case 'bigint':
      return Basic.Number;
    case 'string':
      return Basic.String;
  }
  return Basic.Invalid;
}

/** indirectInterface: a nil interface element is just "nothing" to the comparisons. */
function concrete(v: unknown): unknown {
  return v === null ? undefined : v;
}

function equalNonBasic(a: unknown, b: unknown): boolean {
  const ka = kindOf(a);
  const kb = kindOf(b);
  // canCompare: the same kind, or one side nil.
  if (ka !== kb && ka !== Kind.Invalid && kb !== Kind.Invalid) {
    throw new BuiltinError(sprintf('non-comparable types %s: %v, %s: %v', [a, typeName(a), typeName(b), b]));
  }
  if (a === undefined || b === undefined) return a === b;
  // A struct (time.Time) compares by value, a pointer (*semver.Version) by identity.
  if (a instanceof GoStruct && b instanceof GoStruct) {
    if (a.goType !== b.goType) throw new BuiltinError(sprintf('non-comparable types %s: %v, %s: %v', [a, typeName(a), typeName(b), b]));
    return a.goKind === 'ptr' ? a === b : a.goString() === b.goString();
  }
  // Slices, maps and functions are not comparable in Go.
  throw new BuiltinError(sprintf('non-comparable type %s: %v', [b, typeName(b)]));
}

/** eq a b c ... is a == b || a == c || ... */
export function eq(args: readonly unknown[]): boolean {
  const a = concrete(args[0]);
  if (args.length < 2) throw new BuiltinError('missing argument for comparison');
  const ka = basicKind(a);
  for (let i = 1; i < args.length; i++) {
    const b = concrete(args[i]);
    const kb = basicKind(b);
    let truth = false;
    if (ka !== kb) {
      if (a !== undefined && b !== undefined) {
        throw new BuiltinError(`incompatible types for comparison: ${typeName(a)} and ${typeName(b)}`);
      }
    } else if (ka === Basic.Invalid) {
      truth = equalNonBasic(a, b);
    } else {
      truth = ka === Basic.Number ? a == b : a === b;
    }
    if (truth) return true;
  }
  return false;
}

export function ne(args: readonly unknown[]): boolean {
  return !eq(args);
}

export function lt(args: readonly unknown[]): boolean {
  const a = concrete(args[0]);
  const b = concrete(args[1]);
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka === Basic.Invalid || kb === Basic.Invalid) throw new BuiltinError('invalid type for comparison');
  if (ka !== kb) throw new BuiltinError(`incompatible types for comparison: ${typeName(a)} and ${typeName(b)}`);
  switch (ka) {
    case Basic.Number:
      return (a as number) < (b as number);
    case Basic.String:
      return compareStrings(a as string, b as string) < 0;
  }
  throw new BuiltinError('invalid type for comparison');
}

export function le(args: readonly unknown[]): boolean {
  return lt(args) || eq(args);
}

export function gt(args: readonly unknown[]): boolean {
  return !le(args);
}

export function ge(args: readonly unknown[]): boolean {
  return !lt(args);
}
