/** What the endpoint says about reaching tools: through call_tool, the meta-tool this plugin provides. */
import type { EndpointGuidance } from '../../kernel/index.js';

export const CALL_TOOL_GUIDANCE: EndpointGuidance = {
  instructions:
    'Switchboard aggregates many MCP servers. Discover tools with list_tools, filter_tools and describe_tool; run any of them with call_tool {name, arguments}.',
  notCallableDirectly(name, args) {
    const example = JSON.stringify({ name: 'call_tool', arguments: { name, arguments: args } });
    return `Tool '${name}' is not callable directly; tools inside Switchboard run through the meta-tool call_tool: ${example}`;
  },
  unknownTool: (name, metaTools) =>
    `Unknown tool '${name}'. This endpoint serves only the meta-tools (${metaTools.join(', ')}); other tools run through call_tool.`,
};
