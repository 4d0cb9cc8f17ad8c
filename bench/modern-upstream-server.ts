/**
 * The 2026-07-28 benchmark upstream: a v2 SDK server (`@modelcontextprotocol/server`) over
 * streamable HTTP in the SDK's default mode, with the same one cheap tool as
 * upstream-server.ts, `echo {message}`. The modern floor calls it through the bare proxy with
 * the v2 client, so a modern client's figure through Switchboard is compared with the same
 * client, the same server and the same protocol, one hop without Switchboard.
 * `node modern-upstream-server.js PORT` prints `listening PORT`.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'bench-modern-upstream', version: '2.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: 'Echo the message back.', inputSchema: z.object({ message: z.string() }) }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  return server;
});

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

const http = createServer((req, res) => {
  void (async () => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const payload = req.method === 'POST' ? await body(req) : undefined;
    const response = await handler.fetch(
      new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, ...(payload ? { body: payload } : {}) }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    if (response.body) Readable.fromWeb(response.body as WebReadableStream<Uint8Array>).pipe(res);
    else res.end();
  })().catch((err: unknown) => {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(err));
  });
});

// As upstream-server.ts: idle keep-alive sockets outlive any pause between rounds.
http.keepAliveTimeout = 120_000;
http.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const a = http.address();
  process.stdout.write(`listening ${typeof a === 'object' && a ? a.port : 0}\n`);
});
