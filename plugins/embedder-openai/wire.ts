/**
 * The OpenAI embeddings wire format, as OpenAI, Ollama (/v1), TEI and vLLM answer it:
 * `{data: [{embedding: number[] | base64 float32, index}], model}`. Everything in the answer
 * is checked before a vector is used: one per input, by index, all of one dimension.
 */
import { EmbedderError } from '../../kernel/index.js';

export interface EmbeddingsRequest {
  model: string;
  input: string[];
  encoding_format: 'float';
  dimensions?: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function vectorOf(raw: unknown, at: number): Float32Array {
  if (typeof raw === 'string') {
    const bytes = Buffer.from(raw, 'base64');
    if (bytes.length % 4 !== 0 || bytes.length === 0) throw new EmbedderError('bad-response', `data[${at}].embedding: base64 that is not float32 numbers`);
    const out = new Float32Array(bytes.length / 4);
    for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
    return out;
  }
  if (!Array.isArray(raw) || raw.length === 0) throw new EmbedderError('bad-response', `data[${at}].embedding: not a list of numbers`);
  const out = new Float32Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const n: unknown = raw[i];
    if (typeof n !== 'number' || !Number.isFinite(n)) throw new EmbedderError('bad-response', `data[${at}].embedding[${i}]: not a finite number`);
    out[i] = n;
  }
  return out;
}

/** The vectors of an answer to `count` inputs, in input order. `dimension`: the one expected, when known. */
export function parseEmbeddings(body: unknown, count: number, dimension: number | undefined): Float32Array[] {
  if (!isRecord(body) || !Array.isArray(body.data)) throw new EmbedderError('bad-response', 'the answer has no "data" list');
  if (body.data.length !== count) throw new EmbedderError('bad-response', `${body.data.length} embeddings for ${count} inputs`);
  const out: (Float32Array | undefined)[] = new Array<Float32Array | undefined>(count);
  body.data.forEach((item: unknown, at) => {
    if (!isRecord(item)) throw new EmbedderError('bad-response', `data[${at}] is not an object`);
    const index = item.index === undefined ? at : item.index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || out[index]) {
      throw new EmbedderError('bad-response', `data[${at}].index is not a distinct input index`);
    }
    const v = vectorOf(item.embedding, at);
    const want = dimension ?? out.find((x) => x)?.length ?? v.length;
    if (v.length !== want) throw new EmbedderError('bad-response', `data[${at}].embedding has ${v.length} numbers, expected ${want}`);
    out[index] = v;
  });
  return out as Float32Array[];
}
