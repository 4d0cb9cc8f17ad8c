/**
 * The static shape of a template: whether, whatever its data, its cost is bounded by its
 * own length times its input's size ("flat"), or whether it can loop or build (a range, a
 * {{template}} call that may recurse, or a function outside a short list of functions that
 * take about their arguments' size). An embedder may run the second kind somewhere it can
 * stop from outside (Switchboard: a worker thread, docs/gotpl.md "Limits"), and the first
 * kind in-process, where a field reference costs a fraction of a microsecond.
 */
import { N } from './ast.js';
import type { ArgNode, ItemNode, ListNode, PipeNode } from './ast.js';

/**
 * Functions whose cost is about their arguments' size and whose result is no larger: a
 * template calling only these, without range or {{template}}, does a bounded amount of
 * work. Anything not listed (the case conversions, regular expressions, until, uniq...)
 * counts as able to loop, so a function added later is on the safe side by default.
 */
const FLAT_FUNCTIONS: ReadonlySet<string> = new Set([
  'and',
  'or',
  'not',
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'len',
  'index',
  'default',
  'empty',
  'coalesce',
  'ternary',
  'first',
  'last',
  'get',
  'hasKey',
  'dig',
  'typeOf',
  'kindOf',
  'kindIs',
  'typeIs',
  'add',
  'add1',
  'sub',
  'mul',
  'div',
  'mod',
  'max',
  'min',
  'int',
  'int64',
  'float64',
  'atoi',
  'toString',
  'quote',
  'squote',
  'trim',
  'trimPrefix',
  'trimSuffix',
  'hasPrefix',
  'hasSuffix',
  'contains',
  'upper',
  'lower',
  'printf',
  'print',
  'toJson',
  'toRawJson',
  'fromJson',
  'b64enc',
  'b64dec',
  'urlquery',
  'list',
  'dict',
]);

function pipeLoops(pipe: PipeNode | null): boolean {
  if (pipe === null) return false;
  for (const cmd of pipe.cmds) for (const arg of cmd.args) if (argLoops(arg)) return true;
  return false;
}

function argLoops(arg: ArgNode): boolean {
  switch (arg.kind) {
    case N.Identifier:
      return !FLAT_FUNCTIONS.has(arg.name);
    case N.Pipe:
      return pipeLoops(arg);
    case N.Chain:
      return argLoops(arg.node);
    default:
      return false;
  }
}

function itemLoops(node: ItemNode | ListNode): boolean {
  switch (node.kind) {
    case N.List:
      return node.nodes.some(itemLoops);
    case N.Action:
      return pipeLoops(node.pipe);
    case N.If:
    case N.With:
      return pipeLoops(node.pipe) || itemLoops(node.list) || (node.elseList !== null && itemLoops(node.elseList));
    case N.Range:
    case N.Template:
      return true;
    default:
      return false;
  }
}

/** Whether templates of `trees` may loop or build (see above); a {{define}} counts, as a call may recurse. */
export function mayLoop(trees: ReadonlyMap<string, ListNode>): boolean {
  if (trees.size > 1) return true;
  for (const tree of trees.values()) if (itemLoops(tree)) return true;
  return false;
}
