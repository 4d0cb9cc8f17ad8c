/**
 * Expression evaluation for the executor, ported from text/template/exec.go: pipelines,
 * commands, field chains, function calls and argument conversion, plus the variable stack
 * and Go-format error reporting they share with the statement walker (exec.ts).
 *
 * The code follows Go function by function, including which node is "current" when an
 * error is raised, because that node is what Go's messages quote (`at <.a.b>`).
 */
import { N, nodeString } from './ast.js';
import type { AnyNode, ArgNode, ChainNode, CommandNode, FieldNode, IdentifierNode, ListNode, NumberNode, PipeNode, VariableNode } from './ast.js';
import type { Budget, BudgetLimit } from './budget.js';
import type { CallContext, Clock } from './context.js';
import { TemplateBudgetError, TemplateError, TemplateExecError, locate } from './errors.js';
import { Param, Special } from './functions.js';
import { fitsParam, PARAM_TYPE } from './params.js';
import type { Func } from './functions.js';
import { quoteString } from './unicode.js';
import { GoStruct, isIntNumber, isMap, isTrue, mapGet, typeName } from './values.js';
import { FunctionBudgetError } from './budget.js';
import { checkValueSize, ValueDepthError } from './value-size.js';

/** A compiled template set: what execution needs besides the data. */
export interface Program {
  readonly source: string;
  readonly name: string;
  readonly trees: ReadonlyMap<string, ListNode>;
  readonly funcs: ReadonlyMap<string, Func>;
}

/** "No final argument from a previous pipeline stage" (Go's missingVal). */
const MISSING: unique symbol = Symbol('missing');
type Final = unknown;

/** Parameter type "none", for the receiver of a chain: no validation at all. */
const ANY = -1;
type ArgType = Param | typeof ANY;

export class Evaluator {
  protected node: AnyNode | null = null;
  /** Name of the template being executed (changes inside {{template}}). */
  protected executing: string;
  /** Whether dot is an element fetched out of a collection (typed interface{} in Go). */
  protected dotBoxed = false;
  // Variable stack: parallel arrays, searched from the top down to `base`.
  private readonly names: string[] = [];
  private readonly values: unknown[] = [];
  private readonly boxed: boolean[] = [];
  protected top = 0;
  protected base = 0;

  /** Handed to every function call: the budget and the clock. */
  private readonly context: CallContext;

  constructor(
    protected readonly program: Program,
    protected readonly budget: Budget,
    now: Clock = Date.now,
  ) {
    this.executing = program.name;
    this.context = { budget, now };
  }

  // ---- errors ----

  /** Go's message prefix for the current node, and the location for the error's fields. */
  private where(reason: string): { message: string; location: { templateName: string; line: number; column: number }; context: string } {
    const { name, source } = this.program;
    const node = this.node;
    if (node === null) return { message: `template: ${name}: ${reason}`, location: { templateName: name, line: 1, column: 1 }, context: '' };
    const at = locate(source, node.pos);
    const context = nodeString(node);
    return {
      message: `template: ${name}:${at.line}:${at.byteColumn}: executing ${quoteString(this.executing)} at <${context}>: ${reason}`,
      location: { templateName: name, line: at.line, column: at.column },
      context,
    };
  }

  protected errorf(reason: string): never {
    const { message, location, context } = this.where(reason);
    throw new TemplateExecError(message, location, reason, context, this.executing);
  }

  /** Stops the rendering: `what` says how the limit was passed ("more than 100000 loop iterations"). */
  protected overBudget(limit: BudgetLimit, what: string): never {
    const setting = this.budget.settingOf(limit);
    const reason = `template stopped: ${what} (${setting})`;
    const { message, location } = this.where(reason);
    throw new TemplateBudgetError(message, location, reason, limit, this.budget.limits[limit], setting);
  }

  /** Refuses to print a list or map larger written out than the output may be, before walking it. */
  protected checkPrinted(v: unknown): void {
    try {
      checkValueSize(this.budget, v, 'printing', 'walk');
    } catch (e) {
      if (e instanceof FunctionBudgetError) this.overBudget(e.limit, e.what);
      if (e instanceof ValueDepthError) this.errorf(`can't print: ${e.message}`);
      throw e;
    }
  }

