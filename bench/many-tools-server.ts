/**
 * An upstream with many tools, for footprint and start-up benchmarks: `node
 * many-tools-server.js [count] [--name N]` serves `count` tools over stdio, each with a
 * realistic description and input schema (several typed, described properties), the way
 * large real servers (cloud APIs, GitHub) look. Answers calls with a short text.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

const count = Number(process.argv[2] ?? 1000);
const name = process.argv.includes('--name') ? process.argv[process.argv.indexOf('--name') + 1]! : 'many';
const VERBS = ['list', 'get', 'create', 'update', 'delete', 'search', 'describe', 'watch'];
const NOUNS = ['instances', 'buckets', 'clusters', 'repositories', 'issues', 'alerts', 'dashboards', 'secrets', 'volumes', 'routes'];

function tool(i: number): Tool {
  const verb = VERBS[i % VERBS.length]!;
  const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]!;
  return {
    name: `${verb}_${noun}_${i}`,
    description: `${verb[0]!.toUpperCase()}${verb.slice(1)} ${noun} in the selected project and region. Results are paged; use the cursor from the previous page to continue. Requires the viewer role for reads and the editor role for changes.`,
    inputSchema: {
      type: 'object',
      properties: {
        project: { type: 'string', description: 'Project identifier, for example my-project-123.' },
        region: { type: 'string', enum: ['us-east1', 'us-west1', 'europe-west1', 'asia-east1'], description: 'Region of the resource.' },
        filter: { type: 'string', description: 'Filter expression, e.g. labels.env=prod AND status=RUNNING.' },
        pageSize: { type: 'integer', minimum: 1, maximum: 500, description: 'Maximum number of results per page.' },
        pageToken: { type: 'string', description: 'Cursor returned by the previous call.' },
        fields: { type: 'array', items: { type: 'string' }, description: 'Fields to include in the response.' },
      },
      required: ['project'],
    },
    annotations: { readOnlyHint: verb === 'list' || verb === 'get' || verb === 'search' || verb === 'describe' },
  };
}

const tools = Array.from({ length: count }, (_, i) => tool(i));
const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [{ type: 'text', text: `${name}: ${req.params.name} ok` }] }));
await server.connect(new StdioServerTransport());
