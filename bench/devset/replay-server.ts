/**
 * `node dist/bench/devset/replay-server.js <catalog.json>`: a stdio MCP server that serves one
 * captured catalogue of the search development set exactly as its real server shipped it
 * (names, descriptions, input schemas). Calling a tool answers an error saying it is a replay:
 * the set measures finding tools, not running them.
 */
import { readFile } from 'node:fs/promises';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Catalogue } from './catalog.js';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: replay-server.js <bench/devset/catalog/<server>.json>\n');
  process.exit(2);
}
const catalogue = JSON.parse(await readFile(file, 'utf8')) as Catalogue;
// Shipped schemas are served as they are, including the odd one without `type: "object"`.
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
await server.connect(new StdioServerTransport());
