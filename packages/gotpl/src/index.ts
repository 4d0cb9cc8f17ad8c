/**
 * gotpl: Go's text/template for workflow argument templating. See docs/gotpl.md.
 *
 *   const t = compile('{{ .input.name }}-{{ .results.fetch.id }}');
 *   t.render(data);      // always a string
 *   t.evaluate(data);    // the typed value when the source is a single action
 */
export { compile, Template } from './template.js';
export type { CompileOptions, RenderOptions, TemplateFunction } from './template.js';
export type { Clock } from './context.js';
export { TemplateBudgetError, TemplateError, TemplateExecError, TemplateParseError } from './errors.js';
export { Budget } from './budget.js';
export type { BudgetLimit, BudgetLimits } from './budget.js';
/** Go's Duration.String() ("1.5s", "12ms") and time.ParseDuration, in nanoseconds: for words that read as the Go reference's do. */
export { formatDuration, parseDuration } from './sprig/duration.js';
