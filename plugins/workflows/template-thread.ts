/**
 * The worker thread that renders workflow templates able to loop or build
 * (template-isolation.ts). It imports gotpl only: a value tree of template sources comes in
 * with the data and the limits, the rendered value (or the template's error, as plain
 * fields) goes back. The main thread terminates it when a rendering outlasts its budget,
 * so nothing here needs to be interruptible.
 */
import { parentPort } from 'node:worker_threads';
import { Budget, compile, TemplateBudgetError, TemplateError, TemplateExecError, type Template } from '#gotpl';
import type { RenderReply, RenderRequest, WireValue } from './template-wire.js';

/** Compiled templates by name and source; a definition's templates are rendered again and again. */
const compiled = new Map<string, Template>();
const MAX_CACHED = 2000;

function templateOf(name: string, source: string): Template {
  const key = `${name}\u0000${source}`;
  let t = compiled.get(key);
  if (t === undefined) {
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(key, (t = compile(source, { name })));
  }
  return t;
}

class WirePathError extends Error {
  constructor(
    readonly path: string,
    readonly error: TemplateError,
  ) {
    super(error.message);
  }
}

function render(v: WireValue, data: unknown, budget: Budget): unknown {
  switch (v.k) {
    case 'l':
      return v.v;
    case 't':
      try {
        return templateOf(v.name, v.source).evaluate(data, budget);
      } catch (err) {
        if (err instanceof TemplateError) throw new WirePathError(v.path, err);
        throw err;
      }
    case 'a':
      return v.i.map((x) => render(x, data, budget));
    case 'o': {
      const out: Record<string, unknown> = {};
      for (const [key, x] of v.e) out[key] = render(x, data, budget);
      return out;
    }
  }
}

function reply(req: RenderRequest): RenderReply {
  const budget = new Budget(req.limits, req.setting);
  try {
    // As JSON, the form every rendered value takes on its way to a tool: a time or a
    // version inside a list keeps its JSON form (structured cloning would drop its methods).
    const value = render(req.value, req.data, budget);
    if (req.maxItems !== undefined && Array.isArray(value) && value.length > req.maxItems) return { id: req.id, ok: 'too-long', length: value.length };
    return { id: req.id, ok: true, value: value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown) };
  } catch (err) {
    if (!(err instanceof WirePathError)) return { id: req.id, ok: false, path: '', failure: { kind: 'internal', message: String(err) } };
    const e = err.error;
    const at = { templateName: e.templateName, line: e.line, column: e.column, message: e.message, reason: e.reason };
    if (e instanceof TemplateBudgetError)
      return { id: req.id, ok: false, path: err.path, failure: { kind: 'budget', ...at, limit: e.limit, value: e.value, setting: e.setting } };
    if (e instanceof TemplateExecError)
      return { id: req.id, ok: false, path: err.path, failure: { kind: 'exec', ...at, context: e.context, executing: e.executing } };
    return { id: req.id, ok: false, path: err.path, failure: { kind: 'internal', message: e.message } };
  }
}

parentPort!.on('message', (req: RenderRequest) => parentPort!.postMessage(reply(req)));
parentPort!.postMessage('ready');
