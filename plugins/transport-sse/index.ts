/**
 * transport-sse: the older HTTP+SSE transport (protocol 2024-11-05). GET /sse opens the
 * event stream and names the POST endpoint; POST /message?sessionId=... carries requests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SSEServerTransport } from '#mcp-sdk/server/sse.js';
import { definePlugin, foreignCaller } from '../../kernel/index.js';
import { KEEP_ALIVE_COMMENT, keepAliveSecondsSchema, StreamKeepAlive, type KeptAlive } from '../../lib/http/stream-keep-alive.js';

export default definePlugin<{ keepAliveSeconds: number }>({
  name: 'transport-sse',
  description: 'MCP over the legacy HTTP+SSE transport (GET /sse, POST /message).',
  needs: ['http'],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      keepAliveSeconds: keepAliveSecondsSchema(
        "How often a keep-alive comment goes on a session's event stream (the whole session lives on it), so that a proxy's idle timeout does not cut it.",
      ),
    },
  },
  setup({ kernel, options }) {
    const sessions = new Map<string, SSEServerTransport>();
    const keptAlive = new StreamKeepAlive(options.keepAliveSeconds * 1000);
    const http = kernel.services.get('http');

    http.handle('/sse', async (req: IncomingMessage, res: ServerResponse) => {
      if (!http.checkOrigin(req, res)) return true;
      if (req.method !== 'GET') {
        res.writeHead(405, { allow: 'GET' }).end();
        return true;
      }
      // Loaded at the first legacy client: the SDK's SSE transport brings raw-body, content-type
      // and their dependencies, which a start (most have no such client) loaded for nothing.
      const { SSEServerTransport } = await import('#mcp-sdk/server/sse.js');
      const transport = new SSEServerTransport('/message', res);
      try {
        await kernel.endpoint.connect(
          transport,
          'sse',
          transport.sessionId,
          http.identityOf(req),
          req.socket.remoteAddress,
          undefined,
          http.clientAddressOf(req),
        );
      } catch (err) {
        if (!res.headersSent) {
          res.writeHead(503, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `Service Unavailable: ${(err as Error).message}` } }));
        }
        return true;
      }
      sessions.set(transport.sessionId, transport);
      transport.onclose = () => sessions.delete(transport.sessionId);
      // The SDK's transport writes whole events; a comment between two of them is one more.
      const kept: KeptAlive = { keepAlive: () => void (res.writableNeedDrain || res.write(KEEP_ALIVE_COMMENT)) };
      keptAlive.add(kept);
      res.once('close', () => {
        keptAlive.delete(kept);
        void transport.close();
      });
      return true;
    });

    http.advertise({ type: 'sse', path: '/sse' });

    http.handle('/message', async (req: IncomingMessage, res: ServerResponse, url: URL) => {
      if (!http.checkOrigin(req, res)) return true;
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return true;
      }
      const id = url.searchParams.get('sessionId');
      const transport = id ? sessions.get(id) : undefined;
      if (!transport) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(id ? `Session '${id}' not found` : 'sessionId query parameter is required');
        return true;
      }
      const session = kernel.sessions.get(transport.sessionId);
      const foreign = session && foreignCaller(session, http.identityOf(req));
      if (foreign) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end(foreign);
        return true;
      }
      // This transport takes one message per POST (the SDK's handleMessage): a batch is refused
      // from its first byte by name, instead of the SDK's "Invalid message" echoing the whole body.
      const read = await http.readJson(req, res, 'Invalid Request: JSON-RPC batches are not accepted; send one message per POST');
      if (!read.ok) return true;
      await transport.handlePostMessage(req, res, read.body);
      return true;
    });

    return {
      async stop() {
        keptAlive.stop();
        await Promise.all([...sessions.values()].map((t) => t.close()));
      },
    };
  },
});
