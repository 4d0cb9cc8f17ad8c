/**
 * The `embedder` over an OpenAI-compatible `POST <baseUrl>/embeddings`. Every request goes
 * through the outbound policy (aggregator.network.allow: the address is resolved once,
 * checked and pinned), carries the operator's key as a bearer token, and is bounded: texts
 * per request, characters per text, bytes of the answer, time. Failures become EmbedderError
 * with a reason; the key never appears in one (messages name the URL and status only).
 */
import { EmbedderError, type EmbedOptions, type Embedder, type OpenAiEmbedderSettings } from '../../kernel/index.js';
import { OutboundRefusedError, type PinnedAddress } from '../../lib/net/outbound-policy.js';
import { pinnedFetch } from '../../lib/net/pinned-fetch.js';
import type { RenewableSecret } from '../../lib/secrets/renewable-secret.js';
import { parseEmbeddings, type EmbeddingsRequest } from './wire.js';

export interface OpenAiEmbedderDeps {
  /** The outbound policy of the settings in force: resolves and checks the host. */
  resolve: (url: URL) => Promise<PinnedAddress>;
  /** The operator's key (read again when the endpoint refuses it), or undefined for none. */
  apiKey: RenewableSecret | undefined;
}

function failure(err: unknown, url: string, timeoutMs: number): EmbedderError {
  if (err instanceof EmbedderError) return err;
  if (err instanceof OutboundRefusedError) return new EmbedderError('refused', `${url}: ${err.message}`);
  const e = err as Error & { code?: string; name?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return new EmbedderError('timeout', `${url}: no answer within ${timeoutMs} ms`);
  if (/larger than \d+ bytes/.test(e.message)) return new EmbedderError('too-large', `${url}: ${e.message} (embedder.openai.maxResponseBytes)`);
  return new EmbedderError('unreachable', `${url}: ${e.code ?? e.message}`);
}

export class OpenAiEmbedder implements Embedder {
  readonly locality = 'remote';
  readonly modelId: string;
  readonly maxBatch: number;
  readonly queryTimeoutMs: number;
  private readonly url: string;
  private readonly fetch: ReturnType<typeof pinnedFetch>;
  private readonly timeoutMs: number;
  /** Learnt from the first answer (or the configured `dimensions`): every later answer must match. */
  private dimension: number | undefined;

  constructor(
    private readonly s: OpenAiEmbedderSettings,
    private readonly deps: OpenAiEmbedderDeps,
  ) {
    this.url = `${s.baseUrl.replace(/\/+$/, '')}/embeddings`;
    this.modelId = `openai:${s.baseUrl.replace(/\/+$/, '')}#${s.model}${s.dimensions ? `@${s.dimensions}` : ''}`;
    this.maxBatch = s.batchSize;
    this.timeoutMs = Math.round(s.timeoutSeconds * 1000);
    this.queryTimeoutMs = Math.round(s.queryTimeoutSeconds * 1000);
    this.dimension = s.dimensions;
    this.fetch = pinnedFetch({ resolve: deps.resolve, maxBodyBytes: s.maxResponseBytes, timeoutMs: this.timeoutMs });
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.maxBatch) out.push(...(await this.batch(texts.slice(i, i + this.maxBatch), options)));
    return out;
  }

  private async batch(texts: readonly string[], options: EmbedOptions, renewed = false): Promise<Float32Array[]> {
    const body: EmbeddingsRequest = {
      model: this.s.model,
      // An empty input is refused by some servers: a single space means "nothing" to all of them.
      input: texts.map((t) => t.slice(0, this.s.maxInputChars) || ' '),
      encoding_format: 'float',
      ...(this.s.dimensions ? { dimensions: this.s.dimensions } : {}),
    };
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    const key = this.deps.apiKey?.current;
    if (key !== undefined) headers.authorization = `Bearer ${key}`;
    const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(this.timeoutMs)]) : AbortSignal.timeout(this.timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await this.fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body), signal });
      text = await res.text();
    } catch (err) {
      throw failure(err, this.url, this.timeoutMs);
    }
    // Refused: the key may have been renewed where it is kept; read it again, and try once more with a new one.
    if ((res.status === 401 || res.status === 403) && !renewed && key !== undefined && (await this.deps.apiKey?.refused(key)))
      return this.batch(texts, options, true);
    if (!res.ok) throw new EmbedderError('http-status', `${this.url} answered HTTP ${res.status}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new EmbedderError('bad-response', `${this.url}: the answer is not JSON`);
    }
    const vectors = parseEmbeddings(json, texts.length, this.dimension);
    this.dimension ??= vectors[0]?.length;
    return vectors;
  }
}
