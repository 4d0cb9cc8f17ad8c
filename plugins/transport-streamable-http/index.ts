/**
 * transport-streamable-http: MCP over streamable HTTP at /mcp. POST carries JSON-RPC,
 * GET opens the session's notification stream, DELETE ends the session. With a
 * `session-directory` service (cluster mode) any replica serves any session (cluster.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { definePlugin, foreignCaller, isModernRequest, isModernVersion } from '../../kernel/index.js';
import { ClusterSessions } from './cluster.js';
import { asMessages, batchOpensSession, batchRefusal, INITIALIZE_BATCH, isInitialize, protocolVersionSupported } from './messages.js';
import { HttpSessionTransport } from './session-transport.js';
import { LISTEN_DEFAULTS, ListenStreams, type ListenOptions } from './listen-streams.js';
import { keepAliveSecondsSchema, StreamKeepAlive } from '../../lib/http/stream-keep-alive.js';
import { serveStateless } from './stateless-post.js';

const MODERN_BATCH = 'Invalid Request: a 2026-07-28 POST carries one JSON-RPC message, never a batch';

function reject(res: ServerResponse, status: number, code: number, message: string): true {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
  return true;
}

function accepts(req: IncomingMessage, type: string): boolean {
  const accept = req.headers.accept;
  return accept === undefined || accept.includes(type) || accept.includes('*/*');
}

