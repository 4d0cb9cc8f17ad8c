/**
 * The `pattern` and `patternProperties` of the tools' input schemas, run on RE2.
 *
 * An upstream writes those schemas and a caller writes the arguments they check, so with
 * JavaScript's backtracking RegExp one ordinary call could freeze the gateway: `^(a|aa)+$`
 * against 40 letters and a `b` runs for about 8 s, a key of 30 letters against
 * `^(x+x+)+y$` for half a minute, and patterns as ordinary as `\d+x` are quadratic (20,000
 * digits: 3.7 s). RE2 (re2js, which the template functions already use) matches in time
 * linear in the input whatever the pattern: 100,000 characters in milliseconds.
 *
 * JSON Schema writes ECMAScript patterns; RE2 reads nearly all of them. `\uXXXX` and `\u{X}`
 * are rewritten to RE2's `\x{X}`. What RE2 cannot run (lookaround, backreferences, `[^]`) is
 * left to the upstream, which checks its own schema: the rest of the schema is still checked
 * here, and the log says which pattern was left, once, naming the tool whose call compiled it.
 */
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

/** What ajv calls a pattern engine (its `code.regExp` option). */
export interface PatternEngine {
  (pattern: string, flags: string): CompiledPattern;
  /** How ajv names the engine in code it generates (only standalone code reads it). */
  code: string;
}

/**
 * A compiled pattern as ajv uses one: `test`, and `toString`, which ajv keys its cache of an
 * instance's patterns on (as a RegExp's `/source/flags`): without it every pattern was the
 * first one compiled.
 */
export interface CompiledPattern {
  test(text: string): boolean;
  toString(): string;
}

let re2: typeof RE2JS | undefined;

/** re2js, loaded at the first pattern: most tools have none, and it is half a megabyte. */
function engine(): typeof RE2JS {
  return (re2 ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS);
}

/** ECMAScript's `\uXXXX` and `\u{X...}` as RE2's `\x{...}`; every other escape as written. */
export function re2Syntax(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    if (c !== '\\' || i + 1 >= pattern.length) {
      out += c;
      continue;
    }
    const next = pattern.charAt(i + 1);
    if (next === 'u') {
      const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(pattern.slice(i + 2, i + 10));
      const plain = /^[0-9A-Fa-f]{4}/.exec(pattern.slice(i + 2, i + 6));
      if (braced) {
        out += `\\x{${braced[1]}}`;
        i += 1 + braced[0].length;
        continue;
      }
      if (plain) {
        out += `\\x{${plain[0]}}`;
        i += 5;
        continue;
      }
    }
    // Any other escape, `\\` included, is copied whole: its second character is never read
    // as the start of an escape.
    out += c + next;
    i++;
  }
  return out;
}

/** Patterns kept compiled (ajv asks again for every schema that has one); then forgotten together. */
const KEPT = 1024;

/**
 * The pattern engine for ajv's `code.regExp`: patterns RE2 can run are matched by it; one it
 * cannot run matches anything and is told to `unenforced`, once.
 */
export function re2PatternEngine(unenforced: (pattern: string, why: string) => void): PatternEngine {
  const kept = new Map<string, CompiledPattern>();
  const compile = (pattern: string, flags: string): CompiledPattern => {
    const key = `/${pattern}/${flags}`;
    let compiled = kept.get(key);
    if (compiled) return compiled;
    const toString = () => key;
    try {
      const re = engine().compile(re2Syntax(pattern));
      compiled = { test: (text) => re.test(text), toString };
    } catch (err) {
      unenforced(pattern, (err as Error).message);
      compiled = { test: () => true, toString };
    }
    if (kept.size >= KEPT) kept.clear();
    kept.set(key, compiled);
    return compiled;
  };
  return Object.assign(compile, { code: 're2PatternEngine' });
}
