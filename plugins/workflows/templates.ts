/**
 * Step arguments (and condition arguments, outputs) are trees of JSON whose strings may be
 * Go templates. They are compiled once per definition; rendering walks the compiled tree.
 * A string that is exactly one action yields the typed value (decisions.md).
 */
import type { AggregatorLimits } from '../../kernel/index.js';
import { Budget, compile, TemplateError, type Template } from '#gotpl';
import { SwitchboardError } from '../../kernel/index.js';

export type CompiledValue =
  | { kind: 'literal'; value: unknown }
  | { kind: 'template'; template: Template; path: string }
  | { kind: 'object'; entries: [string, CompiledValue][] }
  | { kind: 'array'; items: CompiledValue[] };

/** Where a template sits, for messages: `step 'fetch', argument 'query.limit'`. */
export class TemplateLocationError extends SwitchboardError {
  constructor(
    readonly where: string,
    readonly templateError: TemplateError,
  ) {
    // The template is named after its place, so its own message already says where.
    super('VALIDATION_FAILED', templateError.message);
  }
}

function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

/** Compiles `value`; throws TemplateLocationError for a template that does not parse. */
export function compileValue(value: unknown, where: (path: string) => string, path = ''): CompiledValue {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return { kind: 'literal', value };
    try {
      return { kind: 'template', template: compile(value, { name: where(path) }), path };
    } catch (err) {
      if (err instanceof TemplateError) throw new TemplateLocationError(where(path), err);
      throw err;
    }
  }
  if (Array.isArray(value)) return { kind: 'array', items: value.map((v, i) => compileValue(v, where, join(path, i))) };
  if (value && typeof value === 'object') {
    return { kind: 'object', entries: Object.entries(value).map(([k, v]) => [k, compileValue(v, where, join(path, k))]) };
  }
  return { kind: 'literal', value };
}

/**
 * A template that failed while rendering, with the place of its value (`query.limit`, `""`
 * for the whole value) so that a message can name the argument.
 */
export class RenderError extends Error {
  constructor(
    readonly path: string,
    readonly templateError: TemplateError,
  ) {
    super(templateError.message);
  }
}

// `.input.a.b` in an action, not `.results.input.a` nor `$x.input`.
const ACTION = /\{\{[\s\S]*?\}\}/g;
const INPUT_PATH = /(?<![\w$)\]])\.input((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g;

/**
 * Every `.input.<path>` the templates of `cv` refer to, as `input.<path>`, in order of first
 * appearance: the returned document's `template_vars`. Read from the source once, when the
 * definition is compiled.
 */
export function inputPathsOf(cv: CompiledValue, into: Set<string> = new Set()): Set<string> {
  switch (cv.kind) {
    case 'literal':
      break;
    case 'template':
      for (const action of cv.template.source.match(ACTION) ?? []) for (const m of action.matchAll(INPUT_PATH)) into.add(`input${m[1]!}`);
      break;
    case 'array':
      for (const i of cv.items) inputPathsOf(i, into);
      break;
    case 'object':
      for (const [, v] of cv.entries) inputPathsOf(v, into);
      break;
  }
  return into;
}

const looping = new WeakMap<CompiledValue, boolean>();

/**
 * Whether any template in `cv` can loop or build (gotpl's `mayLoop`): such a value renders
 * in the template worker (template-isolation.ts), the others in-process. Decided once per
 * compiled value.
 */
export function mayLoop(cv: CompiledValue): boolean {
  let v = looping.get(cv);
  if (v !== undefined) return v;
  switch (cv.kind) {
    case 'literal':
      v = false;
      break;
    case 'template':
      v = cv.template.mayLoop;
      break;
    case 'array':
      v = cv.items.some(mayLoop);
      break;
    case 'object':
      v = cv.entries.some(([, x]) => mayLoop(x));
      break;
  }
  looping.set(cv, v);
  return v;
}

/** Where the template limits live, for over-budget messages. */
const BUDGET_SETTING = 'aggregator.limits.templates';

/**
 * The budget of one rendering (a step's arguments, a condition, an output), from the live
 * settings so that a raised limit applies to the next rendering.
 */
export function templateBudget(limits: AggregatorLimits): Budget {
  return new Budget(limits.templates, BUDGET_SETTING);
}

/**
 * Renders `cv`; every template in it spends from the one `budget`. A template that fails
 * throws RenderError (its TemplateError, TemplateBudgetError past the budget, inside).
 */
export function renderValue(cv: CompiledValue, data: unknown, budget: Budget): unknown {
  switch (cv.kind) {
    case 'literal':
      return cv.value;
    case 'template':
      try {
        return cv.template.evaluate(data, budget);
      } catch (err) {
        if (err instanceof TemplateError) throw new RenderError(cv.path, err);
        throw err;
      }
    case 'array':
      return cv.items.map((i) => renderValue(i, data, budget));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of cv.entries) out[k] = renderValue(v, data, budget);
      return out;
    }
  }
}
