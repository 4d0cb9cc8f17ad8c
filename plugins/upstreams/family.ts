/**
 * Server families: the same MCP server run once per cluster, region or tenant. Instead of
 * N copies of every tool, the family shows one tool `x_<family>_<tool>` with a required
 * argument (the family's `instanceArg`) whose values are the members that have that tool;
 * a call goes to that member with the argument removed. Recomputed whenever a member's
 * tools or state change, so members joining, leaving, stopping or diverging show at once.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaObject, ToolAnnotations, ToolDefinition } from '../../kernel/tools.js';
import type { UpstreamConnection } from './connection.js';

export interface FamilyRefusal {
  member: string;
  tool: string;
  reason: string;
}

export interface FamilySurface {
  tools: ToolDefinition[];
  /** Tools of members that could not join (their own argument has the instance argument's name). */
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

/**
 * The family's tools. `members` are every server naming this family, in name order; the
 * first member's `instanceArg` is the family's (a member that names another is refused).
 */
export function familySurface(family: string, members: readonly UpstreamConnection[]): FamilySurface {
  const refused: FamilyRefusal[] = [];
  const instanceArg = members[0]?.def.family?.instanceArg;
  if (!instanceArg) return { tools: [], refused };
  const offers = new Map<string, Offer[]>();
  for (const member of members) {
    if (member.def.family?.instanceArg !== instanceArg) {
      refused.push({
        member: member.name,
        tool: '*',
        reason: `its family '${family}' uses instanceArg '${instanceArg}', not '${member.def.family?.instanceArg}'`,
      });
      continue;
    }
    if (!listed(member)) continue;
    for (const tool of member.tools) {
      if (tool.inputSchema.properties && Object.hasOwn(tool.inputSchema.properties, instanceArg)) {
        refused.push({
          member: member.name,
          tool: tool.name,
          reason: `tool '${tool.name}' already has an argument named '${instanceArg}', the family's instance argument`,
        });
        continue;
      }
      const list = offers.get(tool.name) ?? [];
      list.push({ member, tool });
      offers.set(tool.name, list);
    }
  }
  const tools: ToolDefinition[] = [];
  for (const [original, list] of offers) tools.push(familyTool(family, instanceArg, original, list));
  return { tools, refused };
}

function familyTool(family: string, instanceArg: string, original: string, offers: Offer[]): ToolDefinition {
  const names = offers.map((o) => o.member.name);
  const first = offers[0]!.tool;
  const sameSchema = offers.every((o) => sameJson(o.tool.inputSchema, first.inputSchema));
  const sameDescription = offers.every((o) => (o.tool.description ?? '') === (first.description ?? ''));
  const base = sameSchema ? first.inputSchema : { type: 'object' as const };
  const instance = { type: 'string', enum: names, description: `Which instance of ${family} runs the call: ${names.join(', ')}.` };
  const inputSchema: JsonSchemaObject = {
    ...base,
    type: 'object',
    properties: { [instanceArg]: instance, ...(sameSchema ? (base.properties ?? {}) : {}) },
    required: [instanceArg, ...(sameSchema && Array.isArray(base.required) ? base.required : [])],
  };
  const lines = [first.description ?? first.title ?? ''];
  lines.push(`Runs on one instance of ${family}, chosen by '${instanceArg}': ${names.join(', ')}.`);
  if (!sameDescription) {
    lines.push('The instances describe it differently:');
    for (const o of offers) lines.push(`- ${o.member.name}: ${o.tool.description ?? ''}`);
  }
  if (!sameSchema) lines.push("The instances' arguments differ; each instance checks its own.");
  const byMember = new Map(offers.map((o) => [o.member.name, o.member]));
  const def: ToolDefinition = {
    name: `x_${family}_${original}`,
    kind: 'tool',
    description: lines.filter(Boolean).join('\n'),
    inputSchema,
    server: family,
    servers: names,
    originalName: original,
    invoke: (args, call) => {
      const { [instanceArg]: chosen, ...rest } = args;
      // The schema's enum has already admitted only members that have this tool.
      return byMember.get(chosen as string)!.callTool(original, rest, call);
    },
  };
  const hints = hintsOf(first);
  if (hints && offers.every((o) => sameJson(hintsOf(o.tool), hints))) def.annotations = hints;
  return def;
}
