/**
 * The MCP server that replays one captured catalogue of the search development set exactly as
 * its real server shipped it (names, descriptions, input schemas; the odd schema without
 * `type: "object"` included). Calling a tool answers an error saying it is a replay: the set
 * measures finding tools, not running them. Served over stdio by replay-server.ts and over
 * streamable HTTP by test/fixtures/replay-http.ts.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Catalogue } from './catalog.js';

export function replayCatalogue(catalogue: Catalogue): Server {
  const tools = catalogue.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }) as Tool);
  const server = new Server({ name: `replay-${catalogue.server}`, version: catalogue.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    isError: true,
    content: [
      {
        type: 'text' as const,
        text: `${request.params.name} is a replay of ${catalogue.package}@${catalogue.version}'s catalogue for the search development set; it does not run tools`,
      },
    ],
  }));
  return server;
}
