/** Small conveniences for the gotpl specifications. */
import { compile, TemplateError } from '../../src/index.js';
import type { CompileOptions } from '../../src/index.js';

export function render(source: string, data: unknown = {}, options: CompileOptions = {}): string {
  return compile(source, options).render(data);
}

export function evaluate(source: string, data: unknown = {}, options: CompileOptions = {}): unknown {
  return compile(source, options).evaluate(data);
}

/** The TemplateError that compiling or rendering throws; fails if nothing is thrown. */
export function failure(source: string, data: unknown = {}, options: CompileOptions = {}): TemplateError {
  try {
    compile(source, options).render(data);
  } catch (e) {
    if (e instanceof TemplateError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(source)} to fail`);
}