  protected outOfTime(): never {
    this.overBudget('maxMilliseconds', `rendering took more than ${this.budget.limits.maxMilliseconds} ms`);
  }

  // ---- variables ----

  protected push(name: string, value: unknown, boxed: boolean): void {
    this.names[this.top] = name;
    this.values[this.top] = value;
    this.boxed[this.top] = boxed;
    this.top++;
  }

  protected pop(mark: number): void {
    this.top = mark;
  }

  protected lookup(name: string): number {
    for (let i = this.top - 1; i >= this.base; i--) if (this.names[i] === name) return i;
    this.errorf(`undefined variable: ${name}`);
  }

  protected setVar(name: string, value: unknown, boxed: boolean): void {
    const i = this.lookup(name);
    this.values[i] = value;
    this.boxed[i] = boxed;
  }

  protected setTopVar(n: number, value: unknown, boxed: boolean): void {
    this.values[this.top - n] = value;
    this.boxed[this.top - n] = boxed;
  }

  // ---- evaluation ----

  protected evalPipeline(dot: unknown, pipe: PipeNode | null): unknown {
    if (pipe === null) return undefined;
    this.node = pipe;
    let value: Final = MISSING;
    const cmds = pipe.cmds;
    for (let i = 0; i < cmds.length; i++) {
      value = this.evalCommand(dot, cmds[i]!, value);
      if (value === null) value = undefined; // dig into a nil interface{}: nothing there
    }
    const decl = pipe.decl;
    for (let i = 0; i < decl.length; i++) {
      if (pipe.isAssign) this.setVar(decl[i]!.name, value, false);
      else this.push(decl[i]!.name, value, false);
    }
    return value;
  }

  private notAFunction(args: readonly ArgNode[] | null, final: Final): void {
    if ((args !== null && args.length > 1) || final !== MISSING) {
      this.errorf(`can't give argument to non-function ${nodeString(args![0]!)}`);
    }
  }

