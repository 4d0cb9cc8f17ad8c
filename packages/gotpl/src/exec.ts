/**
 * The statement walker, ported from text/template/exec.go: text, actions, if/with,
 * range (with break and continue), and {{template}} calls. Expressions are evaluated by
 * the Evaluator it extends. {{break}} and {{continue}} unwind with thrown sentinels, as
 * Go unwinds with panics. Every range iteration, {{template}} call and write spends from
 * the rendering's Budget (budget.ts), in place and without calls until a limit is near.
 */
import { N, nodeString } from './ast.js';
import type { BranchNode, ItemNode, ListNode, PipeNode, TemplateNode } from './ast.js';
import { Evaluator } from './eval.js';
import { FunctionBudgetError } from './budget.js';
import { printOne } from './fmt.js';
import { sprintf } from './fmt-printf.js';
import { quoteString } from './unicode.js';
import { GoStruct, isTrue, kindOf, Kind, sortedKeys, typeName } from './values.js';
import type { GoMap } from './values.js';

/** Go's limit on nested {{template}} calls for wasm, and a safe one for JavaScript stacks. */
const MAX_EXEC_DEPTH = 1000;

const BREAK = { control: 'break' };
const CONTINUE = { control: 'continue' };

/** Short values are the common case; counting their UTF-8 bytes by hand beats a native call. */
function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

export class Executor extends Evaluator {
  out = '';
  private depth = 0;

  /** Executes `root` and returns the output. */
  render(root: ListNode, data: unknown): string {
    const dot = data === null ? undefined : data;
    this.push('$', dot, false);
    this.walk(dot, root);
    return this.out;
  }

  /** Evaluates the pipeline of a lone action and returns its value instead of printing it. */
  evaluate(pipe: PipeNode, data: unknown): unknown {
    const dot = data === null ? undefined : data;
    this.push('$', dot, false);
    const v = this.evalPipeline(dot, pipe);
    // A Go value of its own (a time, a version) is what the template would print: callers get JSON-like values only.
    if (v instanceof GoStruct) return v.goString();
    return v === undefined ? null : v;
  }