export default definePlugin<{ path: string; sessionIdleMinutes: number; keepAliveSeconds: number; listen: ListenOptions }>({
  name: 'transport-streamable-http',
  description: 'MCP over streamable HTTP (POST/GET/DELETE /mcp).',
  needs: ['http'],
  uses: ['session-directory'],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      path: { type: 'string', pattern: '^/', default: '/mcp' },
      sessionIdleMinutes: { type: 'number', minimum: 0, default: 60, description: 'Sessions idle this long are ended (0: never).' },
      keepAliveSeconds: keepAliveSecondsSchema(
        "How often a keep-alive comment goes on a session's GET stream and on a POST whose answer has been awaited that long (then answered as an event stream), so that a proxy's idle timeout does not cut them.",
      ),

      listen: {
        type: 'object',
        additionalProperties: false,
        description: 'subscriptions/listen streams of 2026-07-28 clients (docs/protocol-2026.md).',
        default: LISTEN_DEFAULTS,
        properties: {
          maxPerCaller: {
            type: 'integer',
            minimum: 1,
            default: LISTEN_DEFAULTS.maxPerCaller,
            description: 'Open listens one caller (person, or client address when anonymous) may hold on a replica.',
          },
          maxOpen: { type: 'integer', minimum: 1, default: LISTEN_DEFAULTS.maxOpen, description: 'Open listens one replica holds.' },
          keepAliveSeconds: keepAliveSecondsSchema('How often a keep-alive comment goes on every open stream.', LISTEN_DEFAULTS.keepAliveSeconds),

          stallSeconds: {
            type: 'number',
            exclusiveMinimum: 0,
            default: LISTEN_DEFAULTS.stallSeconds,
            description: 'A stream whose client has not read for this long is dropped.',
          },
        },
      },
    },
  },
  setup({ kernel, options, log }) {
    const sessions = new Map<string, HttpSessionTransport>();
    let sweeper: NodeJS.Timeout | undefined;

    const listens = new ListenStreams(kernel, options.listen);
    const keptAlive = new StreamKeepAlive(options.keepAliveSeconds * 1000);
    const directory = kernel.services.find('session-directory');
    const cluster = directory && new ClusterSessions(kernel, directory, sessions, keptAlive, options.sessionIdleMinutes * 60, log);

    /** A session another replica holds, rebuilt here; undefined once the request is answered. */
    const resumed = async (id: string, req: IncomingMessage, res: ServerResponse): Promise<HttpSessionTransport | undefined> => {
      const t = await cluster!.resume(id, kernel.services.get('http').identityOf(req));
      if (t instanceof HttpSessionTransport) return t;
      reject(res, t.status, t.code, t.message);
      return undefined;
    };

    /** The request's session, or undefined once the request is answered (400, 403, 404); a promise only when it must be looked up (cluster mode). */
    const sessionOf = (req: IncomingMessage, res: ServerResponse): HttpSessionTransport | undefined | Promise<HttpSessionTransport | undefined> => {
      const id = req.headers['mcp-session-id'];
      if (typeof id !== 'string' || !id) {
        reject(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required (send initialize first)');
        return undefined;
      }
      const t = sessions.get(id);
      if (!t) {
        if (cluster) return resumed(id, req, res);
        reject(res, 404, -32001, `Session '${id}' not found (it ended or never existed); initialize a new session`);
        return undefined;
      }
      const session = kernel.sessions.get(id);
      const foreign = session && foreignCaller(session, kernel.services.get('http').identityOf(req));
      if (foreign) {
        reject(res, 403, -32000, `Forbidden: ${foreign}`);
        return undefined;
      }
      return t;
    };

    const post = async (req: IncomingMessage, res: ServerResponse): Promise<true> => {
      const http = kernel.services.get('http');
      if (!accepts(req, 'application/json') || !accepts(req, 'text/event-stream')) {
        return reject(res, 406, -32000, 'Not Acceptable: the client must accept both application/json and text/event-stream');
      }
      const ct = req.headers['content-type'];
      if (!ct || !ct.includes('application/json')) return reject(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
      // A batch this session may not send is refused from the body's first byte, never parsed;
      // a session held elsewhere (cluster mode) is judged once its body is read (postBatch).
      const id = req.headers['mcp-session-id'];
      const header = req.headers['mcp-protocol-version'];
      const version = typeof header === 'string' ? header : undefined;
      const refuseArray = isModernVersion(version) ? MODERN_BATCH : typeof id !== 'string' ? INITIALIZE_BATCH : sessions.get(id)?.batchesRefused;
      const read = await http.readJson(req, res, refuseArray);
      if (!read.ok) return true;
      // One Array.isArray on the parsed body: a single message pays nothing more.
      if (Array.isArray(read.body)) return postBatch(read.body, req, res);
      // 2026-07-28 (the header says so, or the body's _meta claims a version no session has):
      // served statelessly, whatever Mcp-Session-Id says. A legacy request pays a header
      // comparison and a look for params._meta.
      if (isModernRequest(version, read.body)) return serveStateless(kernel, listens, keptAlive, read.body, req, res);
      const parsed = asMessages(read.body);
      if (typeof parsed === 'string') return reject(res, 400, -32600, `Invalid Request: ${parsed}`);
      const { messages, batch } = parsed;
      if (messages.some(isInitialize)) {
        if (messages.length > 1) return reject(res, 400, -32600, 'Invalid Request: initialize must be sent alone');
        const id = randomUUID();
        const transport = new HttpSessionTransport(id, keptAlive);
        transport.onclose = () => {
          sessions.delete(id);
          cluster?.released(transport);
        };
        cluster?.opened(transport);
        try {
          await kernel.endpoint.connect(transport, 'streamable-http', id, http.identityOf(req), req.socket.remoteAddress, undefined, http.clientAddressOf(req));
        } catch (err) {
          // Refused before it existed (a session limit): nothing to clean up but the answer.
          return reject(res, 503, -32000, `Service Unavailable: ${(err as Error).message}`);
        }
        sessions.set(id, transport);
        transport.receive(messages, batch, res, req.headers);
        return true;
      }
      if (!protocolVersionSupported(version)) {
        return reject(res, 400, -32000, `Bad Request: unsupported MCP-Protocol-Version '${String(version)}'`);
      }
      const found = sessionOf(req, res);
      const transport = found instanceof Promise ? await found : found;
      if (transport) {
        transport.receive(messages, batch, res, req.headers);
        cluster?.seen(transport);
      }
      return true;
    };

    /**
     * A batch is judged whole before any of it runs: refused (-32600, nothing executed) unless
     * its session negotiated a revision that had batches, and then capped (messages.ts).
     */
    const postBatch = async (batch: unknown[], req: IncomingMessage, res: ServerResponse): Promise<true> => {
      const opensSession = typeof req.headers['mcp-session-id'] !== 'string';
      if (opensSession || batchOpensSession(batch)) return reject(res, 400, -32600, INITIALIZE_BATCH);
      const version = req.headers['mcp-protocol-version'];
      if (!protocolVersionSupported(typeof version === 'string' ? version : undefined)) {
        return reject(res, 400, -32000, `Bad Request: unsupported MCP-Protocol-Version '${String(version)}'`);
      }
      const found = sessionOf(req, res);
      const transport = found instanceof Promise ? await found : found;
      if (!transport) return true;
      const refusal = batchRefusal(batch, transport.protocolVersion);
      if (refusal) return reject(res, 400, -32600, refusal);
      const parsed = asMessages(batch);
      if (typeof parsed === 'string') return reject(res, 400, -32600, `Invalid Request: ${parsed}`);
      transport.receive(parsed.messages, true, res, req.headers);
      cluster?.seen(transport);
      return true;
    };

    const handler = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
      const http = kernel.services.get('http');
      if (!http.checkOrigin(req, res)) return true;
      switch (req.method) {
        case 'POST':
          return post(req, res);
        case 'GET': {
          if (!accepts(req, 'text/event-stream')) return reject(res, 406, -32000, 'Not Acceptable: GET needs Accept: text/event-stream');
          const found = sessionOf(req, res);
          const t = found instanceof Promise ? await found : found;
          if (t && !t.openStream(res)) reject(res, 409, -32000, 'Conflict: this session already has a GET stream open');
          return true;
        }
        case 'DELETE': {
          const found = sessionOf(req, res);
          const t = found instanceof Promise ? await found : found;
          if (t) {
            await t.close();
            res.writeHead(200).end();
          }
          return true;
        }
        default:
          res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
          return true;
      }
    };

    kernel.services.get('http').handle(options.path, handler);
    kernel.services.get('http').advertise({ type: 'streamable-http', path: options.path });

    /** Drops this replica's copy of a session that goes on through the other replicas. */
    const letGo = (t: HttpSessionTransport): void => {
      const session = kernel.sessions.get(t.sessionId);
      if (session) session.continuesElsewhere = true;
      t.drop();
    };

    return {
      start() {
        if (options.sessionIdleMinutes > 0) {
          const idleMs = options.sessionIdleMinutes * 60_000;
          sweeper = setInterval(
            () => {
              const now = Date.now();
              for (const t of sessions.values()) {
                if (now - t.lastActivity <= idleMs) continue;
                // In cluster mode a copy idle here may be busy elsewhere: it is dropped, and the
                // session ends everywhere when its record expires (no replica pushed it back).
                if (cluster) {
                  log.debug(`dropping this replica's copy of idle session ${t.sessionId}`);
                  letGo(t);
                } else {
                  log.info(`ending idle session ${t.sessionId}`);
                  void t.close();
                }
              }
            },
            Math.min(idleMs, 60_000),
          );
          sweeper.unref();
        }
      },
      async stop() {
        clearInterval(sweeper);
        listens.stop();
        keptAlive.stop();
        // In cluster mode the sessions go on through the other replicas: only this copy goes.
        if (cluster) for (const t of [...sessions.values()]) letGo(t);
        else await Promise.all([...sessions.values()].map((t) => t.close()));
      },
    };
  },
});
