/**
 * The collection builtins index, slice and len, plus not and call, ported from
 * text/template/funcs.go. Strings index and slice by UTF-8 byte, as in Go.
 */
import { BuiltinError } from './compare.js';
import { isAscii, utf8ByteAt, utf8Length, utf8Slice } from './unicode.js';
import { isIntNumber, isMap, isTrue, mapGet, mapSize, typeName } from './values.js';
import type { GoFunction } from './values.js';

/** An argument that was a nil interface inside data is simply nil here (indirectInterface). */
function concrete(v: unknown): unknown {
  return v === null ? undefined : v;
}

/** Go's indexArg: an integer index within [0, cap]. */
function indexArg(index: unknown, cap: number): number {
  let x: number;
  if (typeof index === 'number' && isIntNumber(index)) x = index;
  else if (typeof index === 'bigint') x = Number(index);
  else if (index === undefined) throw new BuiltinError('cannot index slice/array with nil');
  else throw new BuiltinError(`cannot index slice/array with type ${typeName(index)}`);
  if (x < 0 || x > cap) throw new BuiltinError(`index out of range: ${x}`);
  return x;
}

/** index x 1 2 3 is x[1][2][3]; a missing map key yields nil, as in Go. */
export function index(args: readonly unknown[]): unknown {
  let item = concrete(args[0]);
  if (item === undefined) throw new BuiltinError('index of untyped nil');
  for (let i = 1; i < args.length; i++) {
    const ix = concrete(args[i]);
    if (item === null) throw new BuiltinError('index of nil pointer');
    if (typeof item === 'string') {
      const len = utf8Length(item);
      const x = indexArg(ix, len);
      if (x === len) throw new BuiltinError('reflect: string index out of range');
      item = utf8ByteAt(item, x);
    } else if (Array.isArray(item)) {
      const x = indexArg(ix, item.length);
      if (x === item.length) throw new BuiltinError('reflect: slice index out of range');
      item = item[x] === undefined ? null : item[x];
    } else if (isMap(item)) {
      if (ix === undefined) throw new BuiltinError('value is nil; should be of type string');
      if (typeof ix !== 'string') throw new BuiltinError(`value has type ${typeName(ix)}; should be string`);
      const v = mapGet(item, ix);
      item = v === undefined ? null : v;
    } else {
      throw new BuiltinError(`can't index item of type ${typeName(item)}`);
    }
  }
  return item;
}

/** slice x 1 2 is x[1:2]; "slice x" is x[:], "slice x 1 2 3" is x[1:2:3]. */
export function slice(args: readonly unknown[]): unknown {
  const item = concrete(args[0]);
  if (item === undefined) throw new BuiltinError('slice of untyped nil');
  const indexes = args.length - 1;
  if (indexes > 3) throw new BuiltinError(`too many slice indexes: ${indexes}`);
  let len: number;
  if (typeof item === 'string') {
    if (indexes === 3) throw new BuiltinError('cannot 3-index slice a string');
    len = utf8Length(item);
  } else if (Array.isArray(item)) {
    len = item.length; // a JavaScript array's capacity is its length
  } else {
    throw new BuiltinError(`can't slice item of type ${typeName(item)}`);
  }
  const idx = [0, len, 0];
  for (let i = 0; i < indexes; i++) idx[i] = indexArg(concrete(args[i + 1]), len);
  if (idx[0]! > idx[1]!) throw new BuiltinError(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (indexes === 3 && idx[1]! > idx[2]!) throw new BuiltinError(`invalid slice index: ${idx[1]} > ${idx[2]}`);
  if (typeof item === 'string') return isAscii(item) ? item.slice(idx[0], idx[1]) : utf8Slice(item, idx[0]!, idx[1]!);
  return item.slice(idx[0], idx[1]);
}

export function length(args: readonly unknown[]): number {
  const item = args[0];
  if (item === null) throw new BuiltinError('len of nil pointer');
  if (item === undefined) throw new BuiltinError('reflect: call of reflect.Value.Type on zero Value');
  if (typeof item === 'string') return utf8Length(item);
  if (Array.isArray(item)) return item.length;
  if (isMap(item)) return mapSize(item);
  throw new BuiltinError(`len of type ${typeName(item)}`);
}

export function not(args: readonly unknown[]): boolean {
  return !isTrue(args[0]);
}

/**
 * call FN ARGS...: args[0] is the source text of the function operand (for messages),
 * args[1] the function value.
 */
export function call(args: readonly unknown[]): unknown {
  const name = args[0] as string;
  const fn = concrete(args[1]);
  if (fn === undefined) throw new BuiltinError('call of nil');
  if (typeof fn !== 'function') throw new BuiltinError(`non-function ${name} of type ${typeName(fn)}`);
  const callArgs: unknown[] = [];
  for (let i = 2; i < args.length; i++) callArgs.push(args[i] === undefined ? null : args[i]);
  return (fn as GoFunction)(...callArgs);
}
