/**
 * The catalogue's tool vectors for semantic ranking, computed off the request path: after a
 * catalogue change (coalesced like the lexical index, index-warmer.ts) a refresh reuses the
 * vectors it already has (same model, same name and description: same key), takes what it
 * can from the disk cache (vector-cache.ts), and embeds only the rest, in batches. Queries
 * read the last finished snapshot; a refresh that fails keeps it, is retried with a growing
 * backoff, and its reason is what filter_tools reports while no snapshot exists.
 *
 * A snapshot is one Float32Array of unit-length rows plus, per row, what cosine similarity
 * after centring needs (the rows' mean is subtracted: averaged word vectors and most models'
 * embeddings share a common direction that would make every tool look alike).
 */
import { EmbedderError, type CatalogueApi, type CatalogueEntry, type Embedder, type Logger } from '../../kernel/index.js';
import { vectorKey, type VectorCache } from './vector-cache.js';
import { DotRows } from './dot-rows.js';

const COALESCE_MS = 250;
/** Texts per embed() call: a local model runs in process, so the loop yields between chunks. */
const CHUNK = 256;
const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 300_000;
/** Characters of a description embedded: its gist is early, and remote models bill per token. */
const MAX_DESCRIPTION = 1000;

export interface VectorSnapshot {
  catalogueVersion: number;
  dimension: number;
  rows: Map<CatalogueEntry, number>;
  /** Row -> entry and row -> cache key. */
  entries: readonly CatalogueEntry[];
  keys: string[];
  /** rows x dimension, each row of unit length (or zero: a text of no known word). */
  matrix: DotRows;
  mean: Float32Array;
  /** Per row: row . mean. */
  meanDot: Float32Array;
  /** Per row: |row - mean|. */
  centredNorm: Float32Array;
  meanSquare: number;
  /** Per row: 1 for a core tool (gated like lexical ranking gates it). */
  core: Uint8Array;
}

/** What a tool is embedded as: its name read as words (without the `x_` of external tools), then its description. */
export function embeddingText(entry: CatalogueEntry): string {
  const name = entry.name.replace(/^x_/, '').replace(/[_-]+/g, ' ');
  return `${name}: ${entry.description.slice(0, MAX_DESCRIPTION)}`;
}

export function unit(v: Float32Array): Float32Array {
  let sq = 0;
  for (let i = 0; i < v.length; i++) sq += v[i]! * v[i]!;
  if (sq > 0) {
    const inv = 1 / Math.sqrt(sq);
    for (let i = 0; i < v.length; i++) v[i]! *= inv;
  }
  return v;
}

function snapshotOf(version: number, entries: readonly CatalogueEntry[], keys: string[], vectors: Float32Array[], dimension: number): VectorSnapshot {
  const n = entries.length;
  const matrix = new DotRows(n, dimension);
  const mean = new Float32Array(dimension);
  const rows = new Map<CatalogueEntry, number>();
  vectors.forEach((v, i) => {
    matrix.set(i, v);
    for (let d = 0; d < dimension; d++) mean[d]! += v[d]! / n;
    rows.set(entries[i]!, i);
  });
  let meanSquare = 0;
  for (let d = 0; d < dimension; d++) meanSquare += mean[d]! * mean[d]!;
  const meanDot = new Float32Array(n);
  const centredNorm = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const v = vectors[i]!;
    let dot = 0;
    let sq = 0;
    for (let d = 0; d < dimension; d++) {
      dot += v[d]! * mean[d]!;
      sq += v[d]! * v[d]!;
    }
    meanDot[i] = dot;
    centredNorm[i] = Math.sqrt(Math.max(0, sq - 2 * dot + meanSquare));
  }
  const core = Uint8Array.from(entries, (e) => Number(e.kind === 'core'));
  return { catalogueVersion: version, dimension, rows, entries, keys, matrix, mean, meanDot, centredNorm, meanSquare, core };
}

export class ToolVectors {
  snapshot: VectorSnapshot | undefined;
  /** Why the last refresh failed; cleared by one that succeeds. */
  failure: EmbedderError | undefined;
  /** Tools whose vectors the running refresh has, of how many. */
  progress = { done: 0, total: 0 };
  private pending: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private retryMs = RETRY_FIRST_MS;
  private stopped = false;

  constructor(
    private readonly catalogue: CatalogueApi,
    private readonly embedder: Embedder,
    private readonly cache: VectorCache,
    private readonly log: Logger,
  ) {}

