/**
 * How a call to a family tool reaches a member: the instance argument names the member, is
 * removed, and the rest goes to that member's own tool. The providers are fixed when the
 * family's surface is built (members joining, leaving or stopping rebuild it), so a call costs
 * one map lookup. This check replaces schema validation of the instance argument: its words
 * name the members that can take the call now, which an enum message cannot once a member
 * has stopped.
 */
import { SwitchboardError, type JsonObject, type ToolInvoker } from '../../kernel/index.js';

/** A family tool called without a usable instance argument. INVALID_ARGUMENTS, with the problem where clients look for it. */
export class FamilyInstanceError extends SwitchboardError {
  constructor(tool: string, instanceArg: string, message: string) {
    super('INVALID_ARGUMENTS', message, { name: tool, problems: [{ path: `/${instanceArg}`, message }] });
  }
}

/** The caller's value echoed back: escaped like a JSON string (no quote or line break of its own), at most 64 characters. */
const ECHOED = 64;
function quoted(value: unknown): string {
  const json = JSON.stringify(value);
  const inner = typeof value === 'string' ? json.slice(1, -1) : json;
  return inner.length > ECHOED ? `${inner.slice(0, ECHOED)}…` : inner;
}

/**
 * The invoker of family tool `name`: `providers` run the tool on each member that has it now
 * (as a task of the member when its tool may or must run as one), by member name, in the
 * order they are listed.
 */
export function familyInvoker(name: string, instanceArg: string, providers: ReadonlyMap<string, ToolInvoker>): ToolInvoker {
  const available = [...providers.keys()].join(', ');
  return (args: JsonObject, call) => {
    const { [instanceArg]: chosen, ...rest } = args;
    if (chosen === undefined)
      throw new FamilyInstanceError(
        name,
        instanceArg,
        `tool ${name} is provided by a family on servers ${available}; the "${instanceArg}" parameter is required`,
      );
    const member = typeof chosen === 'string' ? providers.get(chosen) : undefined;
    if (!member) throw new FamilyInstanceError(name, instanceArg, `tool ${name} is not available on server "${quoted(chosen)}" (available: ${available})`);
    return member(rest, call);
  };
}
