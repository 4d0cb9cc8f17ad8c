/**
 * Server families: the same MCP server run once per cluster, region or tenant. Instead of
 * N copies of every tool, the family shows one tool `x_<family>_<tool>` with a required
 * argument (the family's `instanceArg`) whose values are the members that have that tool;
 * a call goes to that member with the argument removed (family-routing.ts). Recomputed
 * whenever a member's tools or state change, so members joining, leaving, stopping or
 * diverging show at once.
 *
 * Where one name cannot stand for every member's copy honestly, the tool falls back to the
 * members' own names `x_<member>_<tool>` (decisions.md "Families"): members that describe a
 * tool differently (a merged description hides behaviour that differs), a member whose copy
 * already has an argument named like the instance argument (it would be shadowed), and, for
 * the whole family, members that disagree on the instance argument's name.
 */
import type { Tool } from '#mcp-sdk/types.js';
import type { JsonSchemaObject, ToolAnnotations, ToolDefinition } from '../../kernel/index.js';
import type { UpstreamConnection } from './connection.js';
import { familyInvoker } from './family-routing.js';
import { enabledTools, memberInvoker, taskSupportOf, toolDefinitions } from './tool-definitions.js';

/** A member's tool that fell back to the member's own name, and why. `tool: '*'` is every tool of the member. */
export interface FamilyRefusal {
  member: string;
  tool: string;
  reason: string;
}

export interface FamilySurface {
  tools: ToolDefinition[];
  refused: FamilyRefusal[];
}

interface Offer {
  member: UpstreamConnection;
  tool: Tool;
}

function listed(conn: UpstreamConnection): boolean {
  return conn.state !== 'stopped' && conn.state !== 'stopping';
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function hintsOf(tool: Tool): ToolAnnotations | undefined {
  if (!tool.annotations) return undefined;
  const { title: _title, ...hints } = tool.annotations;
  return Object.keys(hints).length ? hints : undefined;
}

/** The family name of member tool `tool`: the family's prefix is not doubled on a tool already named after it. */
export function familyToolName(family: string, tool: string): string {
  return tool.startsWith(`${family}_`) ? `x_${tool}` : `x_${family}_${tool}`;
}

/**
 * The family's tools. `members` are every server naming this family, in name order; only
 * listed ones (not stopped) offer tools.
 */
export function familySurface(family: string, members: readonly UpstreamConnection[]): FamilySurface {
  const live = members.filter(listed);
  const declared = [...new Set(members.map((m) => m.def.family?.instanceArg ?? ''))];
  if (declared.length > 1) {
    const reason = `the members of family '${family}' declare different instanceArgs (${declared.join(', ')}); every member keeps its own tool names`;
    return {
      tools: live.flatMap((m) => toolDefinitions(m)),
      refused: members.map((m) => ({ member: m.name, tool: '*', reason })),
    };
  }
  const instanceArg = declared[0];
  if (!instanceArg) return { tools: [], refused: [] };
  const offers = new Map<string, Offer[]>();
  for (const member of live) {
    for (const tool of enabledTools(member, member.tools)) {
      const list = offers.get(tool.name);
      if (list) list.push({ member, tool });
      else offers.set(tool.name, [{ member, tool }]);
    }
  }
  const tools: ToolDefinition[] = [];
  const refused: FamilyRefusal[] = [];
  const fallen = new Map<UpstreamConnection, Tool[]>();
  for (const [original, list] of offers) {
    const reason = fallbackReason(original, instanceArg, list);
    if (!reason) {
      tools.push(familyTool(family, instanceArg, original, list));
      continue;
    }
    for (const o of list) {
      refused.push({ member: o.member.name, tool: original, reason });
      const own = fallen.get(o.member);
      if (own) own.push(o.tool);
      else fallen.set(o.member, [o.tool]);
    }
  }
  for (const [member, own] of fallen) tools.push(...toolDefinitions(member, own));
  return { tools, refused };
}

/** Why tool `original` cannot be one family tool, or undefined when it can. */
function fallbackReason(original: string, instanceArg: string, offers: readonly Offer[]): string | undefined {
  const shadowed = offers.filter((o) => o.tool.inputSchema.properties && Object.hasOwn(o.tool.inputSchema.properties, instanceArg));
  if (shadowed.length > 0)
    return `tool '${original}' already has an argument named '${instanceArg}', the family's instance argument, on ${shadowed.map((o) => o.member.name).join(', ')}`;
  const first = offers[0]!.tool.description ?? '';
  if (offers.some((o) => (o.tool.description ?? '') !== first)) return `the members describe tool '${original}' differently`;
  return undefined;
}

function familyTool(family: string, instanceArg: string, original: string, offers: readonly Offer[]): ToolDefinition {
  const names = offers.map((o) => o.member.name);
  const listedNames = names.join(', ');
  const first = offers[0]!.tool;
  const base = first.inputSchema;
  const instance = { type: 'string', enum: names, description: `Target instance to execute this tool on. Available: ${listedNames}` };
  const required = Array.isArray(base.required) ? base.required : [];
  const inputSchema: JsonSchemaObject = {
    ...base,
    type: 'object',
    properties: { ...(base.properties ?? {}), [instanceArg]: instance },
    required: [...required, instanceArg],
  };
  // The instance argument is checked by the invoker; the others by the schema all members
  // share, or, when theirs differ, by the member the call goes to.
  const sameSchema = offers.every((o) => sameJson(o.tool.inputSchema, base));
  const validationSchema: JsonSchemaObject = sameSchema
    ? { ...base, type: 'object', properties: { ...(base.properties ?? {}), [instanceArg]: {} } }
    : { type: 'object' };
  const description = first.description ?? first.title ?? '';
  const name = familyToolName(family, original);
  const def: ToolDefinition = {
    name,
    kind: 'tool',
    description: `${description} (available on servers: ${listedNames})`.trimStart(),
    inputSchema,
    validationSchema,
    server: family,
    servers: names,
    originalName: original,
    invoke: familyInvoker(name, instanceArg, new Map(offers.map((o) => [o.member.name, memberInvoker(o.member, o.tool)]))),
  };
  const hints = hintsOf(first);
  if (hints && offers.every((o) => sameJson(hintsOf(o.tool), hints))) def.annotations = hints;
  // Like the hints: said of the family tool only when every member says the same, since a
  // call may go to any of them.
  if (first.outputSchema && offers.every((o) => sameJson(o.tool.outputSchema, first.outputSchema))) def.outputSchema = first.outputSchema;
  if (first.icons && offers.every((o) => sameJson(o.tool.icons, first.icons))) def.icons = first.icons;
  // Shown when every member says the same; each member's own word decides how its call runs.
  const support = taskSupportOf(first, offers[0]!.member.runsToolTasks);
  if (support && offers.every((o) => taskSupportOf(o.tool, o.member.runsToolTasks) === support)) def.execution = { taskSupport: support };
  return def;
}