  private evalCommand(dot: unknown, cmd: CommandNode, final: Final): unknown {
    const first = cmd.args[0]!;
    switch (first.kind) {
      case N.Field:
        return this.evalFieldNode(dot, first, cmd.args, final);
      case N.Chain:
        return this.evalChainNode(dot, first, cmd.args, final);
      case N.Identifier:
        return this.evalFunction(dot, first, cmd, cmd.args, final);
      case N.Pipe:
        // Parenthesized pipeline: the arguments are all inside it.
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first);
      case N.Variable:
        return this.evalVariableNode(first, cmd.args, final);
    }
    this.node = first;
    this.notAFunction(cmd.args, final);
    switch (first.kind) {
      case N.Bool:
        return first.value;
      case N.Dot:
        return dot;
      case N.Nil:
        return this.errorf('nil is not a command');
      case N.Number:
        return this.idealConstant(first);
      case N.String:
        return first.text;
    }
  }

  private idealConstant(n: NumberNode): number {
    this.node = n;
    if (n.overflowsInt) this.errorf(`${n.text} overflows int`);
    return n.value;
  }

  private evalFieldNode(dot: unknown, field: FieldNode, args: readonly ArgNode[] | null, final: Final): unknown {
    this.node = field;
    return this.evalFieldChain(dot, this.dotBoxed, field.idents, args, final);
  }

  private evalChainNode(dot: unknown, chain: ChainNode, args: readonly ArgNode[] | null, final: Final): unknown {
    this.node = chain;
    if (chain.node.kind === N.Nil) this.errorf(`indirection through explicit nil in ${nodeString(chain)}`);
    // (pipe).Field1.Field2: evaluate the pipeline, then the fields.
    const receiver = this.evalArg(dot, ANY, chain.node);
    return this.evalFieldChain(receiver, false, chain.fields, args, final);
  }

  private evalVariableNode(v: VariableNode, args: readonly ArgNode[] | null, final: Final): unknown {
    this.node = v;
    const i = this.lookup(v.name);
    if (v.fields.length === 0) {
      this.notAFunction(args, final);
      return this.values[i];
    }
    return this.evalFieldChain(this.values[i], this.boxed[i]!, v.fields, args, final);
  }

  /** .X.Y.Z: walks the chain from `receiver`; `boxed` as for dotBoxed, for messages. */
  private evalFieldChain(receiver: unknown, boxed: boolean, idents: readonly string[], args: readonly ArgNode[] | null, final: Final): unknown {
    const n = idents.length;
    for (let i = 0; i < n - 1; i++) {
      receiver = this.evalField(idents[i]!, null, MISSING, receiver, boxed);
      boxed = true;
    }
    return this.evalField(idents[n - 1]!, args, final, receiver, boxed);
  }

  private evalField(name: string, args: readonly ArgNode[] | null, final: Final, receiver: unknown, boxed: boolean): unknown {
    if (receiver === undefined) this.errorf(`nil data; no entry for key ${quoteString(name)}`);
    if (receiver === null) this.errorf(`nil pointer evaluating interface {}.${name}`);
    if (isMap(receiver)) {
      if ((args !== null && args.length > 1) || final !== MISSING) this.errorf(`${name} is not a method but has arguments`);
      const v = mapGet(receiver, name);
      if (v === undefined) this.errorf(`map has no entry for key ${quoteString(name)}`);
      return v;
    }
    if (receiver instanceof GoStruct) {
      const v = args !== null && args.length > 1 ? undefined : receiver.field(name);
      if (v !== undefined) return v;
      this.errorf(`can't evaluate field ${name} in type ${receiver.goType}`);
    }
    this.errorf(`can't evaluate field ${name} in type ${boxed ? 'interface {}' : typeName(receiver)}`);
  }

  private evalFunction(dot: unknown, ident: IdentifierNode, node: AnyNode, args: readonly ArgNode[] | null, final: Final): unknown {
    this.node = ident;
    const fn = this.program.funcs.get(ident.name);
    if (fn === undefined) this.errorf(`${quoteString(ident.name)} is not a defined function`);
    return this.evalCall(dot, fn, node, args, final);
  }

  /** `args`, when present, includes the function's own node at [0], as in Go. */
  private evalCall(dot: unknown, fn: Func, node: AnyNode, args: readonly ArgNode[] | null, final: Final): unknown {
    const argc = args === null ? 0 : args.length - 1;
    const numIn = final === MISSING ? argc : argc + 1;
    const fixed = fn.params.length;
    if (fn.variadic !== null) {
      if (numIn < fixed) this.errorf(`wrong number of args for ${fn.name}: want at least ${fixed} got ${argc}`);
    } else if (numIn !== fixed) {
      this.errorf(`wrong number of args for ${fn.name}: want ${fixed} got ${numIn}`);
    }

    if (fn.builtin && (fn.special === Special.And || fn.special === Special.Or)) {
      // Short-circuit: return the first argument that decides, else the last one.
      const or = fn.special === Special.Or;
      let v: unknown;
      for (let i = 1; i <= argc; i++) {
        v = this.evalArg(dot, Param.Value, args![i]!);
        if (isTrue(v) === or) return v;
      }
      if (final !== MISSING) v = this.validateType(final, Param.Value);
      return v;
    }

    const argv: unknown[] = new Array(numIn);
    const numFixed = fn.variadic !== null ? fixed : argc;
    let i = 0;
    for (; i < numFixed && i < argc; i++) argv[i] = this.evalArg(dot, fn.params[i]!, args![i + 1]!);
    if (fn.variadic !== null) for (; i < argc; i++) argv[i] = this.evalArg(dot, fn.variadic, args![i + 1]!);
    if (final !== MISSING) {
      let t: Param;
      if (fn.variadic === null) t = fn.params[fixed - 1]!;
      else t = numIn - 1 < numFixed ? fn.params[numIn - 1]! : fn.variadic;
      argv[i] = this.validateType(final, t);
    }
    if (fn.builtin && fn.special === Special.Call) argv.unshift(argc > 0 ? nodeString(args![1]!) : '');

    let result: unknown;
    try {
      if (fn.checked) {
        // Shared structure makes a small value in memory a huge one written out: refuse to walk it.
        for (let a = 0; a < argv.length; a++) if (typeof argv[a] === 'object' && argv[a] !== null) checkValueSize(this.budget, argv[a], fn.name, 'walk');
        result = fn.invoke(argv, this.context);
        if (typeof result === 'object' && result !== null) checkValueSize(this.budget, result, fn.name, 'build');
      } else {
        result = fn.invoke(argv, this.context);
      }
    } catch (e) {
      if (e instanceof TemplateError) throw e;
      this.node = node;
      if (e instanceof FunctionBudgetError) this.overBudget(e.limit, e.what);
      this.errorf(`error calling ${fn.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (typeof result === 'string') this.chargeBuilt(fn.name, node, result);
    else if (this.budget.tick()) this.outOfTime();
    return result === undefined ? null : result;
  }

  /**
   * A string a function built (printf, replace, toJson...): no larger than the output may
   * be, since it can be printed or built upon; and its length counts as work, so a loop
   * that builds big strings reads the clock sooner.
   */
  private chargeBuilt(name: string, node: AnyNode, s: string): void {
    const max = this.budget.maxOutputBytes;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: count exactly only near the limit.
    if (s.length * 3 > max) {
      const bytes = Buffer.byteLength(s, 'utf8');
      if (bytes > max) {
        this.node = node;
        this.overBudget('maxOutputBytes', `${name} built a value of ${bytes} bytes, more than ${max}`);
      }
    }
    if (this.budget.built(s.length)) {
      this.node = node;
      this.outOfTime();
    }
  }

  /** Go's validateType for the parameter kinds we have. */
  private validateType(value: unknown, t: ArgType): unknown {
    if (value === undefined) {
      if (t === Param.Iface) return null;
      if (t === Param.Map) return null; // a nil map
      if (t !== Param.Value && t !== ANY) this.errorf(`invalid value; expected ${PARAM_TYPE[t]}`);
      return undefined;
    }
    if (t === ANY || t <= Param.Iface) return value;
    if (!fitsParam(value, t)) this.errorf(`wrong type for value; expected ${PARAM_TYPE[t]}; got ${typeName(value)}`);
    return value;
  }

  private evalArg(dot: unknown, t: ArgType, n: ArgNode): unknown {
    this.node = n;
    switch (n.kind) {
      case N.Dot:
        return this.validateType(dot, t);
      case N.Nil:
        if (t === Param.Iface || t === Param.Map) return null;
        if (t !== Param.Value && t !== ANY) this.errorf(`cannot assign nil to ${PARAM_TYPE[t]}`);
        return undefined;
      case N.Field:
        return this.validateType(this.evalFieldNode(dot, n, null, MISSING), t);
      case N.Variable:
        return this.validateType(this.evalVariableNode(n, null, MISSING), t);
      case N.Pipe:
        return this.validateType(this.evalPipeline(dot, n), t);
      case N.Identifier:
        return this.validateType(this.evalFunction(dot, n, n, null, MISSING), t);
      case N.Chain:
        return this.validateType(this.evalChainNode(dot, n, null, MISSING), t);
    }
    switch (t) {
      case Param.String:
        if (n.kind === N.String) return n.text;
        return this.errorf(`expected string; found ${nodeString(n)}`);
      case Param.Int:
        if (n.kind === N.Number && !n.overflowsInt && isIntNumber(n.value)) return n.value;
        return this.errorf(`expected integer; found ${nodeString(n)}`);
      case Param.Float:
        if (n.kind === N.Number) return n.value;
        return this.errorf(`expected float; found ${nodeString(n)}`);
      case Param.Bool:
        if (n.kind === N.Bool) return n.value;
        return this.errorf(`expected bool; found ${nodeString(n)}`);
      case Param.Map:
      case Param.Time:
        return this.errorf(`can't handle ${nodeString(n)} for arg of type ${PARAM_TYPE[t]}`);
    }
    switch (n.kind) {
      case N.Bool:
        return n.value;
      case N.Number:
        return this.idealConstant(n);
      case N.String:
        return n.text;
    }
  }
}
