/**
 * filter_tools' `query` ranking with an embedder: the lexical ranking (ranking.ts, a black
 * box here) fused with the cosine similarity of the query's vector to each tool's
 * (tool-vectors.ts). Without an embedder, or while its vectors are missing or it fails, the
 * answer is the lexical ranking alone and `ranking` says why (docs/discovery.md).
 *
 * Fusion is a blend of the scores, lexical weighing BLEND_ALPHA (docs/decisions.md: measured
 * against reciprocal rank fusion on the development set), over the tools the lexical ranking
 * matched and the semantic ranking's top SEMANTIC_DEPTH, so a paraphrase that shares no word
 * with a tool still finds it.
 */
import { EmbedderError, type CatalogueApi, type CatalogueEntry, type Embedder } from '../../kernel/index.js';
import { rankEntries, type Scored } from './ranking.js';
import { unit, type ToolVectors, type VectorSnapshot } from './tool-vectors.js';

/** RRF's constant: 60 in the original paper; smaller lets the top ranks count for more. */
export const RRF_K = 60;
/** The lexical share of the blend filter_tools uses (measured on the development set: docs/decisions.md). */
export const BLEND_ALPHA = 0.7;
/** Semantic matches a query brings in beyond the lexical ones. */
export const SEMANTIC_DEPTH = 50;
/** Query vectors kept (a query embeds once; an agent repeats itself). */
const QUERY_CACHE = 256;

export interface RankedAnswer {
  scored: Scored[];
  /** filter_tools' `ranking` field: `hybrid`, `lexical`, or `lexical (<why the embedder is not used>)`. */
  ranking: string;
}

/** The top `k` candidates by `score` (a bounded min-heap: no sort of the whole catalogue). */
function topK(rows: Int32Array, scores: Float32Array, count: number, k: number): Semantic {
  const heap = new Int32Array(Math.min(k, count));
  let size = 0;
  const less = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && less(heap[l]!, heap[m]!)) m = l;
      if (r < size && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let c = 0; c < count; c++) {
    if (size < heap.length) {
      let i = size++;
      heap[i] = c;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!less(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    } else if (less(heap[0]!, c)) {
      heap[0] = c;
      down(0);
    }
  }
  const out = Array.from(heap.subarray(0, size)).sort((a, b) => (less(a, b) ? 1 : less(b, a) ? -1 : 0));
  return { rows: Int32Array.from(out, (c) => rows[c]!), scores: Float32Array.from(out, (c) => scores[c]!) };
}

/** Semantic matches best first: snapshot rows and their centred cosine. */
export interface Semantic {
  rows: Int32Array;
  scores: Float32Array;
}

/** Centred cosine of the query with each candidate row, best SEMANTIC_DEPTH first (rows). */
export function semanticRanking(s: VectorSnapshot, query: Float32Array, candidates: readonly CatalogueEntry[], depth = SEMANTIC_DEPTH): Semantic {
  const d = s.dimension;
  let qMean = 0;
  let qSq = 0;
  for (let i = 0; i < d; i++) {
    qMean += query[i]! * s.mean[i]!;
    qSq += query[i]! * query[i]!;
  }
  const qNorm = Math.sqrt(Math.max(0, qSq - 2 * qMean + s.meanSquare)) || 1;
  const rows = new Int32Array(candidates.length);
  const scores = new Float32Array(candidates.length);
  let count = 0;
  for (let c = 0; c < candidates.length; c++) {
    const row = s.rows.get(candidates[c]!);
    if (row === undefined) continue;
    const norm = s.centredNorm[row]!;
    if (norm === 0) continue;
    let dot = 0;
    for (let i = 0, at = row * d; i < d; i++, at++) dot += query[i]! * s.data[at]!;
    rows[count] = row;
    scores[count] = (dot - qMean - s.meanDot[row]! + s.meanSquare) / (qNorm * norm);
    count++;
  }
  return topK(rows, scores, count, depth);
}

/**
 * The lexical answer with some entries raised: `base(i, score)` is the i-th lexical entry's
 * fused score (falling with i), `boost` what the semantic ranking adds to its few entries.
 * Only the raised entries are sorted; the rest keep their lexical order and are merged in, so
 * a query over ten thousand matches sorts fifty, not ten thousand.
 */
