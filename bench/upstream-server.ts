/**
 * The benchmark's upstream: a stateful SDK MCP server over streamable HTTP with one cheap
 * tool, `echo`. `node upstream-server.js PORT` prints `listening PORT`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const transports = new Map<string, StreamableHTTPServerTransport>();

function build(): McpServer {
  const server = new McpServer({ name: 'bench-upstream', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo the message back.', inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  return server;
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

// eslint-disable-next-line @typescript-eslint/no-misused-promises -- a fixture: a handler that throws should fail the test loudly
const http = createServer(async (req, res) => {
  const sid = req.headers['mcp-session-id'];
  if (req.method === 'POST') {
    const parsed = await body(req);
    let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
    if (!transport) {
      const t = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => void transports.set(id, t),
      });
      await build().connect(t);
      transport = t;
    }
    await transport.handleRequest(req, res, parsed);
    return;
  }
  const transport = typeof sid === 'string' ? transports.get(sid) : undefined;
  if (!transport) {
    res.writeHead(404).end();
    return;
  }
  await transport.handleRequest(req, res);
});

// Idle keep-alive sockets stay open longer than any pause between rounds: a proxy that reuses
// one the server is closing at that moment gets ECONNRESET (seen as a 502 from the floor on a
// loaded machine after a collection between rounds).
http.keepAliveTimeout = 120_000;
http.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const a = http.address();
  process.stdout.write(`listening ${typeof a === 'object' && a ? a.port : 0}\n`);
});
