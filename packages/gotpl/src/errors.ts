/**
 * Typed errors thrown by gotpl. Callers should branch on `code`, which is stable; the
 * message text follows Go's text/template wording so that people who know Go recognise it.
 */
import type { BudgetLimit } from './budget.js';

/** Common base so callers can catch "any template problem" with one instanceof. */
export abstract class TemplateError extends Error {
  abstract readonly code: 'TEMPLATE_PARSE' | 'TEMPLATE_EXEC' | 'TEMPLATE_BUDGET';
  /** Name given to compile() (Go's template name), used in every message. */
  readonly templateName: string;
  /** 1-based line of the offending token or node. */
  readonly line: number;
  /** 1-based column (UTF-16 code units, like JavaScript string indices). */
  readonly column: number;
  /** The bare reason, without the location prefix. */
  readonly reason: string;

  protected constructor(message: string, templateName: string, line: number, column: number, reason: string) {
    super(message);
    this.name = new.target.name;
    this.templateName = templateName;
    this.line = line;
    this.column = column;
    this.reason = reason;
  }
}

/**
 * The source is not a valid template. Go prints `template: NAME:LINE: reason`; we add the
 * column, so the message reads `template: NAME:LINE:COL: reason`.
 */
export class TemplateParseError extends TemplateError {
  readonly code = 'TEMPLATE_PARSE' as const;

  constructor(templateName: string, line: number, column: number, reason: string) {
    super(`template: ${templateName}:${line}:${column}: ${reason}`, templateName, line, column, reason);
  }
}

/**
 * Executing the template failed. The message is byte-for-byte Go's:
 * `template: NAME:LINE:COL: executing "NAME" at <.input.count>: map has no entry for key "count"`.
 * Note that Go's COL in that message is a 0-based byte offset; the `column` property is
 * 1-based like TemplateParseError's.
 */
export class TemplateExecError extends TemplateError {
  readonly code = 'TEMPLATE_EXEC' as const;
  /** Source text of the node being evaluated, e.g. `.input.count` (empty if none). */
  readonly context: string;
  /** Name of the (possibly `define`d) template that was executing. */
  readonly executing: string;

  constructor(message: string, location: { templateName: string; line: number; column: number }, reason: string, context: string, executing: string) {
    super(message, location.templateName, location.line, location.column, reason);
    this.context = context;
    this.executing = executing;
  }
}

/**
 * The rendering spent more than its budget (budget.ts) and was stopped. The message has the
 * executing template's location, like TemplateExecError's, and then names the limit, its
 * value and the setting that raises it:
 * `... at <range 100000000>: template stopped: more than 100000 loop iterations (aggregator.limits.templates.maxIterations)`.
 */
export class TemplateBudgetError extends TemplateError {
  readonly code = 'TEMPLATE_BUDGET' as const;

  constructor(
    message: string,
    location: { templateName: string; line: number; column: number },
    reason: string,
    /** Which limit: maxIterations, maxOutputBytes or maxMilliseconds. */
    readonly limit: BudgetLimit,
    /** Its value when the rendering stopped. */
    readonly value: number,
    /** The setting that raises it, or the bare limit when the budget named none. */
    readonly setting: string,
  ) {
    super(message, location.templateName, location.line, location.column, reason);
  }
}

/** Where an offset falls in the source: 1-based line and column, plus Go's 0-based byte column. */
export function locate(source: string, pos: number): { line: number; column: number; byteColumn: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = source.indexOf('\n'); i >= 0 && i < pos; i = source.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  const before = source.slice(lineStart, pos);
  return { line, column: pos - lineStart + 1, byteColumn: Buffer.byteLength(before, 'utf8') };
}
