/**
 * A text's vector from word vectors: the SIF-weighted average of its words' vectors (Arora et
 * al., "A simple but tough-to-beat baseline for sentence embeddings", 2017). A word of
 * probability p weighs a / (a + p), so "the", "a", "list" count for little and rare, telling
 * words for much. p is estimated from the word's rank in the file (Zipf's law: p(r) ~ 1 / (r
 * H_N)), since vector files carry no counts but list words most frequent first. The common
 * component SIF also removes depends on the texts compared, so the ranking side removes it
 * (meta-tools centres the tool vectors on their mean). Words the file lacks are skipped.
 */
import { createHash } from 'node:crypto';
import { EmbedderError, type Embedder } from '../../kernel/index.js';
import { textWords } from './words.js';
import type { WordVectors } from './vectors-file.js';

/** Most words of one text that are looked up: a tool description is long, its gist is early. */
const MAX_WORDS_PER_TEXT = 512;

export class StaticEmbedder implements Embedder {
  readonly locality = 'local';
  readonly maxBatch = 4096;
  /** In process: a query's vector takes microseconds once the file is loaded. */
  readonly queryTimeoutMs = 1000;
  private vectors: WordVectors | undefined;
  private weights: Float32Array = new Float32Array(0);
  private failure: EmbedderError | undefined;
  private readonly loaded: Promise<void>;

  constructor(
    readonly modelId: string,
    load: () => Promise<WordVectors>,
    sif: number,
    onLoaded: (v: WordVectors) => void,
    onFailed: (e: EmbedderError) => void,
  ) {
    this.loaded = load().then(
      (v) => {
        this.vectors = v;
        this.weights = sifWeights(v.rows.size, sif);
        onLoaded(v);
      },
      (err: unknown) => {
        this.failure = err instanceof EmbedderError ? err : new EmbedderError('model-invalid', `cannot load the word vectors: ${(err as Error).message}`);
        onFailed(this.failure);
      },
    );
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    await this.loaded;
    const v = this.vectors;
    if (!v) throw this.failure ?? new EmbedderError('not-ready', 'the word vectors are not loaded');
    return texts.map((t) => this.embedOne(v, t));
  }

  private embedOne(v: WordVectors, text: string): Float32Array {
    const out = new Float32Array(v.dimension);
    let total = 0;
    const words = textWords(text);
    for (let i = 0; i < words.length && i < MAX_WORDS_PER_TEXT; i++) {
      const row = v.rows.get(words[i]!);
      if (row === undefined) continue;
      const w = this.weights[row]!;
      const base = row * v.dimension;
      for (let d = 0; d < v.dimension; d++) out[d]! += w * v.data[base + d]!;
      total += 1;
    }
    if (total > 0) for (let d = 0; d < v.dimension; d++) out[d]! /= total;
    return out;
  }
}

/** SIF weight of each rank: a / (a + p(r)), p(r) = 1 / (r H_n) with H_n the n-th harmonic number. */
export function sifWeights(n: number, a: number): Float32Array {
  const harmonic = Math.log(n) + 0.5772156649 + 1 / (2 * n);
  const out = new Float32Array(n);
  for (let r = 0; r < n; r++) out[r] = a / (a + 1 / ((r + 1) * harmonic));
  return out;
}

/** The model's id: the file's identity (path, size, mtime) and the settings that change vectors, hashed. */
export function staticModelId(path: string, size: number, mtimeMs: number, maxWords: number, sif: number): string {
  const digest = createHash('sha256').update(`${path}\0${size}\0${mtimeMs}\0${maxWords}\0${sif}`).digest('hex').slice(0, 16);
  return `static:${digest}`;
}
