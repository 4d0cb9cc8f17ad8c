/**
 * compile() and the Template it returns: parse once, then render or evaluate any number of
 * times. Templates are immutable and safe to share; each call gets its own executor state.
 */
import { N } from './ast.js';
import type { ListNode, PipeNode } from './ast.js';
import { Budget } from './budget.js';
import { Executor } from './exec.js';
import type { Program } from './eval.js';
import { functionTable } from './functions.js';
import { parseTemplates } from './parser.js';
import { mayLoop } from './shape.js';
import type { GoFunction } from './values.js';
import type { Clock } from './context.js';

export type TemplateFunction = GoFunction;

export interface RenderOptions {
  /**
   * The clock that `now` and the date functions read, in milliseconds since the epoch
   * (Date.now when absent). Tests fix it so that dates render the same every run.
   */
  now?: Clock;
}

export interface CompileOptions {
  /** Name used in error messages (Go's template name). Defaults to "tpl". */
  name?: string;
  /**
   * Extra functions, callable as `{{ name arg1 arg2 }}` or as a pipeline stage (the piped
   * value is the last argument). They replace sprig functions or builtins of the same name. "No
   * value" arrives as null; a thrown error stops execution with TemplateExecError.
   */
  funcs?: Readonly<Record<string, TemplateFunction>>;
}

export class Template {
  readonly name: string;
  readonly source: string;
  private readonly program: Program;
  private readonly root: ListNode;
  /** The pipeline when the source is exactly one action, for evaluate(). */
  private readonly single: PipeNode | null;
  /**
   * Whether the template can loop or build: it has a range, a {{template}} call or a
   * {{define}}, or calls a function whose cost is not about its arguments' size (shape.ts).
   * False means its work is bounded by its length times its input's size.
   */
  readonly mayLoop: boolean;

  /** @internal Use compile(). */
  constructor(source: string, options: CompileOptions) {
    this.name = options.name ?? 'tpl';
    this.source = source;
    const funcs = functionTable(options.funcs);
    const parsed = parseTemplates(source, this.name, (fn) => funcs.has(fn));
    this.program = { source, name: this.name, trees: parsed.trees, funcs };
    this.root = parsed.trees.get(this.name)!;
    const only = this.root.nodes.length === 1 ? this.root.nodes[0]! : null;
    const isSingleAction =
      only !== null &&
      only.kind === N.Action &&
      only.pipe.decl.length === 0 &&
      parsed.trees.size === 1 &&
      parsed.comments === 0 &&
      source.startsWith('{{') &&
      source.endsWith('}}');
    this.single = isSingleAction ? only.pipe : null;
    this.mayLoop = mayLoop(parsed.trees);
  }

  /**
   * Whether evaluate() may yield any value (the source is exactly one action) rather than
   * always the rendered string: what a caller needs to say what type a template produces.
   */
  get yieldsValue(): boolean {
    return this.single !== null;
  }

  /**
   * Executes the template; throws TemplateExecError, or TemplateBudgetError when it spends
   * more than `budget` (unlimited when none is given; share one budget between the
   * templates of one rendering).
   */
  render(data: unknown, budget: Budget = new Budget(), options: RenderOptions = {}): string {
    return new Executor(this.program, budget, options.now).render(this.root, data);
  }

  /**
   * Like render, except that a template consisting of exactly one action (`{{ .a.b }}`,
   * `{{ .x | toJson }}`), with nothing before or after it, yields the pipeline's value
   * untouched: a number, boolean, object, array, string or null.
   */
  evaluate(data: unknown, budget: Budget = new Budget(), options: RenderOptions = {}): unknown {
    if (this.single === null) return this.render(data, budget, options);
    return new Executor(this.program, budget, options.now).evaluate(this.single, data);
  }
}

/** Parses `source` once; throws TemplateParseError. */
export function compile(source: string, options: CompileOptions = {}): Template {
  return new Template(source, options);
}