  /** A refresh soon (a burst of changes makes one). */
  schedule(delayMs = COALESCE_MS): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      void this.run();
    }, delayMs);
    this.pending.unref();
  }

  /** Refreshes now and resolves when done (the benchmark, and tests that need vectors first). */
  async refreshNow(): Promise<void> {
    if (this.pending) clearTimeout(this.pending);
    this.pending = undefined;
    await this.run();
  }

  stop(): void {
    this.stopped = true;
    if (this.pending) clearTimeout(this.pending);
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      await this.refresh();
      this.failure = undefined;
      this.retryMs = RETRY_FIRST_MS;
    } catch (err) {
      this.failure = err instanceof EmbedderError ? err : new EmbedderError('bad-response', (err as Error).message);
      this.log.warn(`tool vectors: ${this.failure.message}; filter_tools ranks lexically where vectors are missing (retry in ${this.retryMs / 1000} s)`);
      const wait = this.retryMs;
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      this.running = false;
      this.schedule(wait);
      return;
    }
    this.running = false;
    if (this.again) {
      this.again = false;
      this.schedule();
    }
  }

  private async refresh(): Promise<void> {
    const version = this.catalogue.version;
    const entries = this.catalogue.all();
    if (this.snapshot?.catalogueVersion === version) return;
    const texts = entries.map(embeddingText);
    const keys = texts.map((t) => vectorKey(this.embedder.modelId, t));
    const vectors: (Float32Array | undefined)[] = new Array<Float32Array | undefined>(entries.length);
    const prev = this.snapshot;
    if (prev) {
      const prevRows = new Map(prev.keys.map((k, i) => [k, i]));
      keys.forEach((k, i) => {
        const row = prevRows.get(k);
        if (row !== undefined) vectors[i] = prev.matrix.row(row).slice();
      });
    }
    let missing = keys.flatMap((_, i) => (vectors[i] ? [] : [i]));
    let onDisk = new Map<string, Float32Array>();
    if (missing.length > 0) {
      onDisk = await this.cache.read();
      for (const i of missing) vectors[i] = onDisk.get(keys[i]!);
    }
    const fromDisk = missing.filter((i) => vectors[i]).length;
    missing = missing.filter((i) => !vectors[i]);
    let dimension = prev?.dimension ?? vectors.find((v) => v)?.length;
    this.progress = { done: entries.length - missing.length, total: entries.length };
    const step = Math.min(CHUNK, this.embedder.maxBatch);
    for (let at = 0; at < missing.length; at += step) {
      if (this.stopped) return;
      const chunk = missing.slice(at, at + step);
      const made = await this.embedder.embed(chunk.map((i) => texts[i]!));
      if (made.length !== chunk.length) throw new EmbedderError('bad-response', `${made.length} vectors for ${chunk.length} texts`);
      made.forEach((v, j) => {
        dimension ??= v.length;
        if (v.length !== dimension) throw new EmbedderError('bad-response', `a vector of ${v.length} numbers, the others have ${dimension}`);
        vectors[chunk[j]!] = unit(v);
      });
      this.progress = { done: this.progress.done + chunk.length, total: entries.length };
      // A local model computes in this thread: let requests through between chunks.
      await new Promise<void>((r) => setImmediate(r));
    }
    if (dimension === undefined) {
      this.snapshot = undefined;
      return;
    }
    const d = dimension;
    const all = vectors.map((v) => (v && v.length === d ? v : new Float32Array(d)));
    this.snapshot = snapshotOf(version, entries, keys, all, d);
    this.log.info(
      `tool vectors: ${entries.length} tools (${missing.length} embedded, ${fromDisk} from the cache, ${entries.length - missing.length - fromDisk} kept)`,
    );
    if (missing.length > 0) await this.persist(keys, all, onDisk, d);
  }

  private async persist(keys: string[], vectors: Float32Array[], onDisk: Map<string, Float32Array>, dimension: number): Promise<void> {
    const current = new Set(keys);
    function* ordered(): Generator<[string, Float32Array]> {
      for (let i = 0; i < keys.length; i++) yield [keys[i]!, vectors[i]!];
      // Then what the file held for tools gone for now (a stopped server's), newest last in the file: kept while room remains.
      for (const [k, v] of [...onDisk].reverse()) if (!current.has(k)) yield [k, v];
    }
    try {
      await this.cache.write(ordered(), dimension);
    } catch (err) {
      this.log.warn(`tool vectors: cannot write the cache ${this.cache.path}: ${(err as Error).message}`);
    }
  }
}
