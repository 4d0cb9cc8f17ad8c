/**
 * A workflow tool's arguments, checked by the workflow itself (the kernel leaves them to it):
 * the reserved `_debug` taken out first, declared arguments checked (required ones present,
 * types right) and their defaults filled in, undeclared ones kept. The wording is the one
 * clients match on (reference-behaviour.md §4); the code stays INVALID_ARGUMENTS.
 */
import { SwitchboardError, type JsonObject } from '../../kernel/index.js';
import { ofType, type CompiledWorkflow } from './compile-workflow.js';

/** The reserved argument every workflow tool accepts: the full document, every step's result shown. */
export const DEBUG_ARGUMENT = '_debug';

export interface WorkflowInput {
  input: JsonObject;
  debug: boolean;
}

export function workflowInput(wf: CompiledWorkflow, tool: string, args: JsonObject): WorkflowInput {
  const { [DEBUG_ARGUMENT]: flag, ...input } = args;
  const problems: { path: string; message: string }[] = [];
  for (const [name, arg] of Object.entries(wf.def.args)) {
    const value = input[name];
    if (value === undefined) {
      if (arg.default !== undefined) input[name] = structuredClone(arg.default);
      else if (arg.required) problems.push({ path: `/${name}`, message: `input validation failed: required field '${name}' is missing` });
    } else if (!ofType(arg.type, value)) {
      problems.push({ path: `/${name}`, message: `input validation failed: field '${name}' has wrong type, expected ${arg.type}` });
    }
  }
  if (problems.length)
    throw new SwitchboardError('INVALID_ARGUMENTS', `Invalid arguments for '${tool}': ${problems.map((p) => p.message).join('; ')}`, {
      name: tool,
      problems,
    });
  return { input, debug: flag === true || flag === 'true' };
}
