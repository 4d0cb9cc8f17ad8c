/** call_tool and call_tools: the only way to run an aggregated tool. */
import {
  errorResult,
  objectResult,
  type CallContext,
  type JsonObject,
  type KernelApi,
  type EndpointWording,
  type MetaToolDefinition,
} from '../../kernel/index.js';

const MAX_BATCH = 16;

/** What the endpoint says about running catalogue tools: call_tool is the way, so the endpoint points to it. */
const CALL_TOOL_WORDING: EndpointWording = {
  instructions:
    'Switchboard aggregates many MCP servers. Discover tools with list_tools, filter_tools and describe_tool; run any of them with call_tool {name, arguments}.',
  notCallableDirectly(name, args) {
    const example = JSON.stringify({ name: 'call_tool', arguments: { name, arguments: args } });
    return `Tool '${name}' is not callable directly; tools inside Switchboard run through the meta-tool call_tool: ${example}`;
  },
  unknownTool: (name, metaTools) =>
    `Unknown tool '${name}'. This endpoint serves only the meta-tools (${metaTools.join(', ')}); other tools run through call_tool.`,
};

/** call_tool and call_tools; the endpoint's wording about running tools comes with them. */
export function executionTools(kernel: KernelApi): MetaToolDefinition[] {
  kernel.endpoint.setWording(CALL_TOOL_WORDING);
  const callTool: MetaToolDefinition = {
    name: 'call_tool',
    description:
      "Run any tool listed by list_tools or filter_tools: {name, arguments}. Returns that tool's own result. Use describe_tool first to see its input schema.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    // A task-augmented call_tool is the tool's call run as a task (a workflow's: its run).
    execution: { taskSupport: 'optional' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1, description: 'Tool name, e.g. x_<server>_<tool>, core_..., workflow_<name>.' },
        arguments: { type: 'object', default: {}, description: "The tool's arguments, per its inputSchema." },
      },
    },
    // Its answer is the tool's result as it is: a relayed one may be answered as it arrives.
    relaysResult: true,
    handler: (args, call, sink) => kernel.tools.call(args.name as string, args.arguments as JsonObject, call, sink),
  };

  const callTools: MetaToolDefinition = {
    name: 'call_tools',
    description: `Run up to ${MAX_BATCH} tool calls in one request ({calls: [{name, arguments}], parallel}); results come back in call order and one failure does not fail the others.`,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    // The batch is the task: its calls run as plain calls under it (each would otherwise claim the one task).
    execution: { taskSupport: 'optional' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['calls'],
      properties: {
        calls: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_BATCH,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name'],
            properties: { name: { type: 'string', minLength: 1 }, arguments: { type: 'object', default: {} } },
          },
        },
        parallel: { type: 'boolean', default: true },
      },
    },
    async handler(args, call) {
      const calls = args.calls as { name: string; arguments: JsonObject }[];
      // Progress of a batch is calls done of calls asked (the sub-calls' own progress values
      // would interleave and go backwards under one token); cancellation reaches every call.
      const report = call.progress;
      const each: CallContext = { ...call };
      delete each.progress;
      delete each.task;
      let done = 0;
      const one = async (c: { name: string; arguments: JsonObject }) => {
        const r = await kernel.tools.call(c.name, c.arguments, each).catch(errorResult);
        await report?.(++done, calls.length, `${c.name} done`);
        return r;
      };
      const results = [];
      if (args.parallel) results.push(...(await Promise.all(calls.map(one))));
      else for (const c of calls) results.push(await one(c));
      return objectResult({ results });
    },
  };

  return [callTool, callTools];
}
