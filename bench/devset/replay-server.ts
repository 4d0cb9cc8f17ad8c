/**
 * `node dist/bench/devset/replay-server.js <catalog.json>`: a stdio MCP server that serves one
 * captured catalogue of the search development set exactly as its real server shipped it
 * (names, descriptions, input schemas). Calling a tool answers an error saying it is a replay:
 * the set measures finding tools, not running them.
 */
import { readFile } from 'node:fs/promises';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Catalogue } from './catalog.js';
import { replayCatalogue } from './replay-catalogue.js';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: replay-server.js <bench/devset/catalog/<server>.json>\n');
  process.exit(2);
}
const catalogue = JSON.parse(await readFile(file, 'utf8')) as Catalogue;
await replayCatalogue(catalogue).connect(new StdioServerTransport());