function raise(lexical: readonly Scored[], base: (i: number, score: number) => number, boost: Map<CatalogueEntry, number>): Scored[] {
  const raised: { entry: CatalogueEntry; score: number; order: number }[] = [];
  const rest: Scored[] = [];
  lexical.forEach(({ entry, score }, i) => {
    const fused = base(i, score);
    const b = boost.get(entry);
    if (b === undefined) rest.push({ entry, score: fused });
    else {
      raised.push({ entry, score: fused + b, order: i });
      boost.delete(entry);
    }
  });
  for (const [entry, b] of boost) raised.push({ entry, score: b, order: Infinity });
  raised.sort((a, b) => b.score - a.score || a.order - b.order || (a.entry.name < b.entry.name ? -1 : 1));
  const out: Scored[] = [];
  let r = 0;
  let l = 0;
  while (r < raised.length || l < rest.length) {
    const next = r < raised.length && (l >= rest.length || raised[r]!.score > rest[l]!.score) ? raised[r++]! : rest[l++]!;
    out.push({ entry: next.entry, score: Math.round(next.score * 10000) / 10000 });
  }
  return out;
}

/** Reciprocal rank fusion: 1/(k + lexical rank) + 1/(k + semantic rank). */
export function fuse(lexical: readonly Scored[], semantic: Semantic, s: VectorSnapshot, k = RRF_K): Scored[] {
  const boost = new Map<CatalogueEntry, number>();
  semantic.rows.forEach((row, i) => boost.set(s.entries[row]!, 1 / (k + i + 1)));
  return raise(lexical, (i) => 1 / (k + i + 1), boost);
}

/**
 * A blend of the scores: alpha x lexical score / the best lexical score, plus (1 - alpha) x
 * cosine / the best cosine (negative cosines add nothing). What filter_tools uses, with
 * BLEND_ALPHA (docs/decisions.md).
 */
export function blend(lexical: readonly Scored[], semantic: Semantic, s: VectorSnapshot, alpha = BLEND_ALPHA): Scored[] {
  const top = lexical[0]?.score || 1;
  const best = semantic.scores[0] ?? 0;
  const boost = new Map<CatalogueEntry, number>();
  if (best > 0) semantic.rows.forEach((row, i) => boost.set(s.entries[row]!, ((1 - alpha) * Math.max(0, semantic.scores[i]!)) / best));
  return raise(lexical, (_, score) => (alpha * score) / top, boost);
}

export class HybridRanker {
  private readonly queries = new Map<string, Promise<Float32Array>>();

  constructor(
    private readonly catalogue: CatalogueApi,
    private readonly embedder: Embedder | undefined,
    private readonly vectors: ToolVectors | undefined,
  ) {}

  async rank(query: string, candidates: readonly CatalogueEntry[]): Promise<RankedAnswer> {
    const lexical = rankEntries(this.catalogue, query, candidates);
    if (!this.embedder || !this.vectors) return { scored: lexical, ranking: 'lexical' };
    const snapshot = this.vectors.snapshot;
    if (!snapshot) {
      const f = this.vectors.failure;
      if (f) return { scored: lexical, ranking: `lexical (embedder unavailable: ${f.reason}: ${f.message})` };
      const { done, total } = this.vectors.progress;
      return { scored: lexical, ranking: `lexical (embedder not ready: tool vectors for ${done} of ${total} tools)` };
    }
    let vector: Float32Array;
    try {
      vector = await this.queryVector(query);
    } catch (err) {
      const e = err instanceof EmbedderError ? err : new EmbedderError('bad-response', (err as Error).message);
      return { scored: lexical, ranking: `lexical (embedder unavailable: ${e.reason}: ${e.message})` };
    }
    if (vector.length !== snapshot.dimension) {
      return {
        scored: lexical,
        ranking: `lexical (embedder unavailable: bad-response: the query's vector has ${vector.length} numbers, the tools' ${snapshot.dimension})`,
      };
    }
    const scored = blend(lexical, semanticRanking(snapshot, vector, candidates), snapshot);
    const behind = snapshot.catalogueVersion !== this.catalogue.version;
    return { scored, ranking: behind ? `hybrid (tool vectors are being updated: ${snapshot.rows.size} tools have them)` : 'hybrid' };
  }

  private queryVector(text: string): Promise<Float32Array> {
    const key = text.trim().toLowerCase();
    const hit = this.queries.get(key);
    if (hit) {
      this.queries.delete(key);
      this.queries.set(key, hit);
      return hit;
    }
    const embedder = this.embedder!;
    const made = embedder.embed([text], { signal: AbortSignal.timeout(embedder.queryTimeoutMs) }).then(([v]) => {
      if (!v) throw new EmbedderError('bad-response', 'no vector for the query');
      return unit(v);
    });
    this.queries.set(key, made);
    if (this.queries.size > QUERY_CACHE) this.queries.delete(this.queries.keys().next().value!);
    // A failure is not remembered: the next search asks again.
    made.catch(() => this.queries.delete(key));
    return made;
  }
}
