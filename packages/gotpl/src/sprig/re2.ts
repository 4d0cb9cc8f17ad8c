/**
 * re2js, loaded the first time a template compiles a regular expression (regex functions,
 * semver constraints). Its half megabyte (the RE2 engine and its Unicode tables) took 15-20 ms
 * of CPU to compile and evaluate at every start of a program that loads the template engine,
 * Switchboard's `serve` among them, though few templates ever match a pattern. Template
 * functions are synchronous, so it is required, not imported: the package's CommonJS build,
 * the same code as its ES module build.
 */
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

export type { RE2JS };

let engine: typeof RE2JS | undefined;

/** RE2JS.compile, the engine loaded on first use. */
export function compileRe2(pattern: string): RE2JS {
  engine ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS;
  return engine.compile(pattern);
}