  private walk(dot: unknown, node: ItemNode | ListNode): void {
    this.node = node;
    switch (node.kind) {
      case N.Text:
        this.write(node.bytes);
        this.out += node.text;
        return;
      case N.Action: {
        // Variables declared here persist until the enclosing end; a declaration prints nothing.
        const v = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, v);
        return;
      }
      case N.List: {
        const nodes = node.nodes;
        for (let i = 0; i < nodes.length; i++) this.walk(dot, nodes[i]!);
        return;
      }
      case N.If:
      case N.With:
        this.walkIfOrWith(node, dot);
        return;
      case N.Range:
        this.walkRange(node, dot);
        return;
      case N.Template:
        this.walkTemplate(node, dot);
        return;
      case N.Break:
        // A sentinel, not an Error: unwinding to the range costs no stack capture.
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        throw BREAK;
      case N.Continue:
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        throw CONTINUE;
    }
  }

  private walkIfOrWith(node: BranchNode, dot: unknown): void {
    const mark = this.top;
    const val = this.evalPipeline(dot, node.pipe);
    if (isTrue(val)) {
      if (node.kind === N.With) {
        const saved = this.dotBoxed;
        this.dotBoxed = false;
        this.walk(val, node.list);
        this.dotBoxed = saved;
      } else {
        this.walk(dot, node.list);
      }
    } else if (node.elseList !== null) {
      this.walk(dot, node.elseList);
    }
    this.pop(mark);
  }

  private walkRange(r: BranchNode, dot: unknown): void {
    this.node = r;
    const outer = this.top;
    const val = this.evalPipeline(dot, r.pipe);
    const mark = this.top; // after the declared variables
    const savedBoxed = this.dotBoxed;
    let iterated = false;
    const b = this.budget;
    try {
      switch (kindOf(val)) {
        case Kind.Int: {
          // Go 1.22 range over int: 0..n-1, and only one variable.
          if (r.pipe.decl.length > 1) this.errorf(`can't use ${sprintf('%v', [val])} to iterate over more than one variable`);
          const n = Number(val);
          iterated = n > 0;
          for (let i = 0; i < n; i++) {
            if (++b.iterations > b.maxIterations || --b.untilClock <= 0) this.iterationCheck(r);
            this.iteration(r, mark, undefined, i, false);
          }
          break;
        }
        case Kind.Slice: {
          const a = val as unknown[];
          iterated = a.length > 0;
          for (let i = 0; i < a.length; i++) {
            if (++b.iterations > b.maxIterations || --b.untilClock <= 0) this.iterationCheck(r);
            this.iteration(r, mark, i, a[i] === undefined ? null : a[i], true);
          }
          break;
        }
        case Kind.Map: {
          const keys = sortedKeys(val as GoMap);
          iterated = keys.length > 0;
          for (const k of keys) {
            if (++b.iterations > b.maxIterations || --b.untilClock <= 0) this.iterationCheck(r);
            this.iteration(r, mark, k, (val as GoMap)[k], true);
          }
          break;
        }
        case Kind.Invalid:
          break; // nil acts like an empty collection
        default:
          this.errorf(`range can't iterate over ${sprintf('%v', [val])}`);
      }
    } catch (e) {
      if (e !== BREAK) throw e;
      iterated = true;
    }
    this.dotBoxed = savedBoxed;
    this.pop(mark);
    if (!iterated && r.elseList !== null) {
      // A {{break}} in the else list belongs to an enclosing range at parse time, but
      // Go's walkRange recovers it here, so it only ends this (finished) range.
      try {
        this.walk(dot, r.elseList);
      } catch (e) {
        if (e !== BREAK) throw e;
      }
    }
    this.pop(outer);
  }

  /**
   * Every iteration of every range counts, nested or not. Messages point at the range's
   * pipeline (`at <.input.n>`), not the whole range with its body as Go's would.
   */
  private iterationCheck(r: BranchNode): void {
    const b = this.budget;
    if (b.iterations > b.maxIterations) {
      this.node = r.pipe;
      this.overBudget('maxIterations', `more than ${b.maxIterations} loop iterations`);
    }
    if (b.untilClock <= 0 && b.clock()) {
      this.node = r.pipe;
      this.outOfTime();
    }
  }

  private iteration(r: BranchNode, mark: number, index: unknown, elem: unknown, elemBoxed: boolean): void {
    const decl = r.pipe.decl;
    if (decl.length > 0) {
      // With two variables the index comes first; with one, it gets the element.
      if (!r.pipe.isAssign) this.setTopVar(1, elem, elemBoxed);
      else if (decl.length > 1) this.setVar(decl[0]!.name, index, false);
      else this.setVar(decl[0]!.name, elem, elemBoxed);
    }
    if (decl.length > 1) {
      if (r.pipe.isAssign) this.setVar(decl[1]!.name, elem, elemBoxed);
      else this.setTopVar(2, index, false);
    }
    this.dotBoxed = elemBoxed;
    try {
      this.walk(elem, r.list);
    } catch (e) {
      if (e !== CONTINUE) throw e;
    }
    this.pop(mark);
  }

  private walkTemplate(t: TemplateNode, dot: unknown): void {
    this.node = t;
    const tree = this.program.trees.get(t.name);
    if (tree === undefined) this.errorf(`template ${quoteString(t.name)} not defined`);
    if (this.depth === MAX_EXEC_DEPTH) this.errorf(`exceeded maximum template depth (${MAX_EXEC_DEPTH})`);
    // Recursion without a loop still multiplies: {{template "a"}} twice inside "a".
    if (this.budget.tick()) this.outOfTime();
    // Variables declared by the pipeline persist in the caller.
    const newDot = this.evalPipeline(dot, t.pipe);
    const saved = { base: this.base, top: this.top, executing: this.executing, boxed: this.dotBoxed };
    // No dynamic scoping: the callee sees only $.
    this.base = this.top;
    this.push('$', newDot, false);
    this.executing = t.name;
    this.dotBoxed = false;
    this.depth++;
    this.walk(newDot, tree);
    this.depth--;
    this.pop(saved.top);
    this.base = saved.base;
    this.executing = saved.executing;
    this.dotBoxed = saved.boxed;
  }

  private printValue(node: ItemNode, v: unknown): void {
    this.node = node;
    if (typeof v === 'function') this.errorf(`can't print ${nodeString(node)} of type ${typeName(v)}`);
    if (typeof v === 'object' && v !== null) this.checkPrinted(v);
    const s = v === undefined || v === null ? '<no value>' : this.printed(v);
    this.write(s.length < 64 && isAscii(s) ? s.length : Buffer.byteLength(s, 'utf8'));
    this.out += s;
  }

  /** printOne on the rendering's clock: printing a long list stops at the time limit. */
  private printed(v: unknown): string {
    try {
      return printOne(v, this.budget);
    } catch (e) {
      if (e instanceof FunctionBudgetError) this.overBudget(e.limit, e.what);
      throw e;
    }
  }

  /** Counts `bytes` about to be written, stopping the rendering before the output passes its limit. */
  private write(bytes: number): void {
    const b = this.budget;
    if ((b.outputBytes += bytes) > b.maxOutputBytes) this.outputFull();
  }

  private outputFull(): never {
    const b = this.budget;
    this.overBudget('maxOutputBytes', `output would reach ${b.outputBytes} bytes, more than ${b.maxOutputBytes}`);
  }
}
