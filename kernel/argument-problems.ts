/**
 * ajv's errors, as the argument problems a client reads in INVALID_ARGUMENTS. Each message
 * names its argument and words the schema keywords as clients of the reference service
 * match them (reference-behaviour.md §13): "<arg> argument is required", "<arg> must be at
 * least <n> (minimum value)", "<arg> must be one of the enum values: a, b", "<arg> must be a
 * <type> value". One wording for every tool whose arguments Switchboard checks.
 */
import type { ErrorObject } from 'ajv';
import type { ArgumentProblem } from './errors.js';

/** `/steps/0/id` as `steps.0.id`: the dotted field path configuration problems use too. */
export function argumentName(pointer: string): string {
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const typesOf = (e: ErrorObject): string[] => String((e.params as { type: string | string[] }).type).split(',');
const typeMessage = (name: string, types: readonly string[]) => `${name} must be a ${types.join(' or ')} value`;

function problemOf(e: ErrorObject): ArgumentProblem {
  const at = e.instancePath;
  const name = at ? argumentName(at) : '(arguments)';
  switch (e.keyword) {
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      const path = `${at}/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      return { path, message: `${argumentName(path)} argument is required` };
    }
    case 'minimum':
      return { path: at, message: `${name} must be at least ${(e.params as { limit: number }).limit} (minimum value)` };
    case 'maximum':
      return { path: at, message: `${name} must be at most ${(e.params as { limit: number }).limit} (maximum value)` };
    case 'enum':
      return { path: at, message: `${name} must be one of the enum values: ${(e.params as { allowedValues: unknown[] }).allowedValues.map(shown).join(', ')}` };
    case 'type':
      return { path: at, message: typeMessage(name, typesOf(e)) };
    case 'additionalProperties':
      return { path: at, message: `${name} has unknown property '${(e.params as { additionalProperty: string }).additionalProperty}'` };
    default:
      return { path: at, message: `${name} ${e.message ?? 'is invalid'}` };
  }
}

export function argumentProblems(errors: readonly ErrorObject[] | null | undefined): ArgumentProblem[] {
  const all = errors ?? [];
  // The branches of a oneOf/anyOf each say "must be a <type> value": one line naming every
  // type says it better, and the summary ("must match exactly one schema") says nothing,
  // unless it is all there is (a value matching two branches).
  const told = all.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if');
  const out: ArgumentProblem[] = [];
  const typeLines = new Map<string, { problem: ArgumentProblem; types: string[] }>();
  for (const e of told.length ? told : all) {
    const problem = problemOf(e);
    if (e.keyword === 'type') {
      const earlier = typeLines.get(problem.path);
      if (earlier) {
        earlier.types.push(...typesOf(e).filter((t) => !earlier.types.includes(t)));
        earlier.problem.message = typeMessage(problem.path ? argumentName(problem.path) : '(arguments)', earlier.types);
        continue;
      }
      typeLines.set(problem.path, { problem, types: typesOf(e) });
    }
    if (!out.some((p) => p.path === problem.path && p.message === problem.message)) out.push(problem);
  }
  return out;
}

/**
 * call_tool and call_tools take a tool's own arguments under `arguments`: one put beside
 * `name` instead is the mistake behind "(arguments) has unknown property 'message'", and the
 * message says so. Error path only.
 */
export function hintArgumentsWrapper(problems: ArgumentProblem[]): ArgumentProblem[] {
  return problems.map((p) => {
    if (!/^(\/calls\/\d+)?$/.test(p.path) || !p.message.includes(' has unknown property ')) return p;
    return { ...p, message: `${p.message}: put the tool's own arguments under 'arguments', as in {"name": "<tool>", "arguments": {...}}` };
  });
}
