/** sprig's reflection functions: typeOf (%T), typeIs, typeIsLike, kindOf, kindIs, deepEqual. */
import { deepEqual, goTypeOf, kindName } from './convert.js';
import type { FunctionGroup } from './define.js';
import { fixed, I, S } from './define.js';

export const TYPES: FunctionGroup = {
  typeOf: fixed([I], (a) => goTypeOf(a[0])),
  typeIs: fixed([S, I], (a) => a[0] === goTypeOf(a[1])),
  typeIsLike: fixed([S, I], (a) => {
    const t = goTypeOf(a[1]);
    return a[0] === t || `*${a[0] as string}` === t;
  }),
  kindOf: fixed([I], (a) => kindName(a[0])),
  kindIs: fixed([S, I], (a) => a[0] === kindName(a[1])),
  deepEqual: fixed([I, I], (a) => deepEqual(a[0], a[1])),
};
