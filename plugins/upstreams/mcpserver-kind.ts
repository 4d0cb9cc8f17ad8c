/** The MCPServer kind: one MCP server definition per document, with its `name`; upstreams owns it. */
import type { ResourceKindDefinition } from '../../kernel/index.js';

export const MCP_SERVER_KIND: ResourceKindDefinition = {
  name: 'mcpserver',
  plugin: 'upstreams',
  kind: 'MCPServer',
  plural: 'mcpservers',
  schema: 'mcpserver',
  shape: 'named',
  snapshotField: 'mcpServers',
};
