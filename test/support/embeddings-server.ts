/**
 * A local HTTP server speaking the OpenAI `/v1/embeddings` wire format, backed by real word
 * vectors (the fastText model of fasttext-model.ts, averaged with SIF like embedder-static):
 * what the embedder-openai tests talk to instead of OpenAI, Ollama or TEI. It checks the
 * bearer key (which the test can renew: from then on only the new one is accepted), records
 * what it was sent, and can be closed to play an outage.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readVectorsFile } from '../../plugins/embedder-static/vectors-file.js';
import { StaticEmbedder } from '../../plugins/embedder-static/static-embedder.js';

export interface EmbeddingsServer {
  baseUrl: string;
  /** Every request's Authorization header and input count, in order. */
  requests: { authorization: string | undefined; inputs: number; model: unknown }[];
  /** Accepts `key` from now on, and no longer the one before. */
  renewKey(key: string): void;
  close(): Promise<void>;
}

export async function startEmbeddingsServer(vecFile: string, firstKey: string): Promise<EmbeddingsServer> {
  let key = firstKey;
  const words = await readVectorsFile(vecFile, 'test', { maxFileBytes: 1024 ** 3, maxDimension: 1024, maxWords: 200_000 });
  const model = new StaticEmbedder(
    'test',
    () => Promise.resolve(words),
    0.001,
    () => undefined,
    () => undefined,
  );
  const requests: EmbeddingsServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const send = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (req.method !== 'POST' || req.url !== '/v1/embeddings') return send(404, { error: { message: 'not found' } });
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model?: unknown; input?: unknown };
        const input = typeof body.input === 'string' ? [body.input] : (body.input as string[]);
        requests.push({ authorization: req.headers.authorization, inputs: input.length, model: body.model });
        if (req.headers.authorization !== `Bearer ${key}`)
          return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
        const vectors = await model.embed(input);
        send(200, {
          object: 'list',
          model: body.model,
          data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: Array.from(v) })),
          usage: { prompt_tokens: input.length, total_tokens: input.length },
        });
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    renewKey: (renewed) => {
      key = renewed;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
